#include "core/integrators/newton.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {

void NewtonMatrix::build(SparseMatrix J, const VecX& inv_mass, bool lu_only) {
  const Eigen::Index dofs = J.rows();
  auto is_free = [&](Eigen::Index dof) { return inv_mass(dof / 3) > 0; };
  J.prune([&](Eigen::Index row, Eigen::Index col, double) { return is_free(row) && is_free(col); });
  for (Eigen::Index j = 0; j < dofs; ++j)
    if (!is_free(j)) J.coeffRef(j, j) = 1.0;
  J.makeCompressed();
  // Each row's off-diagonal sum against its diagonal: below 1 in every row, Jacobi's sweeps
  // contract the error at least by that ratio (in the largest component); below kDominant they
  // reach round-off in a few dozen sweeps at most, and in a packing's few.
  Eigen::VectorXd off = Eigen::VectorXd::Zero(dofs), diag = Eigen::VectorXd::Zero(dofs);
  for (Eigen::Index col = 0; col < dofs; ++col)
    for (SparseMatrix::InnerIterator it(J, col); it; ++it)
      if (it.row() == col)
        diag(col) = it.value();
      else
        off(it.row()) += std::abs(it.value());
  bool dominant = !lu_only;
  for (Eigen::Index j = 0; j < dofs && dominant; ++j)
    dominant = diag(j) != 0 && off(j) <= kDominant * std::abs(diag(j));
  iterative_ = dominant;
  if (iterative_) {
    inv_diag_ = diag.cwiseInverse();
    J_ = std::move(J);
  } else {
    lu_.compute(J);
    if (lu_.info() != Eigen::Success)
      throw InputError("implicit integrator: the Newton matrix is singular");
  }
  inv_mass_ = inv_mass;
  built_ = true;
  uses_ = 0;  // the update from here is a Newton step
  ++builds_;
  iterated_ += iterative_;
}

// Jacobi's iteration on J delta = rhs from delta = D^-1 rhs, until a sweep changes no component
// by more than 1e-15 of the largest (the error left is then at most as large: the sweeps contract
// it by at least kDominant), or 200 sweeps (a ratio of 0.5 needs about 50).
Eigen::VectorXd NewtonMatrix::jacobi(const Eigen::VectorXd& rhs) const {
  Eigen::VectorXd delta = inv_diag_.cwiseProduct(rhs), next;
  for (int sweep = 0; sweep < 200; ++sweep) {
    // D^-1 (rhs - (J - D) delta), written with J itself.
    next = delta + inv_diag_.cwiseProduct(rhs - J_ * delta);
    const double change = (next - delta).lpNorm<Eigen::Infinity>();
    delta.swap(next);
    if (!(change > 1e-15 * delta.lpNorm<Eigen::Infinity>())) break;
  }
  return delta;
}

Eigen::VectorXd NewtonMatrix::update(const Eigen::VectorXd& r, double residual) {
  Eigen::VectorXd rhs = -r;
  for (Eigen::Index j = 0; j < rhs.size(); ++j)
    if (!(inv_mass_(j / 3) > 0)) rhs(j) = 0.0;
  last_residual_ = residual;
  ++uses_;
  return iterative_ ? jacobi(rhs) : lu_.solve(rhs);
}

}  // namespace stepwise
