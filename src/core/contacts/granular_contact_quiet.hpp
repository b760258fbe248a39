#pragma once
// GranularContacts::quiet_steps (granular_contact.hpp): how many coming evaluations of a free
// flight provably find no pair and no wall touching and no body moved far enough to rebuild the
// neighbour list. Pairs not in the list cannot touch before such a rebuild (the skin), so the
// list's pairs, the walls and the list's displacement limit are all there is to bound.
#include <array>

#include "core/contacts/granular_contact.hpp"
#include "core/contacts/quiet_bounds.hpp"

namespace stepwise {

template <class Law>
long GranularContacts<Law>::quiet_steps(const QuietQuery& q) const {
  const World& world = q.world;
  const int n = world.size();
  // Nothing held or touching, the list built for these bodies: otherwise the step must look.
  if (world.contact.impulse() || !shapes_.empty() || !shapes_.bodies().empty() || touching_ != 0 ||
      !pending_pairs_.empty() || !pending_walls_.empty() || list_.stale(n) || n == 0)
    return 0;
  const double span = double(q.most) * q.dt;
  const double limit = std::sqrt(list_.rebuild_at()) * (1 - 1e-9);
  const int* offsets = list_.offsets().data();
  const int* neighbors = list_.neighbors().data();
  const Positions& built = list_.built_at();
  // Each body's distance from its build position, or from there plus the list's drift
  // (list_drift.hpp): either bounds the list, as long as it holds for every body. The drift
  // moves as c + c' t + c'' t^2 / 2, so the distance from it as a body's under a - c''.
  const Vec3 drift = drift_.at(q.time), drift_rate = drift_.rate_at(q.time);
  const double drift_slack = quiet::slack(drift, drift_rate, drift_.accel(), span);
  auto accel = [&](int i) { return world.inv_mass(i) > 0 ? q.accel : Vec3::Zero(); };
  constexpr double kNever = std::numeric_limits<double>::infinity();
  std::array<double, kMaxTasks> soonest, by_build, by_drift;  // per task
  soonest.fill(kNever), by_build.fill(kNever), by_drift.fill(kNever);
  for_each_range(q.parallel, n, [&](int task, int begin, int end) {
    double t = soonest[task], build = by_build[task], drifted = by_drift[task];
    for (int i = begin; i < end && t > 0 && (build > 0 || drifted > 0); ++i) {
      const Vec3 x = world.x.col(i), v = world.v.col(i), a = accel(i);
      const double slack = quiet::slack(x, v, a, span);
      const Vec3 moved = x - built.col(i);
      build = std::min(build, quiet::drift_time(moved.norm(), v, a, limit, slack));
      drifted =
          std::min(drifted, quiet::drift_time((moved - drift).norm(), v - drift_rate,
                                              a - drift_.accel(), limit, slack + drift_slack));
      for (const Wall& wall : walls_) {
        const double height = x.dot(wall.normal) -
                              (wall.point + q.time * wall.velocity).dot(wall.normal) -
                              world.radius(i);
        t = std::min(t, quiet::wall_time(height, wall.normal, v, wall.velocity, a, slack));
      }
      for (int k = offsets[i]; k < offsets[i + 1]; ++k) {
        const int j = neighbors[k];
        const Vec3 xj = world.x.col(j), vj = world.v.col(j), aj = accel(j);
        const double both = slack + quiet::slack(xj, vj, aj, span);
        t = std::min(
            t, quiet::pair_time(x - xj, v - vj, a - aj, world.radius(i) + world.radius(j), both));
      }
    }
    soonest[task] = t, by_build[task] = build, by_drift[task] = drifted;
  });
  double t = kNever, build = kNever, drifted = kNever;
  for (int task = 0; task < kMaxTasks; ++task)
    t = std::min(t, soonest[task]), build = std::min(build, by_build[task]),
    drifted = std::min(drifted, by_drift[task]);
  t = std::min(t, std::max(build, drifted));
  return quiet::steps_before(t, q.dt, q.most);
}

}  // namespace stepwise
