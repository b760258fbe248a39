#include "core/integrators/newton.hpp"

#include <Eigen/SparseLU>

namespace stepwise {

Eigen::VectorXd newton_update(SparseMatrix J, const Eigen::VectorXd& r, const VecX& inv_mass) {
  const Eigen::Index dofs = r.size();
  auto is_free = [&](Eigen::Index dof) { return inv_mass(dof / 3) > 0; };
  J.prune([&](Eigen::Index row, Eigen::Index col, double) { return is_free(row) && is_free(col); });
  Eigen::VectorXd rhs = -r;
  for (Eigen::Index j = 0; j < dofs; ++j)
    if (!is_free(j)) {
      J.coeffRef(j, j) = 1.0;
      rhs(j) = 0.0;
    }
  J.makeCompressed();
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> solver;
  solver.compute(J);
  if (solver.info() != Eigen::Success)
    throw InputError("implicit integrator: the Newton matrix is singular");
  return solver.solve(rhs);
}

}  // namespace stepwise
