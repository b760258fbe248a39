#pragma once
// A force model's Jacobian by central differences, for the implicit integrators. Where the model
// names the pairs of bodies that act on each other (ForceModel::coupled_pairs), bodies that share
// no pair and no partner are perturbed together (Curtis, Powell & Reid 1974): each row then sees
// at most one of them, so one evaluation gives a column for each. A packing's contacts need a few
// dozen such groups, not a group per body: the work grows as n instead of n^2.
#include <utility>
#include <vector>

#include "core/force_model.hpp"

namespace stepwise {

// Groups of the bodies that move (inv_mass > 0) in which no two bodies are paired or share a
// partner (a distance-2 colouring, greedy in body order). Without pairs (nullptr): every body
// its own group, every row read.
struct DifferenceGroups {
  std::vector<std::vector<int>> groups;
  // For each body, the bodies whose loads its state may change (itself first), when paired.
  std::vector<std::vector<int>> rows;
  bool all_rows = true;
};
DifferenceGroups difference_groups(const VecX& inv_mass,
                                   const std::vector<std::pair<int, int>>* pairs);

// dF/dx and dF/dv of `model` at (x, v) as triplets over 3n dofs, by central differences with
// h = ForceModel::kDifferenceStep max(1, |coordinate|), one evaluation pair per group and axis
// and side.
void difference_jacobian(ForceModel& model, const World& world, const Positions& x,
                         const Positions& v, const EvalContext& ctx, unsigned tracked,
                         const DifferenceGroups& groups, Triplets& dfdx, Triplets& dfdv);

}  // namespace stepwise
