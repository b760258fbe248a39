#pragma once
// A uniform field's per-body work: the force m a added to each body's loads and its potential
// -m a.x, summed body by body. Gravity's pass and the free-sphere sweep (which takes it over where
// it can, SweepShare) share these, so both compute the same bits.
#include "core/lanes.hpp"
#include "core/types.hpp"

namespace stepwise::uniform_field {

// a as four bodies' forces are stored, so each component m a_c is added to its own there.
inline lanes::Stored stored(const Vec3& a) {
  using lanes::D4;
  return {D4{a.x(), a.y(), a.z(), a.x()}, D4{a.y(), a.z(), a.x(), a.y()},
          D4{a.z(), a.x(), a.y(), a.z()}};
}

// The potential of bodies i .. i + 3 (masses m), added body by body.
inline void four_potential(const lanes::D4& m, const double* x, const Vec3& a, int i,
                           double& potential) {
  using namespace lanes;
  const V3 p = load_xyz(x + 3 * i);
  const D4 u = m * ((a.x() * p.x + a.y() * p.y) + a.z() * p.z);
  potential -= u[0], potential -= u[1], potential -= u[2], potential -= u[3];
}

// Bodies i .. i + 3 in lanes (a_stored = stored(a)); the potential still adds body by body.
inline void four(const double* mass, const double* x, double* force, const Vec3& a,
                 const lanes::Stored& a_stored, int i, double& potential) {
  using namespace lanes;
  const D4 m = load(mass + i);
  double* f = force + 3 * i;
  store_stored(f, load_stored(f) + spread_xyz(m) * a_stored);
  four_potential(m, x, a, i, potential);
}

// four() on loads just cleared (+0), not cleared first: m a stored only where its bits differ
// from what the loads hold (the step before's, where nothing else loaded the body), so an
// unchanged line is not written back. For speed only: the same bits as clearing, then four().
inline void four_cleared(const double* mass, const double* x, double* force, const Vec3& a,
                         const lanes::Stored& a_stored, int i, double& potential) {
  using namespace lanes;
  const D4 m = load(mass + i);
  double* f = force + 3 * i;
  const Stored fresh = Stored{splat(0.0), splat(0.0), splat(0.0)} + spread_xyz(m) * a_stored;
  const Stored held = load_stored(f);
  const M4 same = (M4(fresh.first) == M4(held.first)) & (M4(fresh.second) == M4(held.second)) &
                  (M4(fresh.third) == M4(held.third));
  if (!all_lanes(same)) store_stored(f, fresh);
  four_potential(m, x, a, i, potential);
}

inline void one(const double* mass, const double* x, double* force, const Vec3& a, int i,
                double& potential) {
  Eigen::Map<Vec3>(force + 3 * i) += mass[i] * a;
  potential -= mass[i] * a.dot(Eigen::Map<const Vec3>(x + 3 * i));
}

}  // namespace stepwise::uniform_field
