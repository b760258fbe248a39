// Lemke's method on a dense tableau (lemke.hpp). The tableau is B^-1 [I  -M  -e | q] for the
// current basis B; its first n columns are B^-1 itself, which the lexicographic ratio test reads.
#include "core/impulse/lemke.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/LU>

namespace stepwise {
namespace {

class Tableau {
 public:
  Tableau(const Eigen::MatrixXd& M, const Eigen::VectorXd& q) : n_(int(q.size())) {
    T_.setZero(n_, 2 * n_ + 2);
    T_.leftCols(n_).setIdentity();
    T_.middleCols(n_, n_) = -M;
    T_.col(2 * n_).setConstant(-1.0);  // z0's column: the covering vector, negated
    T_.col(2 * n_ + 1) = q;
    basis_.resize(n_);
    for (int i = 0; i < n_; ++i) basis_[i] = i;  // w basic
  }
  int z0() const { return 2 * n_; }
  double rhs(int row) const { return T_(row, 2 * n_ + 1); }
  int basic(int row) const { return basis_[row]; }

  void pivot(int row, int column) {
    T_.row(row) /= T_(row, column);
    for (int i = 0; i < n_; ++i)
      if (i != row && T_(i, column) != 0) T_.row(i) -= T_(i, column) * T_.row(row);
    basis_[row] = column;
  }

  // The row whose basic variable leaves when `column` enters: the least ratio rhs / entry over
  // rows whose entry is positive, ties broken lexicographically by the rows of B^-1 (divided
  // by the entry); z0's row wins a tie, which ends the method. -1: none (a ray).
  int leaving(int column) const {
    const Eigen::VectorXd d = T_.col(column);
    const double tolerance = 1e-12 * std::max(1.0, d.cwiseAbs().maxCoeff());
    std::vector<int> ties;
    double least = INFINITY;
    for (int i = 0; i < n_; ++i) {
      if (!(d(i) > tolerance)) continue;
      const double ratio = rhs(i) / d(i);
      const double slack = 1e-12 * std::max(1.0, std::abs(ratio));
      if (ratio < least - slack) {
        least = ratio;
        ties.assign(1, i);
      } else if (ratio <= least + slack) {
        ties.push_back(i);
      }
    }
    if (ties.size() <= 1) return ties.empty() ? -1 : ties[0];
    for (int i : ties)
      if (basis_[i] == z0()) return i;
    for (int k = 0; k < n_ && ties.size() > 1; ++k) {
      double best = INFINITY;
      for (int i : ties) best = std::min(best, T_(i, k) / d(i));
      std::vector<int> kept;
      for (int i : ties)
        if (T_(i, k) / d(i) <= best + 1e-12 * std::max(1.0, std::abs(best))) kept.push_back(i);
      ties.swap(kept);
    }
    return ties[0];
  }

 private:
  int n_;
  // Row-major: a pivot is row operations.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> T_;
  std::vector<int> basis_;
};

// Checked, not trusted: an ill-conditioned basis can leave round-off as large as the answer,
// or an answer as large as 1/round-off (refused beyond 1e6 of the data's own scale, q / M).
bool satisfies(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z) {
  const double w_scale = std::max(q.cwiseAbs().maxCoeff(), 1e-300);
  const double z_scale = w_scale / std::max(M.diagonal().cwiseAbs().maxCoeff(), 1e-300);
  const Eigen::VectorXd w = M * z + q;
  const double z_max = z.cwiseAbs().maxCoeff();
  return w.allFinite() && z_max < 1e6 * z_scale && w.minCoeff() > -1e-9 * w_scale &&
         w.cwiseProduct(z).cwiseAbs().maxCoeff() < 1e-9 * w_scale * std::max(z_scale, z_max);
}

}  // namespace

bool solve_on_basis(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                    const std::vector<int>& basis, Eigen::VectorXd& z, double ridge) {
  const int n = int(q.size());
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    if (basis[i] < n)
      B(basis[i], i) = 1;
    else
      B.col(i) = -M.col(basis[i] - n);
  }
  Eigen::VectorXd x;
  if (ridge == 0) {
    x = B.partialPivLu().solve(q);
  } else {  // iterated Tikhonov: each pass shrinks the ridge's error by ridge / (lambda + ridge)
    Eigen::MatrixXd R = B;
    for (int i = 0; i < n; ++i)
      if (basis[i] >= n) R(basis[i] - n, i) -= ridge;
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(R);
    x = lu.solve(q);
    for (int pass = 0; pass < 4; ++pass) x += lu.solve(q - B * x);
  }
  Eigen::VectorXd candidate = Eigen::VectorXd::Zero(n);
  for (int i = 0; i < n; ++i)
    if (basis[i] >= n) candidate(basis[i] - n) = std::max(0.0, x(i));
  if (!x.allFinite() || !satisfies(M, q, candidate)) return false;
  z = candidate;
  return true;
}

LemkeResult lemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, Eigen::VectorXd& z,
                  int max_pivots) {
  const int n = int(q.size());
  LemkeResult out;
  z = Eigen::VectorXd::Zero(n);
  if (n == 0 || q.minCoeff() >= 0) {  // z = 0 solves it, with every w basic
    out.solved = true;
    for (int i = 0; i < n; ++i) out.basis.push_back(i);
    return out;
  }
  Tableau T(M, q);
  // z0 enters at the row of the most negative q, making every right-hand side non-negative. Of
  // tied rows the last: row i then becomes (0, e_i - e_row), lexicographically positive for
  // i < row, which the lexicographic rule needs from the start.
  int row = 0;
  for (int i = 1; i < n; ++i)
    if (q(i) <= q(row)) row = i;
  int entering = T.z0();
  while (out.pivots < max_pivots) {
    const int leaves = T.basic(row);
    T.pivot(row, entering);
    ++out.pivots;
    if (leaves == T.z0()) {
      out.solved = true;
      break;
    }
    entering = leaves < n ? leaves + n : leaves - n;  // the complement of what left
    row = T.leaving(entering);
    if (row < 0) return out;  // a secondary ray: no solution this way
  }
  if (!out.solved) return out;
  out.basis.resize(n);
  for (int i = 0; i < n; ++i) out.basis[i] = T.basic(i);
  for (int i = 0; i < n; ++i)
    if (T.basic(i) >= n) z(T.basic(i) - n) = std::max(0.0, T.rhs(i));
  out.solved = satisfies(M, q, z);
  return out;
}

}  // namespace stepwise
