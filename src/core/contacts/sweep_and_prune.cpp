#include "core/contacts/sweep_and_prune.hpp"

#include <algorithm>
#include <cmath>

#include "core/contacts/neighbor_list.hpp"

namespace stepwise {

void SweepAndPrune::pairs(const Positions& x, const VecX& radius, double margin,
                          std::vector<int>& offsets, std::vector<int>& neighbors) {
  const int n = static_cast<int>(x.cols());
  // Each body's box grows by half the margin on every side: boxes overlap when the bodies are
  // within r_i + r_j + margin along every axis.
  low_.resize(n);
  high_.resize(n);
  // (Widened by a few roundings, so the distance test below, the same as the cells', decides.)
  for (int i = 0; i < n; ++i) {
    const double reach = radius(i) + 0.5 * margin;
    const double pad = 1e-15 * (std::abs(x(0, i)) + reach);
    low_[i] = x(0, i) - reach - pad;
    high_[i] = x(0, i) + reach + pad;
  }
  if (int(order_.size()) != n) {
    order_.resize(n);
    for (int i = 0; i < n; ++i) order_[i] = i;
    std::sort(order_.begin(), order_.end(), [&](int a, int b) { return low_[a] < low_[b]; });
  }
  // Insertion sort: nearly sorted after a small step, so nearly linear.
  for (int k = 1; k < n; ++k) {
    const int body = order_[k];
    const double key = low_[body];
    int m = k;
    for (; m > 0 && low_[order_[m - 1]] > key; --m) order_[m] = order_[m - 1];
    order_[m] = body;
  }
  found_.clear();
  for (int k = 0; k < n; ++k) {
    const int i = order_[k];
    const double end = high_[i], ri = radius(i);
    for (int m = k + 1; m < n && low_[order_[m]] < end; ++m) {
      const int j = order_[m];
      const double reach = ri + radius(j) + margin;
      const double dy = x(1, i) - x(1, j), dz = x(2, i) - x(2, j);
      if (std::abs(dy) >= reach || std::abs(dz) >= reach) continue;  // the y and z boxes
      const double dx = x(0, i) - x(0, j);
      if (dx * dx + dy * dy + dz * dz < reach * reach)
        found_.emplace_back(std::min(i, j), std::max(i, j));
    }
    if (long(found_.size()) > NeighborList::max_pairs(n)) NeighborList::refuse_pairs(n);
  }
  // Into CSR by counting (each body's partners land in its own range), then each body's few
  // partners sorted: linear, where sorting all the pairs took a tenth of a pile's broad phase.
  offsets.assign(n + 1, 0);
  for (const auto& [i, j] : found_) ++offsets[i + 1];
  for (int i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  cursor_.assign(offsets.begin(), offsets.end() - 1);
  neighbors.resize(found_.size());
  for (const auto& [i, j] : found_) neighbors[cursor_[i]++] = j;
  for (int i = 0; i < n; ++i)
    std::sort(neighbors.begin() + offsets[i], neighbors.begin() + offsets[i + 1]);
}

}  // namespace stepwise
