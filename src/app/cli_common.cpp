#include "app/cli_common.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/limits.hpp"
#include "runtime/memory_check.hpp"

namespace stepwise::cli {

double parse_positive(const std::string& flag, const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value) || !(value > 0))
    throw InputError(flag + ": expected a positive number, got '" + text + "'");
  return value;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

LoadedRun load_run(const SceneOptions& o, bool keep_world, RunSpec* read) {
  std::map<std::string, ParamValue> scene_sets, integrator_sets, impulse_sets;
  for (const std::string& pair : o.sets) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--set " + pair + ": expected key=value");
    const std::string key = pair.substr(0, eq);
    const ParamValue value = parse_param_value(pair.substr(eq + 1));
    if (key.rfind("integrator.", 0) == 0)
      integrator_sets[key.substr(11)] = value;
    else if (key.rfind("impulse.", 0) == 0)
      impulse_sets[key.substr(8)] = value;
    else
      scene_sets[key] = value;
  }
  RunSpec spec = load_scene(o.scene, scene_sets);
  if (read) *read = spec;
  if (!o.integrator.empty()) {
    if (!IntegratorRegistry::instance().contains(o.integrator))
      throw InputError("--integrator: " +
                       IntegratorRegistry::instance().unknown_message(o.integrator));
    if (o.integrator != spec.setup.integrator) spec.setup.integrator_options = ParamTable();
    spec.setup.integrator = o.integrator;
  }
  if (!o.rotation.empty()) {
    if (!RotationRegistry::instance().contains(o.rotation))
      throw InputError("--rotation: " + RotationRegistry::instance().unknown_message(o.rotation));
    spec.setup.rotation = o.rotation;
  }
  if (o.seed) spec.seed = *o.seed;
  if (!o.contact.empty()) spec.setup.world.contact.set_mode(o.contact, "--contact");
  for (const auto& [key, value] : impulse_sets)
    spec.setup.world.contact.set_option(key, value, "--set impulse." + key);
  if (!o.contact.empty()) spec.setup.world.check_contact("--contact " + o.contact);
  if (!impulse_sets.empty())
    spec.setup.world.check_contact("--set impulse." + impulse_sets.begin()->first, true);
  for (const auto& [key, value] : integrator_sets) spec.setup.integrator_options.set(key, value);
  if (!o.dt.empty() && o.dt != "auto")
    spec.setup.dt = limits::dt("--dt", parse_positive("--dt", o.dt));
  check_memory(spec.setup.world, o.force);
  // (An empty state table still says the run was carried: command_save reads that.)
  Simulation sim = keep_world ? make_simulation(spec) : take_simulation(spec);
  if (o.dt == "auto") {
    const double omega = sim.max_frequency();
    if (!(omega > 0))
      throw InputError("--dt auto: this scene has no stiffness to estimate dt from");
    sim.set_dt(0.1 * 2.0 / omega);  // a tenth of the critical step 2/omega_max
    spec.setup.dt = sim.dt();
  }
  return {std::move(spec), std::move(sim)};
}

}  // namespace stepwise::cli
