#include "io/scene_file.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <utility>

#include <toml++/toml.h>

#include "core/limits.hpp"
#include "core/spatial_order.hpp"
#include "io/body_lines.hpp"

namespace stepwise {
namespace {

std::string located(const std::string& source, const toml::node& node) {
  return source + ":" + std::to_string(node.source().begin.line);
}

ParamValue to_param(const toml::node& node, const std::string& source, const std::string& key,
                    int depth);

// No scene nests tables more than a few deep; a file that does is refused before the recursion
// could exhaust the stack.
constexpr int kMaxNesting = 32;

ParamTable to_table(const toml::table& table, const std::string& source, const std::string& where,
                    int depth = 0) {
  if (depth > kMaxNesting)
    throw InputError(located(source, table) + ": tables nested more than " +
                     std::to_string(kMaxNesting) + " deep");
  ParamTable out(located(source, table) + " " + where);
  for (const auto& [key, node] : table) {
    out.set(std::string(key.str()), to_param(node, source, std::string(key.str()), depth + 1));
    out.set_where(std::string(key.str()), located(source, node) + " " + where);
  }
  return out;
}

ParamValue to_param(const toml::node& node, const std::string& source, const std::string& key,
                    int depth) {
  if (auto v = node.as_floating_point()) return v->get();
  if (auto v = node.as_integer()) return static_cast<double>(v->get());
  if (auto v = node.as_boolean()) return v->get();
  if (auto v = node.as_string()) return v->get();
  if (auto array = node.as_array()) {
    if (array->empty()) return std::vector<double>{};
    if (array->is_array_of_tables()) {
      std::vector<ParamTable> tables;
      for (const auto& item : *array)
        tables.push_back(to_table(*item.as_table(), source, "[[" + key + "]]", depth));
      return tables;
    }
    std::vector<double> numbers;
    for (const auto& item : *array) {
      if (auto f = item.as_floating_point())
        numbers.push_back(f->get());
      else if (auto i = item.as_integer())
        numbers.push_back(static_cast<double>(i->get()));
      else
        throw InputError(located(source, item) + ": '" + key + "' must hold numbers only");
    }
    return numbers;
  }
  if (auto table = node.as_table())
    return table_list(to_table(*table, source, "[" + key + "]", depth));
  throw InputError(located(source, node) + ": unsupported value for '" + key + "'");
}

// Runs f; an InputError that does not yet say where in the file gets the table's place in front.
template <class F>
auto located_errors(const ParamTable& t, const std::string& source, F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (message.rfind(source, 0) == 0) throw;
    throw InputError(t.where() + ": " + message);
  }
}

// TOML reads `bond.model = "x"` as a table; scene parameters use the dotted name.
void flatten_into(const ParamTable& table, const std::string& prefix,
                  std::map<std::string, ParamValue>& out) {
  for (const auto& [key, value] : table.values()) {
    auto nested = std::get_if<std::vector<ParamTable>>(&value);
    if (nested && nested->size() == 1)
      flatten_into(nested->front(), prefix + key + ".", out);
    else
      out[prefix + key] = value;
  }
}

// Two shapes' saved keys the same value for value, bit for bit (a -0 is not a 0), as their
// written text would be.
bool same_bits(const ParamTable& a, const ParamTable& b);
bool same_bits(const ParamValue& a, const ParamValue& b) {
  if (a.index() != b.index()) return false;
  auto bits = [](const double* x, const double* y, size_t n) {
    return std::memcmp(x, y, n * sizeof(double)) == 0;
  };
  if (const auto* x = std::get_if<double>(&a)) return bits(x, std::get_if<double>(&b), 1);
  if (const auto* x = std::get_if<bool>(&a)) return *x == std::get<bool>(b);
  if (const auto* x = std::get_if<std::string>(&a)) return *x == std::get<std::string>(b);
  if (const auto* x = std::get_if<std::vector<double>>(&a)) {
    const auto& y = std::get<std::vector<double>>(b);
    return x->size() == y.size() && bits(x->data(), y.data(), x->size());
  }
  const auto& x = std::get<std::vector<ParamTable>>(a);
  const auto& y = std::get<std::vector<ParamTable>>(b);
  if (x.size() != y.size()) return false;
  for (size_t k = 0; k < x.size(); ++k)
    if (!same_bits(x[k], y[k])) return false;
  return true;
}
bool same_bits(const ParamTable& a, const ParamTable& b) {
  if (a.values().size() != b.values().size()) return false;
  auto other = b.values().begin();
  for (const auto& [key, value] : a.values()) {
    if (key != other->first || !same_bits(value, other->second)) return false;
    ++other;
  }
  return true;
}

// Bodies of one file that have the same shape share it, so the window draws each distinct shape
// in one call and the collision table's per-shape data exists once. Kept to a few hundred
// distinct shapes, so a file of all-different shapes costs no more than linear time. (Compared
// by their saved keys, not the keys' text: a saved state has a million bodies.)
class ShapeCache {
 public:
  ShapePtr intern(ShapePtr shape) {
    ParamTable keys;
    shape->save(keys);
    for (const Known& known : shapes_)
      if (known.kind == shape->kind() && same_bits(known.keys, keys)) return known.shape;
    if (shapes_.size() < 256) shapes_.push_back({shape->kind(), std::move(keys), shape});
    return shape;
  }

