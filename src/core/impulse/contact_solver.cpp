// Islands, and subspace minimisation between Gauss-Seidel sweeps (contact_solver.hpp).
#include "core/impulse/contact_solver.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Cholesky>

namespace stepwise {
namespace {

constexpr int kSweepsBetween = 6;  // Gauss-Seidel sweeps before each linear solve

// One subspace minimisation on an island: the impulses moved towards the exact solution of the
// set it chose. Returns whether they reached it inside every bound (the island is solved).
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
  Eigen::VectorXd held(f), rhs(f);
  for (int a = 0; a < f; ++a) {
    held(a) = all[rows[free[a] / 3]].impulse(free[a] % 3);
    for (int b = 0; b < f; ++b) Aff(a, b) = A(free[a], free[b]);
  }
  // The free impulses that give the goal velocities, of least norm among all that do: four
  // corners of a face carry a weight in many ways, and the least norm shares it evenly with
  // the least friction, away from the cones' edges (the least change instead would keep the
  // twists a Gauss-Seidel sweep left between corners).
  for (int a = 0; a < f; ++a) rhs(a) = goal(free[a]) - u(free[a]);
  rhs += Aff * held;
  // Aff is singular where a face's corners share a weight, but the goal velocities are ones
  // the bodies can have (in its range), so the least-norm solution is the limit of iterated
  // Tikhonov: x <- x + (Aff + ridge 1)^-1 (rhs - Aff x), each pass shrinking every range
  // component's error by ridge / (lambda + ridge) and adding no null-space part. One Cholesky
  // factorisation, a few back-substitutions: a quarter of a complete orthogonal decomposition.
  Eigen::MatrixXd ridged = Aff;
  ridged.diagonal().array() += 1e-10 * Aff.diagonal().maxCoeff();
  const Eigen::LLT<Eigen::MatrixXd> cholesky(ridged);
  Eigen::VectorXd least = cholesky.solve(rhs);
  for (int pass = 0; pass < 3; ++pass) least += cholesky.solve(rhs - Aff * least);
  Eigen::VectorXd delta = Eigen::VectorXd::Zero(3 * m);
  for (int a = 0; a < f; ++a) delta(free[a]) = least(a) - held(a);
  // As far towards it as the bounds let: touching normals pull nothing, sticking points stay in
  // their cones (the first bound met ends the step, as in an active-set method; the sweeps that
  // follow let that point go or slide). The whole way, with the points let go not closing, it
  // is the island's solution.
  double alpha = 1;
  for (int k = 0; k < m; ++k) {
    const ContactSystem::Row& r = all[rows[k]];
    if (!(r.impulse.x() > 0)) continue;
    const Vec3 p = r.impulse, d = delta.segment<3>(3 * k);
    if (d.x() < 0) alpha = std::min(alpha, -p.x() / d.x());
    if (!sticks[k]) continue;
    // mu^2 (p_n + a d_n)^2 - |p_t + a d_t|^2 >= 0: positive at a = 0, its first root if any.
    const double mu2 = r.mu * r.mu;
    const double qa = mu2 * d.x() * d.x() - d.tail<2>().squaredNorm();
    const double qb = 2 * (mu2 * p.x() * d.x() - p.tail<2>().dot(d.tail<2>()));
    const double qc = mu2 * p.x() * p.x() - p.tail<2>().squaredNorm();
    for (double a : {0.25 * alpha, 0.5 * alpha, alpha})  // cheap test before the roots
      if (qa * a * a + qb * a + qc < 0) {
        const double disc = std::sqrt(std::max(0.0, qb * qb - 4 * qa * qc));
        double root = alpha;
        for (double x : {(-qb - disc) / (2 * qa), (-qb + disc) / (2 * qa)})
          if (x > 0 && x < root) root = x;
        alpha = std::min(alpha, root);
        break;
      }
  }
  alpha = std::max(0.0, alpha);
  bool solved = alpha == 1;
  if (solved) {
    const Eigen::VectorXd after = u + A * delta;
    const double slack =
        1e-9 * std::max(1e-300, u.cwiseAbs().maxCoeff() + goal.cwiseAbs().maxCoeff());
    for (int k = 0; k < m; ++k)
      if (!(all[rows[k]].impulse.x() > 0) && after(3 * k) < goal(3 * k) - slack) solved = false;
  }
  for (int k = 0; k < m; ++k) {
    ContactSystem::Row& r = all[rows[k]];
    Vec3 d = alpha * delta.segment<3>(3 * k);
    if (r.impulse.x() > 0 && !sticks[k] && r.mu > 0) {
      // A sliding point keeps its friction on the cone's edge as its normal impulse changes.
      const double pn = r.impulse.x() + d.x();
      d.tail<2>() = r.impulse.tail<2>() * (pn / r.impulse.x() - 1);
    }
    if (d.squaredNorm() > 0) system.apply(r, d);
  }
  return solved;
}

}  // namespace

SolveResult solve_contacts(ContactSystem& system, const std::vector<double>& target, int sweeps,
                           ContactTreatment::Solver solver, int facets) {
  SolveResult out;
  out.converged = true;
  for (const std::vector<int>& island : system.islands()) {
    SolveResult result;
    // (Lemke's problem has no rolling or twisting resistance: islands with it go as automatic.
    // Asked only under lemke: the other solvers' islands are not scanned for it.)
    auto spins = [&] {
      return std::any_of(island.begin(), island.end(),
                         [&](int k) { return system.rows()[k].spin >= 0; });
    };
    if (solver == ContactTreatment::Solver::lemke && int(island.size()) <= kPivotRows && !spins() &&
        solve_island_by_pivoting(system, island, target, facets, system.delassus(island))) {
      result.converged = true;
    } else if (solver == ContactTreatment::Solver::pgs || int(island.size()) > kExactRows) {
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
