// Islands, and subspace minimisation between Gauss-Seidel sweeps (contact_solver.hpp).
#include "core/impulse/contact_solver.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/QR>

namespace stepwise {
namespace {

constexpr int kSweepsBetween = 6;  // Gauss-Seidel sweeps before each linear solve

// One subspace minimisation on an island. Returns whether it moved the impulses to an exact
// solution of the set it chose, inside every bound (then the island is solved).
bool minimise_subspace(ContactSystem& system, const std::vector<int>& rows,
                       const std::vector<double>& target, const Eigen::MatrixXd& A) {
  auto& all = system.rows();
  const int m = int(rows.size());
  // The free set: touching normals, and the tangents of points that stick.
  std::vector<int> free;
  std::vector<char> sticks(m, 0);
  Eigen::VectorXd u(3 * m), goal = Eigen::VectorXd::Zero(3 * m);
  for (int k = 0; k < m; ++k) {
    const ContactSystem::Row& r = all[rows[k]];
    u.segment<3>(3 * k) = system.velocity(r);
    goal(3 * k) = target[rows[k]];
    if (!(r.impulse.x() > 0)) continue;
    free.push_back(3 * k);
    if (r.mu > 0 && r.impulse.tail<2>().norm() < r.mu * r.impulse.x() * (1 - 1e-9)) {
      sticks[k] = 1;
      free.push_back(3 * k + 1);
      free.push_back(3 * k + 2);
    }
  }
  if (free.empty()) return false;
  const int f = int(free.size());
  Eigen::MatrixXd Aff(f, f);
  Eigen::VectorXd rhs(f);
  for (int a = 0; a < f; ++a) {
    rhs(a) = goal(free[a]) - u(free[a]);
    for (int b = 0; b < f; ++b) Aff(a, b) = A(free[a], free[b]);
  }
  // Least squares of least norm: four corners of a face carry a weight in many ways.
  const Eigen::VectorXd step =
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(Aff).solve(rhs);
  Eigen::VectorXd delta = Eigen::VectorXd::Zero(3 * m);
  for (int a = 0; a < f; ++a) delta(free[a]) = step(a);
  // Inside the bounds: touching normals pull nothing, sticking points stay in their cones, and
  // the points let go do not close.
  const Eigen::VectorXd after = u + A * delta;
  const double slack =
      1e-9 * std::max(1e-300, u.cwiseAbs().maxCoeff() + goal.cwiseAbs().maxCoeff());
  for (int k = 0; k < m; ++k) {
    const ContactSystem::Row& r = all[rows[k]];
    const Vec3 p = r.impulse + delta.segment<3>(3 * k);
    if (r.impulse.x() > 0) {
      if (p.x() < 0) return false;
      if (sticks[k] && p.tail<2>().norm() > r.mu * p.x()) return false;
    } else if (after(3 * k) < goal(3 * k) - slack) {
      return false;
    }
  }
  for (int k = 0; k < m; ++k) {
    ContactSystem::Row& r = all[rows[k]];
    Vec3 d = delta.segment<3>(3 * k);
    if (r.impulse.x() > 0 && !sticks[k] && r.mu > 0) {
      // A sliding point keeps its friction on the cone's edge as its normal impulse changes.
      const double pn = r.impulse.x() + d.x();
      d.tail<2>() = r.impulse.tail<2>() * (pn / r.impulse.x() - 1);
    }
    if (d.squaredNorm() > 0) system.apply(r, d);
  }
  return true;
}

}  // namespace

SolveResult solve_contacts(ContactSystem& system, const std::vector<double>& target, int sweeps) {
  SolveResult out;
  out.converged = true;
  for (const std::vector<int>& island : system.islands()) {
    SolveResult result;
    if (int(island.size()) > kExactRows) {
      result = projected_gauss_seidel(system, island, target, sweeps);
    } else {
      Eigen::MatrixXd A;
      while (result.sweeps < sweeps) {
        const SolveResult part = projected_gauss_seidel(
            system, island, target, std::min(kSweepsBetween, sweeps - result.sweeps));
        result.sweeps += part.sweeps;
        result.converged = part.converged;
        if (part.converged || result.sweeps >= sweeps) break;
        if (A.size() == 0) A = system.delassus(island);
        if (minimise_subspace(system, island, target, A)) {
          // Polish: sliding points' friction follows the new normal impulses.
          const SolveResult polish = projected_gauss_seidel(system, island, target, 2);
          result.sweeps += polish.sweeps;
          if (polish.converged) {
            result.converged = true;
            break;
          }
        }
      }
    }
    out.sweeps = std::max(out.sweeps, result.sweeps);
    out.converged = out.converged && result.converged;
  }
  return out;
}

}  // namespace stepwise
