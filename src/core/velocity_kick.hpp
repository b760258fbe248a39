#pragma once
// The kick v += h F/m for four bodies as stored and for one, each returning the mean velocity
// over the kick (what the work booking reads). Simulation's kicks and the free-sphere sweep share
// them, so both compute the same bits.
#include "core/lanes.hpp"
#include "core/types.hpp"

namespace stepwise::velocity_kick {

// Bodies i .. i + 3, as stored: no shuffles into lanes.
inline lanes::Stored four(double* v, const double* force, const double* inv_mass, double h, int i) {
  using namespace lanes;
  const Stored before = load_stored(v + 3 * i);
  const Stored after =
      before + splat(h) * (load_stored(force + 3 * i) * spread_xyz(load(inv_mass + i)));
  store_stored(v + 3 * i, after);
  return splat(0.5) * (before + after);
}

inline Vec3 one(double* v, const double* force, const double* inv_mass, double h, int i) {
  Eigen::Map<Vec3> velocity(v + 3 * i);
  const Vec3 before = velocity;
  velocity += h * (Eigen::Map<const Vec3>(force + 3 * i) * inv_mass[i]);
  return 0.5 * (before + velocity);
}

}  // namespace stepwise::velocity_kick
