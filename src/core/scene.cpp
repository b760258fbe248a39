#include "core/scene.hpp"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/limits.hpp"

namespace stepwise {

ParamTable scene_parameters(const std::string& name,
                            const std::map<std::string, ParamValue>& overrides) {
  auto scene = SceneRegistry::instance().make(name);
  const SceneInfo info = scene->info();
  ParamTable table("scene '" + name + "'");
  for (const ParamSpec& spec : info.params) table.set(spec.name, spec.default_value);
  for (const auto& [key, value] : overrides) {
    if (!table.has(key)) {
      std::string known;
      for (const ParamSpec& spec : info.params) known += (known.empty() ? "" : ", ") + spec.name;
      throw InputError("scene '" + name + "' has no parameter '" + key + "' (parameters: " + known +
                       ")");
    }
    const ParamValue& fallback = *table.value_of(key);
    // "--set n=5" parses as a number; a text parameter given a number keeps it as text.
    if (std::holds_alternative<std::string>(fallback) &&
        !std::holds_alternative<std::string>(value))
      table.set(key, format_param_value(value));
    else if (std::holds_alternative<double>(fallback) && !std::holds_alternative<double>(value))
      throw InputError("scene '" + name + "': parameter '" + key + "' must be a number (got '" +
                       format_param_value(value) + "')");
    else
      table.set(key, value);
  }
  return table;
}

namespace {

bool step_within_limits(double dt) {
  return dt >= limits::kMinDt && dt <= limits::kMaxDt;
}

std::string short_number(double value) {  // three figures: a step to compare, not to copy
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// Which of the parameters the user set give a refused time step: those that, set back to their
// default alone, give one within the limits; if none does, the pairs that do together (among at
// most kMostPaired set: ten builds in all). The scene is built again for each: a refusal's cost.
std::string step_culprits(const Scene& scene, const std::string& name,
                          const std::map<std::string, ParamValue>& overrides) {
  constexpr size_t kMostPaired = 4;
  // The step with `back` set back to their defaults, if within the limits.
  auto step_without = [&](std::initializer_list<std::string> back) -> std::optional<double> {
    auto others = overrides;
    for (const std::string& key : back) others.erase(key);
    try {
      const SceneSetup setup = scene.build(scene_parameters(name, others));
      if (step_within_limits(setup.dt)) return setup.dt;
    } catch (const std::exception&) {  // (not these, then)
    }
    return std::nullopt;
  };
  std::vector<std::pair<std::string, double>> found;  // ("'a'" or "'a' and 'b'", the step)
  for (const auto& [key, value] : overrides)
    if (const auto dt = step_without({key})) found.emplace_back("'" + key + "'", *dt);
  const bool paired = found.empty() && overrides.size() >= 2 && overrides.size() <= kMostPaired;
  if (paired)
    for (auto a = overrides.begin(); a != overrides.end(); ++a)
      for (auto b = std::next(a); b != overrides.end(); ++b)
        if (const auto dt = step_without({a->first, b->first}))
          found.emplace_back("'" + a->first + "' and '" + b->first + "'", *dt);
  std::string said = "a stiffness, mass or size far out of proportion";
  if (found.size() == 1)
    return said +
           (paired ? ": parameters " + found[0].first + " together; at their defaults"
                   : ": parameter " + found[0].first + "; at its default") +
           " the step would be " + short_number(found[0].second);
  for (size_t k = 0; k < found.size(); ++k)  // ('a', 'b' or 'c'; 'a' and 'b', or 'a' and 'c')
    said += (k == 0                  ? ": parameters "
             : paired                ? ", or "
             : k + 1 == found.size() ? " or "
                                     : ", ") +
            found[k].first;
  return found.empty() ? said
                       : said + (paired ? ", each pair at its defaults giving a step within them"
                                        : ", each at its default giving a step within them");
}

}  // namespace

SceneSetup build_scene(const std::string& name,
                       const std::map<std::string, ParamValue>& overrides) {
  ParamTable table = scene_parameters(name, overrides);
  const auto scene = SceneRegistry::instance().make(name);
  SceneSetup setup;
  try {
    setup = scene->build(table);
  } catch (const InputError& e) {  // (a shape or model the scene made from its parameters)
    const std::string what = e.what();
    if (what.rfind(table.where(), 0) == 0) throw;
    // (A table the scene made without a name of its own says ": what": one colon, not two.)
    throw InputError(table.where() + (what.rfind(": ", 0) == 0 ? "" : ": ") + what);
  }
  // A step its parameters give (from stiffness, masses and sizes) outside the limits comes only
  // from numbers far out of proportion: said here, naming the scene, not later as "dt".
  if (!step_within_limits(setup.dt)) {
    const double dt = setup.dt;
    setup = SceneSetup();  // (its memory back before the scene is built again below)
    throw InputError(table.where() + ": its parameters give a time step of " + format_double(dt) +
                     ", outside " + format_double(limits::kMinDt) + " to " +
                     format_double(limits::kMaxDt) + " (" + step_culprits(*scene, name, overrides) +
                     ")");
  }
  setup.world.dimensions = scene->info().dimensions;  // a scene says it once, in its info
  for (const auto& f : setup.world.forces) f->validate(setup.world);
  setup.world.check_plane();
  return setup;
}

void add_gravity(World& world, double g) {
  ParamTable gravity;
  gravity.set("g", std::vector<double>{0, 0, -g});
  world.add_force(ForceRegistry::instance().make("gravity", gravity));
}

int count(const ParamTable& p, const std::string& key, int low, int high) {
  const double value = p.number(key);
  if (!(value >= low && value <= high && value == std::floor(value)))
    throw InputError(p.where() + ": parameter '" + key + "' must be a whole number from " +
                     std::to_string(low) + " to " + std::to_string(high) + " (got " +
                     format_double(value) + ")");
  return static_cast<int>(value);
}

double positive(const ParamTable& p, const std::string& key, bool allow_zero) {
  const double value = p.number(key);
  const bool ok = std::isfinite(value) && (allow_zero ? value >= 0 : value > 0);
  if (!ok)
    throw InputError(p.where() + ": parameter '" + key + "' must be " +
                     (allow_zero ? "zero or positive" : "positive") + " (got " +
                     format_double(value) + ")");
  return value;
}

double within(const ParamTable& p, const std::string& key, double low, double high,
              const std::string& condition) {
  const double value = p.number(key);
  if (!(value >= low && value <= high))
    throw InputError(p.where() + ": parameter '" + key + "' must be " + limits::range(low, high) +
                     condition + " (got " + format_double(value) + ")");
  return value;
}

double shape_length(const ParamTable& p, const std::string& key, double scale) {
  positive(p, key);
  return within(p, key, limits::kMinLength / scale, limits::kMaxLength / scale);
}

}  // namespace stepwise
