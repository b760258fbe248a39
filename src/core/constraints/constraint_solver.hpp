#pragma once
// The multipliers' linear system of seed 004: A λ = b with A = J W Jᵀ (W = M⁻¹ over the bodies'
// velocities and spins). Sparse LDLᵀ when A is regular; where rows are redundant or conflict (a
// closed loop, a joint given twice) A is singular, and the minimum-norm least-squares λ is taken
// instead (complete orthogonal decomposition; for very large sets a regularised LDLᵀ), and the
// rank is reported rather than a NaN produced.
#include <vector>

#include <Eigen/SparseCholesky>

#include "core/constraints/constraint.hpp"

namespace stepwise {

class World;

// One body's inverse mass and inverse inertia (world frame), zero where it cannot move or turn.
struct BodyInverse {
  double inv_mass = 0;
  Mat3 inv_inertia = Mat3::Zero();
};
BodyInverse body_inverse(const World& world, int body);

class ConstraintSolver {
 public:
  // Forms and factors A for the rows; `inverse` holds every body's W block (indexed by body).
  void factor(const std::vector<ConstraintRow>& rows, const std::vector<BodyInverse>& inverse);
  // λ with A λ = b, or the least-squares λ of smallest norm where A is singular.
  VecX solve(const VecX& b) const;
  int rank() const { return rank_; }
  // The first row that no body can move (A_rr = 0): such a constraint cannot be kept at all.
  int immovable_row() const { return immovable_; }
  // How many times A has been formed and factored: rows and W blocks bit for bit those of the
  // last factor() are not factored again (a step's solves at one state share one factor). For
  // the tests; the skip is for speed only.
  long factored() const { return factored_; }

 private:
  int size_ = 0, rank_ = 0, immovable_ = -1;
  bool dense_ = false;
  // Whether a_ has the pattern the LDLT's analysis was made for (else it is kept for the next).
  bool same_pattern();
  // Whether A would be formed from what the last factor() formed it from, bit for bit (else this
  // is kept for the next): each row end's body, its directions and that body's W block.
  bool same_input(const std::vector<ConstraintRow>& rows, const std::vector<BodyInverse>& inverse);
  std::vector<double> last_input_;
  std::vector<int> last_input_bodies_;
  long factored_ = 0;
  Eigen::SparseMatrix<double> a_;
  std::vector<int> pattern_outer_, pattern_inner_;         // (empty: no analysis to keep)
  std::vector<std::vector<std::pair<int, int>>> by_body_;  // (buffers kept between factors)
  std::vector<Eigen::Triplet<double>> entries_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt_;
  Eigen::MatrixXd pseudo_inverse_;  // dense fallback for a singular A
};

}  // namespace stepwise
