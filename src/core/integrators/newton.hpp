#pragma once
// Newton-Raphson pieces shared by the implicit integrators: the linear solve restricted to the
// bodies that move freely (fixed, driven and pivoted bodies keep their prescribed motion).
#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include "core/integrator.hpp"

namespace stepwise {

inline Eigen::Map<Eigen::VectorXd> flat(Positions& p) {
  return Eigen::Map<Eigen::VectorXd>(p.data(), p.size());
}
inline Eigen::Map<const Eigen::VectorXd> flat(const Positions& p) {
  return Eigen::Map<const Eigen::VectorXd>(p.data(), p.size());
}

// A plus `sign` times the masses on the diagonal (three dofs a body), as one sparse sum: the
// same numbers as adding to A's diagonal entry by entry, but coeffRef on an entry A lacks (a body
// nothing touches has no Jacobian entries) inserts into a compressed matrix, which took 17% of a
// settling packing's implicit Euler step.
inline SparseMatrix plus_masses(const SparseMatrix& A, const VecX& mass, double sign) {
  SparseMatrix D(A.rows(), A.cols());
  D.reserve(Eigen::VectorXi::Constant(A.cols(), 1));
  for (Eigen::Index j = 0; j < A.rows(); ++j) D.insert(j, j) = sign * mass(j / 3);
  return A + D;
}

struct NewtonSettings {
  // On |r| over the residual's scale: max(1, the largest m|a|) in Newmark, max(1, the largest
  // m|v - v0|) in implicit Euler.
  double tolerance = 1e-10;
  int max_iterations = 60;   // residual evaluations in a step, halved steps included
  int max_matrices = 20;     // Newton matrices built in a step (each a Jacobian and an LU)
};

// One step's Newton matrix, factorised once and reused while it works (modified Newton): an
// update with a reused matrix costs one force evaluation and two triangular solves, a new matrix
// a Jacobian (by differences: tens of evaluations) and a sparse LU. The matrix is rebuilt at the
// current iterate when the last update lowered the residual less than kSlow-fold and less than
// half as well as its first (Newton) update did, so the iterates converge to the same tolerance
// with fewer Jacobians (a settling packing under Newmark: one in most steps, not four to eight).
// Where even Newton's steps converge slowly (a contact's force with a kink between iterates),
// a new matrix would not do better, and the one there is kept.
class NewtonMatrix {
 public:
  static constexpr double kSlow = 0.25;

  // Whether to build a new matrix before updating from an iterate with this residual (after an
  // update that lowered it): none yet this step, or the last update fell short as said above.
  bool stale(double residual) {
    if (!built_) return true;
    const double ratio = residual / last_residual_;
    if (uses_ == 1) newton_ratio_ = ratio;
    return ratio > std::max(kSlow, 2 * newton_ratio_);
  }
  // Where each row's off-diagonal entries add up to at most this share of its diagonal, the
  // matrix is solved by Jacobi iteration instead of a sparse LU (see build).
  static constexpr double kDominant = 0.5;

  // Prepares J on the free dofs (inv_mass > 0); the others get delta = 0. Throws InputError
  // if J is singular. Strongly diagonally dominant rows (a packing at a step within its contacts'
  // period: the masses outweigh h^2 k and h c) are solved by iteration, each sweep a product with
  // J; otherwise by sparse LU, whose fill-in in a settled 3-D packing grows far faster than n
  // (70% of a Newmark step at 10,000 spheres). `lu_only` takes the LU always (the tests' plain
  // way).
  void build(SparseMatrix J, const VecX& inv_mass, bool lu_only = false);
  // delta solving J delta = -r, for the iterate whose residual norm is `residual`.
  Eigen::VectorXd update(const Eigen::VectorXd& r, double residual);
  int builds() const { return builds_; }
  int iterated() const { return iterated_; }  // builds solved by iteration
  // Whether no update has used the matrix yet (built at the current iterate).
  bool fresh() const { return built_ && uses_ == 0; }

