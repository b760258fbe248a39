// Saving a run as a scene file: every body, model and the carried state, numbers written
// shortest round-trip so the file continues the run bit for bit (Simulation::save_state).
#include <algorithm>
#include <optional>
#include <sstream>

#include "io/atomic_file.hpp"
#include "io/scene_file.hpp"
#include "io/toml_writing.hpp"

namespace stepwise {
namespace {

// `a, b, c` appended to out.
void append_numbers_between(std::string& out, const double* numbers, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (i) out += ", ";
    append_double(out, numbers[i]);
  }
}

// `[a, b, c]` appended to out.
void append_numbers(std::string& out, const double* numbers, size_t count) {
  out += '[';
  append_numbers_between(out, numbers, count);
  out += ']';
}

// `key = [a, b, c]` and a line's end appended to out.
void append_vec_line(std::string& out, const char* key, const Vec3& v) {
  out.append(key).append(" = ");
  append_numbers(out, v.data(), 3);
  out += '\n';
}

}  // namespace

std::string value_text(const ParamValue& value) {
  if (auto s = std::get_if<std::string>(&value)) {
    std::string quoted = "\"";
    for (char c : *s) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return quoted + "\"";
  }
  if (auto list = std::get_if<std::vector<double>>(&value)) {
    std::string out;
    append_numbers(out, list->data(), list->size());
    return out;
  }
  return format_param_value(value);
}

// `[a, b, c]` written in pieces: a saved state's lists run to millions of numbers, and one
// string of 3,000,000 of them is some 66 MB beside the state being saved.
void write_numbers(std::ostream& out, const std::vector<double>& list) {
  constexpr size_t kPiece = 4096;
  std::string text;
  out << '[';
  for (size_t first = 0; first < list.size(); first += kPiece) {
    text.assign(first == 0 ? "" : ", ");
    append_numbers_between(text, list.data() + first, std::min(kPiece, list.size() - first));
    out.write(text.data(), std::streamsize(text.size()));
  }
  out << ']';
}

void write_table(std::ostream& out, const ParamTable& table, const std::string& prefix) {
  for (const auto& [key, value] : table.values()) {
    if (std::holds_alternative<std::vector<ParamTable>>(value)) continue;
    out << key << " = ";
    if (auto list = std::get_if<std::vector<double>>(&value))
      write_numbers(out, *list);
    else
      out << value_text(value);
    out << "\n";
  }
  for (const auto& [key, value] : table.values())
    if (auto tables = std::get_if<std::vector<ParamTable>>(&value))
      for (const ParamTable& sub : *tables) {
        out << "[[" << prefix << "." << key << "]]\n";
        write_table(out, sub, prefix + "." + key);
      }
}

namespace {

// A body's shape keys as write_table writes them, made once per shape object (bodies of one
// shape share it: a saved packing's spheres each wrote the same radius table anew).
class ShapeKeys {
 public:
  const std::string& of(const Shape& shape) {
    if (&shape != shape_) {
      ParamTable keys;
      shape.save(keys);
      std::ostringstream lines;
      write_table(lines, keys, "body");
      lines_ = lines.str();
      shape_ = &shape;
    }
    return lines_;
  }

 private:
  const Shape* shape_ = nullptr;
  std::string lines_;
};

}  // namespace

