#include "core/contacts/neighbor_list.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {

double NeighborList::displacement2(const Positions& x, int begin, int end) const {
  double most = 0;
  for (int i = begin; i < end; ++i)
    most = std::max(most, (x.col(i) - built_at_.col(i)).squaredNorm());
  return most;
}

bool NeighborList::needs_rebuild(const Positions& x, Parallel* parallel) const {
  if (stale(int(x.cols()))) return true;
  double most[kMaxTasks] = {};
  for_each_range(parallel, int(x.cols()),
                 [&](int task, int begin, int end) { most[task] = displacement2(x, begin, end); });
  return *std::max_element(most, most + range_count(parallel, int(x.cols()))) > rebuild_at();
}

bool NeighborList::update(const Positions& x, const VecX& radius, Parallel* parallel) {
  if (!needs_rebuild(x, parallel)) return false;
  build(x, radius, parallel);
  return true;
}

void NeighborList::build(const Positions& x, const VecX& radius, Parallel* parallel) {
  const int n = static_cast<int>(x.cols());
  built_at_ = x;
  force_rebuild_ = false;
  ++builds_;
  offsets_.assign(n + 1, 0);
  neighbors_.clear();
  if (n == 0) return;
  const double r_max = radius.maxCoeff();
  const double cell = 2 * r_max + skin_;
  const Vec3 lo = x.rowwise().minCoeff(), hi = x.rowwise().maxCoeff();
  // Cells at least `cell` wide, so the 27 around a body hold every partner within reach.
  Vec3 extent;
  Eigen::Vector3i dims;
  for (int k = 0; k < 3; ++k) {
    extent(k) = std::max(hi(k) - lo(k), 1e-9 * cell);
    dims(k) = std::clamp(static_cast<int>(extent(k) / cell), 1, 1 << 10);
  }
  // Keep the grid from exceeding the body count by much (sparse scenes); cells only grow.
  while (static_cast<long>(dims.prod()) > 8L * n + 64) dims = (dims.array() + 1) / 2;
  auto cell_of = [&](int i, int k) {
    return std::clamp(static_cast<int>((x(k, i) - lo(k)) / extent(k) * dims(k)), 0, dims(k) - 1);
  };
  cell_head_.assign(dims.prod(), -1);
  cell_next_.assign(n, -1);
  std::vector<int> cell_index(n);
  // Insert in descending order so each cell's chain lists bodies in ascending order.
  for (int i = n - 1; i >= 0; --i) {
    const int c = (cell_of(i, 2) * dims(1) + cell_of(i, 1)) * dims(0) + cell_of(i, 0);
    cell_index[i] = c;
    cell_next_[i] = cell_head_[c];
    cell_head_[c] = i;
  }
  // Each task lists its own bodies' partners; the lists are joined in task order.
  const int tasks = range_count(parallel, n);
  found_.resize(tasks);
  for_each_range(parallel, n, [&](int task, int begin, int end) {
    std::vector<int>& out = found_[task];
    out.clear();
    for (int i = begin; i < end; ++i) {
      const size_t first = out.size();
      const int cx = cell_of(i, 0), cy = cell_of(i, 1), cz = cell_of(i, 2);
      for (int dz = -1; dz <= 1; ++dz) {
        const int z = cz + dz;
        if (z < 0 || z >= dims(2)) continue;
        for (int dy = -1; dy <= 1; ++dy) {
          const int y = cy + dy;
          if (y < 0 || y >= dims(1)) continue;
          for (int dx = -1; dx <= 1; ++dx) {
            const int xx = cx + dx;
            if (xx < 0 || xx >= dims(0)) continue;
            for (int j = cell_head_[(z * dims(1) + y) * dims(0) + xx]; j >= 0; j = cell_next_[j]) {
              if (j <= i) continue;
              const double reach = radius(i) + radius(j) + skin_;
              if ((x.col(i) - x.col(j)).squaredNorm() < reach * reach) out.push_back(j);
            }
          }
        }
      }
      std::sort(out.begin() + first, out.end());
      offsets_[i + 1] = static_cast<int>(out.size() - first);  // a count until the sum below
    }
  });
  for (int i = 0; i < n; ++i) offsets_[i + 1] += offsets_[i];
  neighbors_.resize(offsets_[n]);
  for_each_range(parallel, n, [&](int task, int begin, int) {
    std::copy(found_[task].begin(), found_[task].end(), neighbors_.begin() + offsets_[begin]);
  });
}

std::vector<std::pair<int, int>> NeighborList::brute_force(const Positions& x, const VecX& radius,
                                                           double margin) {
  std::vector<std::pair<int, int>> pairs;
  for (Eigen::Index i = 0; i < x.cols(); ++i)
    for (Eigen::Index j = i + 1; j < x.cols(); ++j) {
      const double reach = radius(i) + radius(j) + margin;
      if ((x.col(i) - x.col(j)).squaredNorm() < reach * reach) pairs.emplace_back(i, j);
    }
  return pairs;
}

}  // namespace stepwise
