#pragma once
// One granular contact's law, four contacts at a time (the sphere-pair, sphere-wall and shape
// kernels all call spring_dashpot): normal spring-dashpot, Cundall-Strack tangential spring with
// history, and the Coulomb cap, in one of two forms:
//   lammps: at the cap the spring is rescaled so spring + dashpot sit on mu |F_n|, the dashpot
//     kept (LAMMPS' gran/*/history). A damped contact can re-stick while its point still slides,
//     so the friction impulse of a sliding impact falls short of mu J_n.
//   exact: at the cap the whole tangential force (spring + dashpot) is mu max(F_n, 0) along the
//     trial force, and the spring alone is set to carry it, so it stays on the cap while the
//     point slides; with limit_force the normal force never pulls (LIGGGHTS' limitForce).
#include <algorithm>
#include <cmath>

#include "core/lanes.hpp"
#include "core/types.hpp"

namespace stepwise {

enum class Coulomb { Lammps, Exact };

struct ContactParams {
  double mu_roll, mu_twist, dt;
  Coulomb coulomb = Coulomb::Lammps;
  bool limit_force = false;  // F_n = max(F_n, 0): no tensile normal force
};

// A pair of materials' law (the coefficients of Law) and friction coefficient.
template <class Law>
struct PairLaw {
  Law law;
  double mu;
  // The tangential stiffness at zero overlap, at which an opening contact's spring is let go.
  double release_kt() const { return law.at(0.0, 1.0, 1.0).kt; }
};

// Each lane's pair law; `uniform` when the four are one (every contact of a one-material scene).
template <class Law>
struct LaneLaws {
  const PairLaw<Law>* lane[4];
  bool uniform;
};
template <class Law>
LaneLaws<Law> uniform_laws(const PairLaw<Law>& law) {
  return {{&law, &law, &law, &law}, true};
}

// Rolling and twisting resistance on body i (the partner gets the opposite): torques of at most
// mu_roll r_eff |F_n| and mu_twist r_eff |F_n| against the relative rolling and twisting spin,
// smoothed below a small spin so a body at rest feels none. Booked as drag: pure dissipation.
inline Vec3 rolling_resistance(const ContactParams& p, const Vec3& spin, const Vec3& normal,
                               double fn, double r_eff) {
  constexpr double kSmooth = 1e-3;  // rad/s below which the torque fades linearly
  const double twist = spin.dot(normal);
  const Vec3 roll = spin - twist * normal;
  const double cap = std::abs(fn) * r_eff;
  Vec3 m = Vec3::Zero();
  if (p.mu_roll > 0) m -= p.mu_roll * cap * roll / std::max(roll.norm(), kSmooth);
  if (p.mu_twist > 0) m -= p.mu_twist * cap * twist / std::max(std::abs(twist), kSmooth) * normal;
  return m;
}

// One batch of contacts in lanes: unit normal towards body i, overlap, contact slip velocity of i
// against its partner, effective mass and radius (the radius only for laws that need it).
struct LaneContact {
  lanes::V3 normal, slip;
  lanes::D4 delta, m_eff, r_eff;
  lanes::M4 valid;
};
// Force on i, its tangential part, the dashpot (dissipative) parts, the new spring and the
// stiffness it is stored at, and the stored energy and the energy the step took away from the
// spring (both zero in invalid lanes).
struct LaneForces {
  lanes::V3 force, tangential, drag, tangential_drag, xi;
  lanes::D4 kt, energy, capped;
  lanes::D4 normal_energy;  // the normal spring's share of energy
};

// The spring-dashpot, Coulomb cap and Cundall-Strack spring (see granular_contact.hpp), with
// masks instead of branches; `old` is the stored spring, `old_kt` the tangential stiffness its
// energy was last booked at (laws whose kt varies with the overlap; 0: not known).
template <class Law>
[[gnu::always_inline]] inline LaneForces spring_dashpot(const LaneLaws<Law>& laws,
                                                        const ContactParams& params,
                                                        const LaneContact& c, const lanes::V3& old,
                                                        const lanes::D4& old_kt) {
  using namespace lanes;
  const D4 dt = splat(params.dt), half_dt = splat(0.5 * params.dt), half = splat(0.5);
  const D4 zero = splat(0);
  const V3& normal = c.normal;
  const V3& slip = c.slip;
  const D4 delta = c.delta, m_eff = c.m_eff;
  const M4 valid = c.valid;
  D4 kn, kt, gamma_n, gamma_t, normal_energy, mu;
  if (laws.uniform) {
    const Law& law = laws.lane[0]->law;
    mu = splat(laws.lane[0]->mu);
    if constexpr (Law::kConstant) {
      kn = splat(law.kn), kt = splat(law.kt), gamma_n = splat(law.gamma_n),
      gamma_t = splat(law.gamma_t);
      normal_energy = half * kn * delta * delta;
    } else {
      for (int l = 0; l < 4; ++l) {
        const auto k = law.at(delta[l], c.r_eff[l], m_eff[l]);
        kn[l] = k.kn, kt[l] = k.kt, gamma_n[l] = k.gamma_n, gamma_t[l] = k.gamma_t;
        normal_energy[l] = law.normal_energy(delta[l], c.r_eff[l]);
      }
    }
  } else {
    for (int l = 0; l < 4; ++l) {
      const Law& law = laws.lane[l]->law;
      const auto k = law.at(delta[l], c.r_eff[l], m_eff[l]);
      kn[l] = k.kn, kt[l] = k.kt, gamma_n[l] = k.gamma_n, gamma_t[l] = k.gamma_t;
      normal_energy[l] = law.normal_energy(delta[l], c.r_eff[l]);
      mu[l] = laws.lane[l]->mu;
    }
  }
  const D4 vn = dot(slip, normal);
  D4 fn = kn * delta - m_eff * gamma_n * vn;
  // The normal dashpot's force; with limit_force, whatever keeps F_n from pulling.
  V3 normal_drag = -(m_eff * gamma_n * vn) * normal;
  if (params.limit_force) {
    fn = select(fn < 0, zero, fn);
    normal_drag = (fn - kn * delta) * normal;
  }
  const V3 v_t = slip - vn * normal;
  // Cundall-Strack: the spring turned onto the contact plane keeping its length, stretched by
  // this step's slip.
  const D4 along = dot(old, normal), old2 = dot(old, old);
  V3 xi = old - along * normal;
  // The length lost, e = along^2 / |old|^2, is tiny at a step's turn of the contact plane: then
  // (1 - e)^-1/2 to e^2 is exact to round-off, and keeps a division and a square root off the
  // kernel's longest chain (1/|old|^2 does not wait for the normal). Each lane takes the series
  // or the root by its own e, so a pair's result does not depend on the pairs beside it.
  const D4 e = along * along * (1.0 / old2);
  D4 ratio = (1.0 + 0.5 * e) + (0.375 * e) * e;
  const M4 series = (lanes::abs(e) < 1e-5) | (old2 == 0);
  if (!all_lanes(series | ~valid)) {
    const D4 kept = dot(xi, xi);
    ratio = select(series, ratio, select(kept > 0, lanes::sqrt(old2 / kept), splat(1)));
  }
  xi = select(old2 > 0, ratio, splat(1)) * xi;
  // Verlet's opening half kick applied the unturned spring, while the energy below follows the
  // turned one: h/2 kt (xi_old - xi_turned) . v_t, booked so the ledger stays O(dt^2).
  D4 turn_mismatch = half_dt * kt * dot(old - xi, v_t);
  if constexpr (!Law::kConstant) {
    // Mindlin's kt follows the overlap, so the stored spring's energy 1/2 kt |xi|^2 changes with
    // it though no force works on it: energy the law makes or takes, booked with the cap's. And
    // the opening half kick applied the spring at its old stiffness.
    const D4 kt_before = select(old_kt > 0, old_kt, kt);
    turn_mismatch = half_dt * dot(kt_before * old - kt * xi, v_t) + half * (kt_before - kt) * old2;
  }
  xi = xi + dt * v_t;
  const D4 stored_before_cap = half * kt * dot(xi, xi);
  V3 tangential_drag = -(m_eff * gamma_t) * v_t;
  V3 tangential = tangential_drag - kt * xi;
  const D4 cap =
      params.coulomb == Coulomb::Exact ? mu * select(fn < 0, zero, fn) : mu * lanes::abs(fn);
  const D4 ft2 = dot(tangential, tangential);
  const M4 sliding = (ft2 > cap * cap) & valid;
  D4 kick_mismatch = zero;
  if (sliding[0] | sliding[1] | sliding[2] | sliding[3]) {
    // Verlet's closing half kick applies the capped spring while the spring's energy grew with
    // the uncapped one: h/2 (F_uncapped - F_capped) . v_t per step, first order in dt if left
    // out, so it is booked with the cap's loss.
    const D4 ratio = cap / lanes::sqrt(ft2);
    const M4 spring = params.coulomb == Coulomb::Exact ? sliding & (kt > 0)
                                                       : sliding & (kt > 0) & (dot(xi, xi) > 0);
    const M4 plain = sliding & ~spring;  // no spring to set: the force itself is capped
    V3 capped_xi;
    if (params.coulomb == Coulomb::Exact) {
      // The trial force onto the cap, all of it carried by the spring.
      capped_xi = (-1.0 / kt) * (ratio * tangential);
      tangential_drag = select(spring, V3{zero, zero, zero}, tangential_drag);
    } else {
      // The spring rescaled so spring plus dashpot sits on the cap, the dashpot unchanged.
      const V3 dashpot = (m_eff * gamma_t / kt) * v_t;
      capped_xi = ratio * (xi + dashpot) - dashpot;
    }
    kick_mismatch = select(spring, half_dt * kt * dot(capped_xi - xi, v_t), zero);
    xi = select(spring, capped_xi, xi);
    tangential =
        select(spring, tangential_drag - kt * xi, select(plain, ratio * tangential, tangential));
    tangential_drag = select(plain, tangential, tangential_drag);
  }
  LaneForces out;
  out.drag = tangential_drag + normal_drag;
  out.force = tangential + fn * normal;
  out.tangential = tangential;
  out.tangential_drag = tangential_drag;
  out.xi = xi;
  out.kt = kt;
  const D4 stored = half * kt * dot(xi, xi);
  out.energy = select(valid, normal_energy + stored, zero);
  out.normal_energy = select(valid, normal_energy, zero);
  out.capped = select(valid, stored_before_cap - stored + kick_mismatch + turn_mismatch, zero);
  return out;
}

}  // namespace stepwise
