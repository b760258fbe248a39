#include "core/sweep.hpp"

#include <algorithm>
#include <cmath>

#include "core/analysis.hpp"
#include "core/limits.hpp"
#include "core/simulation.hpp"

namespace stepwise {

double orientation_distance(const Quat& a, const Quat& b) {
  // atan2 keeps full precision for tiny angles, where acos(dot) would round to zero.
  const Quat d = a.normalized().conjugate() * b.normalized();
  return 2.0 * std::atan2(d.vec().norm(), std::abs(d.w()));
}

FinalState run_to(const SceneSetup& setup, const std::string& integrator,
                  const std::string& rotation, double dt, double duration,
                  const std::atomic<bool>* cancel) {
  const long steps = std::max(1L, std::lround(duration / dt));
  Simulation sim(setup.world, duration / steps, integrator, rotation);
  for (const auto& [key, value] : setup.integrator_options.values())
    if (IntegratorRegistry::instance().contains(integrator)) {
      try {
        sim.integrator().set_option(key, value);
      } catch (const InputError&) {
        // options of another integrator in the scene file: not this one's
      }
    }
  FinalState out;
  out.failed = advance_unless(sim, steps, cancel).has_value();
  out.x = sim.world().x;
  out.q = sim.world().q;
  return out;
}

void check_sweep(const SweepRequest& r) {
  if (r.dts.empty()) throw InputError("sweep: give at least one dt");
  for (double dt : r.dts) limits::dt("sweep dt", dt);
  limits::duration("sweep duration", r.duration);
  const double finest = *std::min_element(r.dts.begin(), r.dts.end());
  limits::steps(r.duration, r.setup.exact ? finest : finest / 64);  // the reference's run
}

SweepResult run_sweep(const SweepRequest& r) {
  check_sweep(r);
  SweepResult result;
  FinalState reference;
  const bool exact = static_cast<bool>(r.setup.exact) && r.rotations.empty();
  if (exact) {
    result.reference = "exact solution";
    reference.x = r.setup.exact(r.duration);
  } else {
    const double fine = *std::min_element(r.dts.begin(), r.dts.end()) / 64.0;
    result.reference = "rk4 + rotation rk4 at dt = " + format_double(fine);
    reference = run_to(r.setup, "rk4", "rk4", fine, r.duration, r.cancel);
  }
  const bool rotations = !r.rotations.empty();
  const auto& methods = rotations ? r.rotations : r.integrators;
  for (const std::string& method : methods) {
    SweepSeries series;
    series.integrator = rotations ? r.setup.integrator : method;
    series.rotation = rotations ? method : r.setup.rotation;
    if (!rotations && !IntegratorRegistry::instance().contains(method))
      throw InputError(IntegratorRegistry::instance().unknown_message(method));
    if (rotations && !RotationRegistry::instance().contains(method))
      throw InputError(RotationRegistry::instance().unknown_message(method));
    for (double dt : r.dts) {
      SweepRow row;
      const FinalState end =
          run_to(r.setup, series.integrator, series.rotation, dt, r.duration, r.cancel);
      row.steps = std::max(1L, std::lround(r.duration / dt));
      row.dt = r.duration / row.steps;
      row.failed = end.failed;
      row.position_error = largest_norm(end.x - reference.x);
      if (!exact)
        for (size_t i = 0; i < end.q.size(); ++i)
          row.rotation_error = std::max(row.rotation_error, orientation_distance(end.q[i], reference.q[i]));
      row.error = std::max(row.position_error, row.rotation_error);
      if (!series.rows.empty()) {
        const SweepRow& prev = series.rows.back();
        row.order = std::log(prev.error / row.error) / std::log(prev.dt / row.dt);
      }
      series.rows.push_back(row);
    }
    result.series.push_back(series);
  }
  return result;
}

}  // namespace stepwise
