#pragma once
// Newton-Raphson pieces shared by the implicit integrators: the linear solve restricted to the
// bodies that move freely (fixed, driven and pivoted bodies keep their prescribed motion).
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

struct NewtonSettings {
  double tolerance = 1e-10;  // on |r| relative to max(1, |M a|)
  int max_iterations = 60;   // updates in a step, reused matrices included
  int max_matrices = 20;     // Newton matrices built in a step (each a Jacobian and an LU)
};

// One step's Newton matrix, factorised once and reused while it works (modified Newton): an
// update with a reused matrix costs one force evaluation and two triangular solves, a new matrix
// a Jacobian (by differences: tens of evaluations) and a sparse LU. The matrix is rebuilt at the
// current iterate when the last update lowered the residual less than kSlow-fold and less than
// half as well as its first (Newton) update did, so the iterates converge to the same tolerance
// with fewer Jacobians (a settling packing under Newmark: one a step instead of four to six).
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
  // Factorises J on the free dofs (inv_mass > 0); the others get delta = 0. Throws InputError
  // if J is singular.
  void build(SparseMatrix J, const VecX& inv_mass);
  // delta solving J delta = -r, for the iterate whose residual norm is `residual`.
  Eigen::VectorXd update(const Eigen::VectorXd& r, double residual);
  int builds() const { return builds_; }
  // Whether no update has used the matrix yet (built at the current iterate).
  bool fresh() const { return built_ && uses_ == 0; }

 private:
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu_;
  VecX inv_mass_;
  bool built_ = false;
  double last_residual_ = 0, newton_ratio_ = 0;
  int uses_ = 0, builds_ = 0;
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
// value as the contact closes) and it may have no root: full steps would jump back and forth for
// ever (a settling packing under implicit Euler cycled between 3e-3 and 6e-3 to the iteration
// limit, each iteration a new Jacobian). Then the rest of the bodies still converge: full steps
// with that matrix go on while they lower the lowest residual by 1% within kPatience updates, and
// the step ends at the lowest found, which the stats report.
template <class Residual, class Matrix>
void newton_solve(Positions& u, Residual&& residual, Matrix&& matrix_at, const VecX& inv_mass,
                  const NewtonSettings& settings, IntegratorStats& stats) {
  constexpr int kPatience = 8;
  NewtonMatrix matrix;
  Positions r, trial, trial_r, best;
  double norm = residual(u, r), best_norm = norm;
  int evaluations = 1, since_best = 0;
  bool evaluated_at_u = true, rebuild = false, stalled = false;
  while (norm >= settings.tolerance && evaluations < settings.max_iterations) {
    if (stalled) {  // full steps, kept or not; the best remembered
      flat(u) += matrix.update(flat(r), norm);
      norm = residual(u, r), ++evaluations;
      if (norm < 0.99 * best_norm) since_best = 0;
      if (norm < best_norm)
        best = u, best_norm = norm, evaluated_at_u = true;
      else
        evaluated_at_u = false;
      if (++since_best >= kPatience) break;
      continue;
    }
    if (rebuild || matrix.stale(norm)) {
      if (matrix.builds() == settings.max_matrices) break;
      matrix.build(matrix_at(u), inv_mass);
    }
    const bool fresh = matrix.fresh();
    const Eigen::VectorXd delta = matrix.update(flat(r), norm);
    double trial_norm = norm;
    for (double alpha = 1;; alpha *= 0.5) {
      trial = u;
      flat(trial) += alpha * delta;
      trial_norm = residual(trial, trial_r);
      ++evaluations;
      if (trial_norm < norm || !fresh || alpha <= 1.0 / 16 ||
          evaluations >= settings.max_iterations)
        break;
    }
    evaluated_at_u = trial_norm < norm;
    if (!evaluated_at_u) {  // u stays: a new matrix there, or past a jump
      rebuild = true;
      if (fresh) stalled = true, best = u, best_norm = norm, since_best = 0;
      continue;
    }
    rebuild = false;
    std::swap(u, trial);
    std::swap(r, trial_r);
    norm = trial_norm;
  }
  if (stalled) u = best, norm = best_norm;
  if (!evaluated_at_u) norm = residual(u, r), ++evaluations;
  stats.newton_iterations = evaluations;
  stats.newton_residual = norm;
  stats.newton_matrices = matrix.builds();
}

}  // namespace stepwise
