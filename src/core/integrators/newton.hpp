#pragma once
// Newton-Raphson pieces shared by the implicit integrators: the linear solve restricted to the
// bodies that move freely (fixed, driven and pivoted bodies keep their prescribed motion).
#include <Eigen/SparseCore>

#include "core/integrator.hpp"

namespace stepwise {

// Solves J delta = -r on the free dofs (inv_mass > 0); other dofs get delta = 0.
// Throws InputError if J is singular.
Eigen::VectorXd newton_update(SparseMatrix J, const Eigen::VectorXd& r, const VecX& inv_mass);

inline Eigen::Map<Eigen::VectorXd> flat(Positions& p) {
  return Eigen::Map<Eigen::VectorXd>(p.data(), p.size());
}
inline Eigen::Map<const Eigen::VectorXd> flat(const Positions& p) {
  return Eigen::Map<const Eigen::VectorXd>(p.data(), p.size());
}

struct NewtonSettings {
  double tolerance = 1e-10;  // on |r| relative to max(1, |M a|)
  int max_iterations = 20;
};

}  // namespace stepwise