 private:
  Eigen::VectorXd jacobi(const Eigen::VectorXd& rhs) const;
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu_;
  SparseMatrix J_;            // the matrix itself, when iterating
  Eigen::VectorXd inv_diag_;  // and its diagonal's inverse
  bool iterative_ = false;
  VecX inv_mass_;
  bool built_ = false;
  double last_residual_ = 0, newton_ratio_ = 0;
  int uses_ = 0, builds_ = 0, iterated_ = 0;
};

// Drives a step's residual to zero over u (Newmark: a(n+1); implicit Euler: v(n+1)).
// residual(u, r) evaluates the forces at u, fills r (M-weighted, zero on bodies that do not move
// freely) and returns |r| relative to the step's scale; matrix(u) returns the Newton matrix
// dr/du at u. The last residual evaluated is at the u returned, so the caller's forces and
// powers are those of the end state.
//
// Updates must lower the residual. A Newton step from a matrix just built that does not is
// halved, down to a sixteenth (backtracking: full steps can run away). A reused matrix's step
// that does not is dropped and the matrix rebuilt where u is. If even a sixteenth of a Newton
// step does not lower it, the residual jumps there (a contact's damping force starts at its full
// value as the contact closes) and may have no root: full steps would jump back and forth for
// ever (a settling packing under implicit Euler cycled between 3e-3 and 6e-3 to the iteration
// limit, each iteration a new Jacobian). Then the bodies whose residual grew most even so are held
// where they are and the rest is iterated on alone, judged by its own residual (more are held if
// a step still does not lower it); the stats say how many were held, and the rest's residual.
template <class Residual, class Matrix>
void newton_solve(Positions& u, Residual&& residual, Matrix&& matrix_at, const VecX& inv_mass,
                  const NewtonSettings& settings, IntegratorStats& stats) {
  NewtonMatrix matrix;
  Positions r, rhs, trial, trial_r, delta(u.rows(), u.cols());
  std::vector<char> held;  // bodies held at a jump (empty until one is)
  int held_count = 0;
  // The residual over the bodies not held, relative as residual() scaled the whole.
  auto rest = [&](const Positions& res, double relative) {
    if (held_count == 0) return relative;
    double all = 0, free = 0;
    for (int i = 0; i < res.cols(); ++i) {
      const double c = res.col(i).squaredNorm();
      all += c;
      if (!held[i]) free += c;
    }
    return all > 0 ? relative * std::sqrt(free / all) : 0.0;
  };
  double norm = residual(u, r), now = norm;  // now: rest(r, norm)
  int evaluations = 1;
  bool evaluated_at_u = true, rebuild = false;
  while (now >= settings.tolerance && evaluations < settings.max_iterations) {
    if (rebuild || matrix.stale(now)) {
      if (matrix.builds() == settings.max_matrices) break;
      matrix.build(matrix_at(u), inv_mass);
    }
    const bool fresh = matrix.fresh();
    rhs = r;
    for (int i = 0; i < int(held.size()); ++i)
      if (held[i]) rhs.col(i).setZero();
    flat(delta) = matrix.update(flat(rhs), now);
    for (int i = 0; i < int(held.size()); ++i)
      if (held[i]) delta.col(i).setZero();
    double trial_norm = norm, trial_now = now;
    for (double alpha = 1;; alpha *= 0.5) {
      trial = u + alpha * delta;
      trial_norm = residual(trial, trial_r);
      trial_now = rest(trial_r, trial_norm);
      ++evaluations;
      if (trial_now < now || !fresh || alpha <= 1.0 / 16 || evaluations >= settings.max_iterations)
        break;
    }
    evaluated_at_u = trial_now < now;
    rebuild = !evaluated_at_u && !fresh;  // a reused matrix fell short: a new one where u is
    if (evaluated_at_u) {
      std::swap(u, trial);
      std::swap(r, trial_r);
      norm = trial_norm, now = trial_now;
      continue;
    }
    if (rebuild) continue;
    // Past a jump: hold the bodies whose residual grew most even so (at least half the most).
    if (held.empty()) held.assign(u.cols(), 0);
    double most = 0;
    for (int i = 0; i < u.cols(); ++i)
      if (!held[i]) most = std::max(most, trial_r.col(i).norm() - r.col(i).norm());
    int newly = 0;
    for (int i = 0; i < u.cols() && most > 0; ++i)
      if (!held[i] && trial_r.col(i).norm() - r.col(i).norm() >= 0.5 * most) held[i] = 1, ++newly;
    held_count += newly;
    if (newly == 0) break;
    now = rest(r, norm);
  }
  if (!evaluated_at_u) norm = residual(u, r), now = rest(r, norm), ++evaluations;
  stats.newton_iterations = evaluations;
  stats.newton_residual = norm;
  stats.newton_matrices = matrix.builds();
  stats.newton_iterated = matrix.iterated();
  stats.newton_held = held_count;
  stats.newton_residual_rest = held_count > 0 ? now : 0.0;
}

}  // namespace stepwise