 private:
  struct Known {
    std::string kind;
    ParamTable keys;
    ShapePtr shape;
  };
  std::vector<Known> shapes_;
};

// A body's vector key (zero if absent), refused beyond limits::kMaxMagnitude.
Vec3 bounded(const ParamTable& t, const char* key) {
  return limits::magnitude_named([&] { return t.where(key) + ": " + key; },
                                 t.vec3(key, Vec3::Zero()));
}

// A saved state's numbers, its tables' included, refused when not finite or beyond
// limits::kMaxStateMagnitude: the run would otherwise stop at its first step, or carry an
// infinite ledger without a word.
void check_state_numbers(const ParamTable& t) {
  for (const auto& entry : t.values()) {
    const std::string& key = entry.first;
    const ParamValue& value = entry.second;
    auto check = [&t, &key](double v) {  // (clang 14 captures no structured bindings)
      limits::checked_named([&] { return t.where(key) + ": " + key; }, v,
                            -limits::kMaxStateMagnitude, limits::kMaxStateMagnitude);
    };
    if (const double* v = std::get_if<double>(&value)) check(*v);
    if (const auto* list = std::get_if<std::vector<double>>(&value))
      for (double v : *list) check(v);
    if (const auto* tables = std::get_if<std::vector<ParamTable>>(&value))
      for (const ParamTable& inner : *tables) check_state_numbers(inner);
  }
}

BodySpec read_body(const ParamTable& t, ShapeCache& shapes, const Materials& materials) {
  const std::string kind = t.text("shape", "sphere");
  if (!ShapeRegistry::instance().contains(kind))
    throw InputError(t.where() + ": " + ShapeRegistry::instance().unknown_message(kind));
  // With `inertia` given (as a save writes it) the shape's keys are in the body frame already;
  // otherwise a clump's spheres or a polyhedron's vertices are a template the body is fitted to.
  const bool body_frame = t.has("inertia");
  ShapePtr shape = shapes.intern(make_shape(kind, t, body_frame));
  const int material = t.has("material") ? materials.id(t.text("material", ""), t.where("material")) : 0;
  // A body of a material with a density and no mass weighs its volume's worth.
  double mass = 1.0;
  if (t.has("mass"))
    mass = limits::checked_named([&] { return t.where("mass") + ": mass"; }, t.number("mass"),
                                 -limits::kMaxMagnitude, limits::kMaxMagnitude);
  else if (material > 0 && materials.at(material).keys.has("density"))
    mass = materials.at(material).keys.number("density") * shape->volume();
  const Vec3 position = bounded(t, "position");
  auto q = t.numbers("orientation", {1, 0, 0, 0});
  if (q.size() != 4) throw InputError(t.where() + ": orientation must be [w, x, y, z]");
  limits::magnitude_named([&] { return t.where("orientation") + ": orientation"; }, q);
  const Quat orientation(q[0], q[1], q[2], q[3]);
  if (!(orientation.norm() > 0)) throw InputError(t.where() + ": orientation must not be zero");
  BodySpec b;
  if (body_frame) {
    b.mass = mass;
    b.position = position;
    b.orientation = orientation;
    b.shape = shape;
  } else {
    b = shaped_body(shape, mass, position, orientation);
  }
  b.material = material;
  b.velocity = bounded(t, "velocity");
  b.angular_velocity = bounded(t, "angular_velocity");
  b.inertia = bounded(t, "inertia");
  if (t.has("polar_moment")) {  // 2-D bodies (PFC lets a clump's polar moment be the user's)
    const double J = t.number("polar_moment");
    if (t.has("inertia")) throw InputError(t.where("polar_moment") + ": give inertia or polar_moment, not both");
    if (!(J > 0) || !std::isfinite(J))
      throw InputError(t.where("polar_moment") + ": polar_moment must be positive and finite");
    b.inertia = Vec3::Constant(J);  // a 2-D body turns about z only: the same moment everywhere
  }
  if (t.flag("fixed", false)) b.flags |= kFixed;
  if (t.flag("driven", false)) b.flags |= kDriven;
  if (t.flag("driven_spin", false)) b.flags |= kDrivenSpin;
  if (t.has("pivot")) {
    b.flags |= kPivot;
    b.pivot = bounded(t, "pivot");
    if (t.has("pivot_arm")) b.pivot_arm = bounded(t, "pivot_arm");
  }
  return b;
}

}  // namespace

