#include "core/integrators/newton.hpp"

namespace stepwise {

void NewtonMatrix::build(SparseMatrix J, const VecX& inv_mass) {
  const Eigen::Index dofs = J.rows();
  auto is_free = [&](Eigen::Index dof) { return inv_mass(dof / 3) > 0; };
  J.prune([&](Eigen::Index row, Eigen::Index col, double) { return is_free(row) && is_free(col); });
  for (Eigen::Index j = 0; j < dofs; ++j)
    if (!is_free(j)) J.coeffRef(j, j) = 1.0;
  J.makeCompressed();
  lu_.compute(J);
  if (lu_.info() != Eigen::Success)
    throw InputError("implicit integrator: the Newton matrix is singular");
  inv_mass_ = inv_mass;
  built_ = true;
  uses_ = 0;  // the update from here is a Newton step
  ++builds_;
}

Eigen::VectorXd NewtonMatrix::update(const Eigen::VectorXd& r, double residual) {
  Eigen::VectorXd rhs = -r;
  for (Eigen::Index j = 0; j < rhs.size(); ++j)
    if (!(inv_mass_(j / 3) > 0)) rhs(j) = 0.0;
  last_residual_ = residual;
  ++uses_;
  return lu_.solve(rhs);
}

}  // namespace stepwise
