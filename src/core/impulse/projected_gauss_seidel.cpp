// Projected Gauss-Seidel over contact points (contact_solver.hpp).
#include <algorithm>
#include <cmath>

#include "core/impulse/contact_solver.hpp"

namespace stepwise {

// Maximal dissipation: P = -cap d with d parallel to u = a + K P. Then a = (s 1 + cap K) d for
// some s >= 0, the root of |(s 1 + cap K)^-1 a| = 1, found in K's eigenbasis by Newton's method
// on 1/|d(s)|, which is concave and rises (More and Sorensen's trust-region step, 1983): from
// below the root it never overshoots, and it is nearly straight, so two or three steps do (on
// |d|^2 itself, convex, it took five). The root lies between |a| - cap lambda_max and
// |a| - cap lambda_min, so it starts at the first. Merely scaling the sticking impulse down onto
// the cone would point it along K^-1 u: off the sliding direction wherever an arm makes K
// anisotropic (a box's corner), so a sliding box would brake too little and spin.
Eigen::Vector2d sliding_impulse(const Eigen::Matrix2d& axes, const Eigen::Vector2d& eigen,
                                const Eigen::Vector2d& a, double cap, double* guess) {
  if (!(cap > 0)) return Eigen::Vector2d::Zero();
  const Eigen::Vector2d b = axes.transpose() * a;
  const Eigen::Vector2d lambda = cap * eigen;
  const double lowest = std::max(0.0, b.norm() - lambda.maxCoeff());
  // Or from the guess (the last root of a point still sliding: often the root itself): right
  // of the root a step lands left of it (psi is concave: its tangents pass above it), and no
  // further left than the bound, where it goes on as from the bound.
  double s = guess && *guess > lowest ? *guess : lowest;
  for (int iteration = 0; iteration < 60; ++iteration) {
    const double inv0 = 1 / (s + lambda(0)), inv1 = 1 / (s + lambda(1));
    const double x0 = b(0) * inv0, x1 = b(1) * inv1;
    const double norm2 = x0 * x0 + x1 * x1;  // |d(s)|^2: > 1 left of the root, < 1 right
    // (Right of it only at a guess: steps from the left do not overshoot.)
    const bool guessed = iteration == 0 && s > lowest;
    if (norm2 - 1 <= 1e-15 && (!guessed || norm2 - 1 >= -1e-15)) break;
    // psi = norm2^(-1/2): s += (1 - psi) / psi', psi' = norm2^(-3/2) (x0^2 inv0 + x1^2 inv1).
    s = std::max(lowest, s + norm2 * (std::sqrt(norm2) - 1) / (x0 * x0 * inv0 + x1 * x1 * inv1));
  }
  if (guess) *guess = s;
  const Eigen::Vector2d d(b(0) / (s + lambda(0)), b(1) / (s + lambda(1)));
  return -cap * (axes * d).normalized();
}

SolveResult projected_gauss_seidel(ContactSystem& system, const std::vector<int>& rows,
                                   const std::vector<double>& target, int sweeps) {
  auto& all = system.rows();
  // Converged when no sweep changes a point's velocity by more than 1e-10 of the problem's
  // speeds: those the points have, their targets, and what the impulses they hold give them (a
  // warm start may already leave them at rest).
  double scale = 0;
  for (int k : rows)
    scale = std::max({scale, system.velocity(all[k]).norm(), std::abs(target[k]),
                      all[k].K(0, 0) * all[k].impulse.norm()});
  const double tolerance = 1e-10 * scale;  // compared squared below: no root per point
  SolveResult result;
  const int count = int(rows.size());
  while (result.sweeps < sweeps) {
    ++result.sweeps;
    double change = 0;  // squared
    // Forward and backward in turn (symmetric Gauss-Seidel): a blow or a weight crosses a
    // stack in one sweep whichever end it starts from.
    const bool forward = result.sweeps % 2 == 1;
    for (int m = 0; m < count; ++m) {
      const int k = rows[forward ? m : count - 1 - m];
      ContactSystem::Row& r = all[k];
      if (!(r.K(0, 0) > 0)) continue;  // between two bodies that cannot move
      // Normal: u_n >= target, P_n >= 0, one of them at its bound.
      const Vec3 u = system.velocity(r);
      const double pn = std::max(0.0, r.impulse.x() + (target[k] - u.x()) * r.inv_kn);
      Vec3 delta(pn - r.impulse.x(), 0, 0);
      change = std::max(change, delta.x() * delta.x() * r.K(0, 0) * r.K(0, 0));
      // Tangential: the impulse that stops the point, or its sliding's, on the cone; from the
      // velocity the normal change leaves (u + K (dn, 0, 0)), applied with it in one pass.
      if (r.mu > 0) {
        const Eigen::Matrix2d Ktt = r.K.bottomRightCorner<2, 2>();
        const Eigen::Vector2d ut = u.tail<2>() + r.K.block<2, 1>(1, 0) * delta.x();
        const Eigen::Vector2d held = r.impulse.tail<2>();
        Eigen::Vector2d pt = held - r.tangent_inverse * ut;
        const double cap = r.mu * pn;
        if (pt.squaredNorm() > cap * cap)
          pt = sliding_impulse(r.tangent_axes, r.tangent_eigen, ut - Ktt * held, cap, &r.slide);
        delta.tail<2>() = pt - held;
        change = std::max(change, (Ktt * delta.tail<2>()).squaredNorm());
      } else {
        delta.tail<2>() = -r.impulse.tail<2>();  // mu tuned to 0
      }
      if (delta.squaredNorm() > 0) system.apply(r, delta);
      if (r.spin >= 0) {
        // Rolling and twisting resistance: the angular impulse that stops the relative spin,
        // its twist within twist_cap P_n and its rolling within roll_cap P_n (a disc: for a
        // sphere, whose spin block is isotropic, the projection is the dissipative answer).
        const ContactSystem::Spin& s = system.spins()[r.spin];
        Vec3 m = s.impulse - s.inverse * system.spin(r);
        const double twist = s.twist_cap * pn, roll = s.roll_cap * pn;
        m.x() = std::clamp(m.x(), -twist, twist);
        const double rolling = m.tail<2>().norm();
        if (rolling > roll) m.tail<2>() *= roll / rolling;
        const Vec3 dm = m - s.impulse;
        change = std::max(change, (s.K * dm).squaredNorm());
        if (dm.squaredNorm() > 0) system.apply_spin(r, dm);
      }
    }
    if (change <= tolerance * tolerance) {
      result.converged = true;
      break;
    }
  }
  return result;
}

}  // namespace stepwise
