#pragma once
// How long nothing can touch while bodies fly freely (ForceModel::quiet_steps). Under a uniform
// acceleration a velocity-Verlet step is exact, x(t) = x0 + v0 t + a t^2 / 2, so a flight's
// positions are these up to round-off, which slack() bounds with room to spare; each bound below
// is the earliest time a quantity could reach its limit along such paths (triangle inequality),
// so never later than it does.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/types.hpp"

namespace stepwise::quiet {

// Round-off a flight of duration `span` can put on body positions (at most some 1e-13 of these
// magnitudes over a few hundred steps; 1e-9 of them is allowed).
inline double slack(const Vec3& x, const Vec3& v, const Vec3& a, double span) {
  return 1e-9 * (1 + x.lpNorm<Eigen::Infinity>() + v.lpNorm<Eigen::Infinity>() * span +
                 a.lpNorm<Eigen::Infinity>() * span * span);
}

// The largest t >= 0 with room - rate t - curve t^2 > 0 (rate, curve >= 0): infinity if neither
// grows, 0 if there is no room.
inline double time_within(double room, double rate, double curve) {
  if (!(room > 0)) return 0;
  if (rate <= 0 && curve <= 0) return std::numeric_limits<double>::infinity();
  return 2 * room / (rate + std::sqrt(rate * rate + 4 * curve * room));  // (no cancellation)
}

// Two spheres: their gap |x_i - x_j| - reach shrinks at most by |dv| t + |da| t^2 / 2.
inline double pair_time(const Vec3& dx, const Vec3& dv, const Vec3& da, double reach,
                        double slack) {
  return time_within(dx.norm() - reach - slack, dv.norm(), 0.5 * da.norm());
}

// A sphere and a plane moving at `wall_velocity`: height = n.(x - plane) - r, which changes by
// n.(v - wall_velocity) t + n.a t^2 / 2.
inline double wall_time(double height, const Vec3& normal, const Vec3& v, const Vec3& wall_velocity,
                        const Vec3& a, double slack) {
  const double rate = normal.dot(v - wall_velocity), curve = 0.5 * normal.dot(a);
  return time_within(height - slack, std::max(0.0, -rate), std::max(0.0, -curve));
}

// A body's distance from where it was at the list's build (or from a point moving with the
// list's drift: v and a relative to it) stays within `limit`.
inline double drift_time(double moved, const Vec3& v, const Vec3& a, double limit, double slack) {
  return time_within(limit - moved - slack, v.norm(), 0.5 * a.norm());
}

// Steps e = 1, 2, .. whose evaluation (at time e dt) comes before t, at most `most`.
inline long steps_before(double t, double dt, long most) {
  const double steps = t / dt * (1 - 1e-9);
  if (!(steps < double(most) + 1)) return most;
  return std::max(0L, std::min(most, long(std::ceil(steps)) - 1));
}

}  // namespace stepwise::quiet