ParamTable parse_toml(const std::string& text, const std::string& source) {
  toml::table doc;
  try {
    doc = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw InputError(source + ":" + std::to_string(e.source().begin.line) + ":" +
                     std::to_string(e.source().begin.column) + ": " + std::string(e.description()));
  }
  ParamTable root = to_table(doc, source, "");
  root.set_where(source);
  return root;
}

namespace {

// A scene from its bodies split (io/body_lines.hpp) or, when they were not (nullopt), from the
// whole text, which `whole` gives.
RunSpec parse_scene(std::optional<BodyLines> lines, const std::function<std::string()>& whole,
                    const std::string& source, const std::map<std::string, ParamValue>& overrides) {
  // A saved state's bodies are read one at a time; any other file whole. (A file whose rest does
  // not read alone is read whole too, so its message is the whole file's.)
  ParamTable root;
  if (lines) try {
      root = parse_toml(lines->rest(), source);
      if (root.has("body") || !lines->put_lists(root)) lines.reset();
    } catch (const InputError&) {
      lines.reset();
    }
  if (!lines) root = parse_toml(whole(), source);
  RunSpec spec;
  auto section = [&](const char* name) {
    auto tables = root.tables(name);
    return tables.empty() ? ParamTable(source + " [" + name + "]") : tables.front();
  };
  const ParamTable scene = section("scene");
  const ParamTable parameters = section("parameters");
  const ParamTable options = section("integrator");
  const ParamTable impulse = section("impulse");
  auto bodies = lines ? std::vector<ParamTable>{} : root.tables("body");
  const int body_count = lines ? lines->size() : int(bodies.size());
  auto forces = root.tables("force");
  // A 2-D scene's vectors may be written [x, y].
  const bool planar = scene.has("dimensions") && scene.number("dimensions") == 2;
  if (planar)
    for (auto* list : {&bodies, &forces})
      for (ParamTable& t : *list) t.set_planar();
  const auto materials = root.tables("material");
  const auto material_pairs = root.tables("material_pair");
  // The run's state (the last given) is moved out of the file's tables, not copied: a saved
  // state of N bodies holds 12 N numbers of cached loads.
  const std::vector<ParamTable>& states = root.tables("state");
  for (const ParamTable& state : states) check_state_numbers(state);
  if (!states.empty())
    spec.state = std::move(std::get<std::vector<ParamTable>>(*root.value_at("state")).back());
  root.reject_unused();

  const std::string builtin = scene.text("builtin", "");
  if (!builtin.empty()) {
    if (body_count > 0 || !forces.empty() || !materials.empty() || !material_pairs.empty())
      throw InputError(source + ": a scene with 'builtin' cannot also list [[body]], [[force]] " +
                       "or [[material]]");
    std::map<std::string, ParamValue> merged;
    flatten_into(parameters, "", merged);
    for (const auto& [key, value] : overrides) merged[key] = value;
    spec.builtin = builtin;
    spec.parameters = merged;
    spec.setup = located_errors(parameters.values().empty() ? scene : parameters, source,
                                [&] { return build_scene(builtin, merged); });
    if (scene.has("dimensions") && scene.number("dimensions") != spec.setup.world.dimensions)
      throw InputError(scene.where("dimensions") + ": the built-in scene '" + builtin + "' is " +
                       std::to_string(spec.setup.world.dimensions) + "-D");
  } else {
    if (!parameters.values().empty())
      throw InputError(source + ": [parameters] needs [scene] builtin = \"name\"");
    if (!overrides.empty())
      throw InputError("--set " + overrides.begin()->first + ": '" + source +
                       "' lists its bodies explicitly and has no parameters");
    Materials& named = spec.setup.world.materials;
    for (const ParamTable& t : materials) {
      const std::string name = t.text("name", "");
      ParamTable keys(t.where());
      for (const auto& [key, value] : t.values())
        if (key != "name") keys.set(key, value), keys.set_where(key, t.where(key));
      named.add(name, keys, t.where());  // which checks every key
    }
    for (const ParamTable& t : material_pairs) {
      const std::string a = t.text("a", ""), b = t.text("b", "");
      if (a.empty() || b.empty())
        throw InputError(t.where() + ": a [[material_pair]] names its two materials: a = \"...\", b = \"...\"");
      ParamTable keys(t.where());
      for (const auto& [key, value] : t.values())
        if (key != "a" && key != "b") keys.set(key, value), keys.set_where(key, t.where(key));
      named.add_pair(a, b, keys, t.where());
    }
    ShapeCache shapes;
    // Bodies are made one at a time into the World (World::add_bodies, its arrays grown once);
    // one it refuses is named by its own table, as the table's other errors are.
    World& world = spec.setup.world;
    const int first = world.size();
    auto where = [&](int b) { return lines ? lines->where(b, source) : bodies[size_t(b)].where(); };
    // A saved state of bodies stored in another order than their ids' lists them as stored,
    // each with its `id` (World::ids): every body has one, or none does.
    std::vector<int> ids, seen;
    try {
      world.add_bodies(body_count, [&](int b, BodySpec& body) {
        ParamTable split;  // (a split file's body is read here, and let go after)
        if (lines) {
          split = lines->table(b, source);
          if (planar) split.set_planar();
        }
        const ParamTable& t = lines ? split : bodies[size_t(b)];
        if (b > 0 && t.has("id") != !ids.empty())
          throw InputError(t.where() + ": either every body gives its `id` or none does");
        if (t.has("id")) {
          const int id =
              int(limits::checked_named([&] { return t.where("id") + ": id"; }, t.number("id"), 0,
                                        double(body_count) - 1, true));
          if (seen.empty()) seen.assign(size_t(body_count), 0);
          if (seen[size_t(id)]++)
            throw InputError(t.where("id") + ": a second body with id " + std::to_string(id));
          ids.push_back(id);
        }
        body = located_errors(t, source, [&] { return read_body(t, shapes, named); });
        if (t.has("angular_momentum")) body.angular_momentum = bounded(t, "angular_momentum");
        t.reject_unused();
      });
    } catch (const BodyError& e) {
      const int b = e.body - first;
      if (b < 0 || b >= body_count) throw InputError(source + ": " + e.what());
      throw InputError(where(b) + ": " + e.what());
    }
    for (const ParamTable& t : forces) {
      const std::string model = t.text("model", "");
      if (model.empty()) throw InputError(t.where() + ": [[force]] needs model = \"name\"");
      located_errors(t, source,
                     [&] { spec.setup.world.add_force(ForceRegistry::instance().make(model, t)); });
      t.reject_unused();
    }
    // An empty file, a folder's stray .toml or a scene that forgot its bodies: say so, rather
    // than open an empty world.
    if (body_count == 0)
      throw InputError(source + ": no bodies: a scene file lists [[body]] tables or names a " +
                       "built-in scene ([scene] builtin = \"name\")");
    if (scene.has("dimensions")) {
      const double d = scene.number("dimensions");
      if (d != 2 && d != 3) throw InputError(scene.where("dimensions") + ": dimensions must be 2 or 3");
      spec.setup.world.dimensions = int(d);
    }
    for (int i = 0; i < body_count; ++i)
      if (const std::string problem = spec.setup.world.plane_problem(i); !problem.empty())
        throw InputError(where(i) + ": " + problem);
    for (size_t m = 0; m < forces.size(); ++m)
      located_errors(forces[m], source,
                     [&] { spec.setup.world.forces[m]->validate(spec.setup.world); });
    // Stored in spatial order (core/spatial_order.hpp) where it pays and nothing names a body by
    // its place, unless the file asks to be kept as listed or says how its bodies are stored.
    const bool stored = !ids.empty();
    bool listed = true;  // ids in their own order: stored as listed, as a file without them
    for (size_t b = 0; b < ids.size(); ++b) listed = listed && ids[b] == int(b);
    if (!listed) world.ids = std::move(ids);
    if (scene.flag("spatial_order", true) && !stored && !spec.state) order_spatially(world);
  }
  spec.label = scene.text("name", builtin.empty() ? source : builtin);
  spec.setup.integrator = scene.text("integrator", spec.setup.integrator);
  spec.setup.rotation = scene.text("rotation", spec.setup.rotation);
  if (!IntegratorRegistry::instance().contains(spec.setup.integrator))
    throw InputError(scene.where() + ": " +
                     IntegratorRegistry::instance().unknown_message(spec.setup.integrator));
  if (!RotationRegistry::instance().contains(spec.setup.rotation))
    throw InputError(scene.where() + ": " +
                     RotationRegistry::instance().unknown_message(spec.setup.rotation));
  // Checked before any cast: a saved clock, step or seed that means nothing is refused.
  spec.setup.dt = limits::dt(scene.where("dt") + ": dt", scene.number("dt", spec.setup.dt));
  spec.setup.duration = limits::duration(scene.where("duration") + ": duration",
                                         scene.number("duration", spec.setup.duration));
  spec.time = limits::checked(scene.where("time") + ": time", scene.number("time", 0.0),
                              -limits::kMaxTime, limits::kMaxTime);
  spec.step = static_cast<long>(limits::checked(
      scene.where("step") + ": step", scene.number("step", 0.0), 0, limits::kMaxSteps, true));
  spec.seed = static_cast<std::uint64_t>(limits::checked(
      scene.where("seed") + ": seed", scene.number("seed", 1.0), 0, limits::kMaxSeed, true));
  if (scene.has("local_damping")) {
    spec.setup.world.local_damping = scene.number("local_damping");
    if (!(spec.setup.world.local_damping >= 0 && spec.setup.world.local_damping < 1))
      throw InputError(scene.where("local_damping") + ": local_damping must be in [0, 1)");
  }
  for (const auto& [key, value] : options.values()) spec.setup.integrator_options.set(key, value);
  ContactTreatment& contact = spec.setup.world.contact;
  if (scene.has("contact")) contact.set_mode(scene.text("contact", ""), scene.where("contact"));
  contact.set_options(impulse);
  if (scene.has("contact")) spec.setup.world.check_contact(scene.where("contact"));
  if (!impulse.values().empty()) spec.setup.world.check_contact(impulse.where(), true);
  scene.reject_unused();
  return spec;
}

}  // namespace

