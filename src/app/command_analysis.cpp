// `stepwise stability` and `stepwise reverse`: the numbers behind the window's stability view and
// reversibility button, from the same functions.
#include <cstdio>

#include "app/commands.hpp"
#include "core/analysis.hpp"
#include "core/limits.hpp"

namespace stepwise::cli {

int command_stability(const std::string& integrators, const std::string& omega_dts) {
  std::vector<std::string> methods = split_list(integrators);
  if (methods.empty()) methods = IntegratorRegistry::instance().names();
  std::vector<double> hs;
  for (const std::string& h : split_list(omega_dts))
    hs.push_back(
        limits::checked("--omega-dt", parse_positive("--omega-dt", h), limits::kMinDt, 1e6));
  if (hs.empty()) hs = {0.1, 0.5, 1.0, 1.5, 1.9, 1.99, 2.01, 2.5, 3.0};
  for (const std::string& m : methods)
    if (!IntegratorRegistry::instance().contains(m))
      throw InputError("--integrators: " + IntegratorRegistry::instance().unknown_message(m));
  std::printf("amplitude growth per step on x'' = -omega^2 x (1 = neutral, > 1 unstable)\n%-18s",
              "omega*dt");
  for (double h : hs) std::printf(" %10.4g", h);
  std::printf("\n");
  std::string note;
  for (const std::string& m : methods) {
    std::printf("%-18s", m.c_str());
    for (double h : hs) {
      try {
        std::printf(" %10.6f", growth_per_step(m, h));
      } catch (const InputError& e) {  // a method that cannot take this step (adaptive's cap)
        std::printf(" %10s", "n/a");
        note = e.what();
      }
    }
    std::printf("\n");
  }
  if (!note.empty()) std::printf("n/a: %s\n", note.c_str());
  return 0;
}

int command_reverse(const SceneOptions& scene, long steps) {
  check_reversibility(steps);  // before loading the scene
  LoadedRun run = load_run(scene);
  const Reversibility r = reversibility(run.sim.world(), run.sim.dt(), run.sim.integrator_name(),
                                        run.sim.rotation_name(), steps);
  if (r.failed) throw InputError("the run went non-finite; try a smaller --dt");
  std::printf(
      "%s: %s + %s, dt %g, %ld steps forward and back: return error %.3e (position), "
      "%.3e (velocity)\n",
      run.spec.label.c_str(), run.sim.integrator_name().c_str(), run.sim.rotation_name().c_str(),
      run.sim.dt(), steps, r.position_error, r.velocity_error);
  return 0;
}

}  // namespace stepwise::cli
