// `stepwise sweep`: error against the exact solution (or a fine reference) and observed order.
#include <cmath>
#include <cstdio>

#include "app/commands.hpp"
#include "core/sweep.hpp"

namespace stepwise::cli {

int command_sweep(const SweepOptions& o) {
  LoadedRun run = load_run(o.scene, true);  // the setup is run again for each method
  SweepRequest request;
  request.setup = run.spec.setup;
  request.setup.integrator = run.sim.integrator_name();
  request.setup.rotation = run.sim.rotation_name();
  request.integrators = split_list(o.integrators);
  request.rotations = split_list(o.rotations);
  if (request.integrators.empty() && request.rotations.empty())
    request.integrators = {request.setup.integrator};
  if (!request.integrators.empty() && !request.rotations.empty())
    throw InputError("sweep: give --integrators or --rotations, not both");
  for (const std::string& dt : split_list(o.dts)) request.dts.push_back(parse_positive("--dt", dt));
  if (request.dts.empty()) request.dts = {run.sim.dt(), run.sim.dt() / 2, run.sim.dt() / 4};
  request.duration = o.duration.value_or(run.spec.setup.duration);
  if (!(request.duration > 0)) throw InputError("--duration: must be positive");
  const SweepResult result = run_sweep(request);
  std::printf("scene %s, duration %g, reference: %s\n", run.spec.label.c_str(), request.duration,
              result.reference.c_str());
  std::printf("%-18s %-14s %12s %10s %14s %14s %8s\n", "integrator", "rotation", "dt", "steps",
              "pos_error", "rot_error", "order");
  for (const SweepSeries& s : result.series)
    for (size_t i = 0; i < s.rows.size(); ++i) {
      const SweepRow& r = s.rows[i];
      std::printf("%-18s %-14s %12.5g %10ld %14.6e %14.6e ", s.integrator.c_str(), s.rotation.c_str(),
                  r.dt, r.steps, r.position_error, r.rotation_error);
      if (r.failed) std::printf("%8s\n", "diverged");
      else if (i == 0 || !std::isfinite(r.order)) std::printf("%8s\n", "-");
      else std::printf("%8.3f\n", r.order);
    }
  return 0;
}

}  // namespace stepwise::cli