void write_scene_toml(std::ostream& out, Simulation& sim, const std::string& label,
                      double duration) {
  const World& world = sim.world();
  out << "# stepwise scene: the full state at t = " << format_double(sim.time()) << "\n\n[scene]\n";
  out << "name = \"" << label << "\"\n";
  out << "integrator = \"" << sim.integrator_name() << "\"\n";
  out << "rotation = \"" << sim.rotation_name() << "\"\n";
  out << "dt = " << format_double(sim.dt()) << "\n";
  out << "duration = " << format_double(duration) << "\n";
  out << "time = " << format_double(sim.time()) << "\n";
  out << "step = " << sim.step_count() << "\n";
  out << "seed = " << sim.seed() << "\n";
  if (world.dimensions != 3) out << "dimensions = " << world.dimensions << "\n";
  if (world.local_damping > 0)
    out << "local_damping = " << format_double(world.local_damping) << "\n";
  if (world.contact.impulse()) out << "contact = \"impulse\"\n";
  ParamTable options;
  sim.integrator().save_options(options);
  if (!options.values().empty()) {
    out << "\n[integrator]\n";
    write_table(out, options, "integrator");
  }
  if (world.contact.impulse()) {
    ParamTable impulse;
    world.contact.save_options(impulse);
    out << "\n[impulse]\n";
    write_table(out, impulse, "impulse");
  }
  for (int m = 1; m <= world.materials.size(); ++m) {
    out << "\n[[material]]\nname = " << value_text(world.materials.at(m).name) << "\n";
    write_table(out, world.materials.at(m).keys, "material");
  }
  for (const MaterialPair& pair : world.materials.pairs()) {
    out << "\n[[material_pair]]\na = " << value_text(world.materials.at(pair.a).name)
        << "\nb = " << value_text(world.materials.at(pair.b).name) << "\n";
    write_table(out, pair.keys, "material_pair");
  }
  // Each body's lines made in one reused string and written whole (a saved state's millions of
  // numbers took most of its writing time as strings of their own).
  std::string text;
  ShapeKeys shape_keys;
  for (int i = 0; i < world.size(); ++i) {
    text.assign("\n[[body]]\n");
    if (!world.ids.empty())  // stored in another order (World::ids): listed as stored, with ids
      text.append("id = ").append(std::to_string(world.ids[size_t(i)])).append("\n");
    text.append("mass = ");
    append_double(text, world.mass(i));
    text += '\n';
    if (world.material[i] > 0)
      text.append("material = ")
          .append(value_text(world.materials.at(world.material[i]).name))
          .append("\n");
    text.append("shape = \"").append(world.shape[i]->kind()).append("\"\n");
    text += shape_keys.of(*world.shape[i]);
    append_vec_line(text, "inertia", world.inertia.col(i));
    append_vec_line(text, "position", world.x.col(i));
    append_vec_line(text, "velocity", world.v.col(i));
    const Quat& q = world.q[i];
    const double wxyz[4] = {q.w(), q.x(), q.y(), q.z()};
    text.append("orientation = ");
    append_numbers(text, wxyz, 4);
    text += '\n';
    append_vec_line(text, "angular_velocity", world.w.col(i));
    append_vec_line(text, "angular_momentum", world.L.col(i));
    if (world.flags[i] & kFixed) text.append("fixed = true\n");
    if (world.flags[i] & kDriven) text.append("driven = true\n");
    if (world.flags[i] & kDrivenSpin) text.append("driven_spin = true\n");
    if (world.flags[i] & kPivot) {
      append_vec_line(text, "pivot", world.pivot.col(i));
      append_vec_line(text, "pivot_arm", world.pivot_arm.col(i));
    }
    out.write(text.data(), std::streamsize(text.size()));
  }
  for (const auto& model : world.forces) {
    out << "\n[[force]]\nmodel = \"" << model->kind() << "\"\n";
    ParamTable table;
    model->save(table);
    write_table(out, table, "force");
  }
  // What else decides the future: half-step velocities, contact history, cached forces, the
  // random stream and the energy ledger. With it, a reloaded run continues bit for bit.
  out << "\n[state]\n";
  write_table(out, sim.save_state(), "state");
}

std::string scene_to_toml(Simulation& sim, const std::string& label, double duration) {
  std::ostringstream out;
  write_scene_toml(out, sim, label, duration);
  return out.str();
}

void save_scene_file(const std::string& path, Simulation& sim, const std::string& label,
                     double duration) {
  AtomicFile file(path);
  write_scene_toml(file.stream(), sim, label, duration);
  file.commit();
}

std::string builtin_scene_toml(const std::string& name, const BuiltinChoices& chosen) {
  const SceneInfo info = SceneRegistry::instance().make(name)->info();
  // (built only where the choices leave something to the scene: 1,000,000 spheres take a second)
  std::optional<SceneSetup> built;
  auto setup = [&]() -> const SceneSetup& {
    if (!built) built = build_scene(name, chosen.parameters);
    return *built;
  };
  std::ostringstream out;
  out << "# " << info.name << ": " << info.summary << "\n#\n";
  std::istringstream words(info.notes);
  std::string line;
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + word.size() > 92) {
      out << "# " << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out << "# " << line << "\n";
  out << "\n[scene]\nbuiltin = \"" << name << "\"\n";
  if (!chosen.label.empty() && chosen.label != name)
    out << "name = " << value_text(chosen.label) << "\n";
  const int dimensions = chosen.dimensions ? *chosen.dimensions : setup().world.dimensions;
  if (dimensions != 3) out << "dimensions = " << dimensions << "\n";
  out << "integrator = "
      << value_text(chosen.integrator.empty() ? setup().integrator : chosen.integrator) << "\n";
  out << "rotation = " << value_text(chosen.rotation.empty() ? setup().rotation : chosen.rotation)
      << "\n";
  out << "dt = " << format_double(chosen.dt ? *chosen.dt : setup().dt) << "\n";
  out << "duration = " << format_double(chosen.duration ? *chosen.duration : setup().duration)
      << "\n";
  if (chosen.seed) out << "seed = " << *chosen.seed << "\n";
  out << "\n[parameters]\n";
  for (const ParamSpec& p : info.params) {  // (a run's parameters are the scene's: checked at load)
    const auto given = chosen.parameters.find(p.name);
    const bool set = given != chosen.parameters.end();
    out << p.name << " = " << value_text(set ? given->second : p.default_value) << "  # "
        << p.description << "\n";
  }
  if (!chosen.integrator_options.values().empty()) {
    out << "\n[integrator]\n";
    write_table(out, chosen.integrator_options, "integrator");
  }
  return out.str();
}

}  // namespace stepwise