RunSpec parse_scene_toml(const std::string& text, const std::string& source,
                         const std::map<std::string, ParamValue>& overrides) {
  return parse_scene(
      BodyLines::split(text), [&] { return text; }, source, overrides);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read file '" + path + "'");
  // Read in large pieces straight into the text (through a stringstream, a 470 MB saved state
  // was copied twice more); a regular file's size reserved up front.
  std::string text;
  std::error_code unknown;
  const auto size = std::filesystem::file_size(path, unknown);
  if (!unknown) text.reserve(size);
  std::vector<char> piece(size_t{1} << 20);
  while (in.read(piece.data(), std::streamsize(piece.size())) || in.gcount() > 0)
    text.append(piece.data(), size_t(in.gcount()));
  if (in.bad()) throw InputError("cannot read file '" + path + "'");
  return text;
}

RunSpec load_scene_file(const std::string& path,
                        const std::map<std::string, ParamValue>& overrides) {
  // Read as a stream of lines, so the text of a saved state is never held whole; a file whose
  // bodies are not of the simple kind is read again, whole (so a pipe is read whole at once).
  std::error_code unknown;
  if (!std::filesystem::is_regular_file(path, unknown))
    return parse_scene_toml(read_text_file(path), path, overrides);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read file '" + path + "'");
  return parse_scene(
      BodyLines::split(in), [&] { return read_text_file(path); }, path, overrides);
}

