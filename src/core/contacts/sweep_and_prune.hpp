#pragma once
// Sweep and prune (seed 004's broad phase): bounding boxes sorted by their low x bound; a sweep
// along x pairs each box with the ones that start before it ends, and y, z and the distance
// prune them. The order is kept from one build to the next and re-sorted by insertion, which
// costs little when bodies moved little. Unlike linked cells it does not care how sizes differ:
// one boulder among grains costs what its own neighbours cost.
#include <vector>

#include "core/types.hpp"

namespace stepwise {

class SweepAndPrune {
 public:
  // Every pair i < j with |x_i - x_j| < r_i + r_j + margin, as a half list in CSR form (for each
  // i its partners j > i, ascending): offsets of size n + 1, neighbours.
  void pairs(const Positions& x, const VecX& radius, double margin, std::vector<int>& offsets,
             std::vector<int>& neighbors);

 private:
  std::vector<int> order_;  // bodies by low x bound, kept between builds
  std::vector<double> low_, high_;
  std::vector<std::pair<int, int>> found_;
  std::vector<int> cursor_;
};

}  // namespace stepwise