RunSpec load_scene(const std::string& name, const std::map<std::string, ParamValue>& overrides) {
  if (name.size() > 5 && name.substr(name.size() - 5) == ".toml")
    return load_scene_file(name, overrides);
  if (!SceneRegistry::instance().contains(name))
    throw InputError(SceneRegistry::instance().unknown_message(name) + "; or give a .toml file");
  RunSpec spec;
  spec.label = name;
  spec.builtin = name;
  spec.parameters = overrides;
  spec.setup = build_scene(name, overrides);
  return spec;
}

Simulation make_simulation(const RunSpec& spec) {
  return make_simulation(spec, spec.setup.world);
}

Simulation make_simulation(const RunSpec& spec, World world) {
  Simulation sim(std::move(world), spec.setup.dt, spec.setup.integrator, spec.setup.rotation);
  sim.integrator().set_options(spec.setup.integrator_options);
  sim.set_clock(spec.time, spec.step);
  sim.set_seed(spec.seed);
  if (spec.state) sim.load_state(*spec.state);
  return sim;
}

Simulation take_simulation(RunSpec& spec) {
  Simulation sim = make_simulation(spec, std::exchange(spec.setup.world, World()));
  if (spec.state) spec.state = ParamTable(spec.state->where());
  return sim;
}

}  // namespace stepwise
