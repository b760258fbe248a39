#include "core/contacts/neighbor_list.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/lanes.hpp"

namespace stepwise {

void NeighborList::displacements2(const Positions& x, int begin, int end, int block, double* out,
                                  const Vec3& drift) const {
  if (begin % block != 0 || block % 4 != 0)
    throw std::logic_error(
        "NeighborList::displacements2: begin must be a multiple of the run, the run of four");
  for (int start = begin; start < end; start += block) {
    const int stop = std::min(start + block, end);
    double most = 0;
    int i = start;
    if (stop - start >= 4) {  // four bodies: differences and squares as stored, then lanes
      using namespace lanes;
      D4 m = splat(0.0);
      const Stored c = repeat_xyz(drift.x(), drift.y(), drift.z());
      for (; i + 4 <= stop; i += 4) {
        const D4 d2 = squared_distances(x.data() + 3 * i, built_at_.data() + 3 * i, c);
        m = m < d2 ? d2 : m;
      }
      most = std::max(std::max(m[0], m[1]), std::max(m[2], m[3]));
    }
    for (; i < stop; ++i)
      most = std::max(most, ((x.col(i) - built_at_.col(i)) - drift).squaredNorm());
    out[start / block] = most;
  }
}

bool NeighborList::needs_rebuild(const Positions& x, Parallel* parallel) const {
  if (stale(int(x.cols()))) return true;
  double most[kMaxTasks] = {};
  for_each_range(parallel, int(x.cols()), [&](int task, int begin, int end) {
    for (int i = begin; i < end; ++i)
      most[task] = std::max(most[task], (x.col(i) - built_at_.col(i)).squaredNorm());
  });
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
  swept_ = broad_phase_ == BroadPhase::Sweep ||
           (broad_phase_ == BroadPhase::Auto && radius.maxCoeff() > 4 * radius.mean());
  if (swept_) {
    sweep_.pairs(x, radius, skin_, offsets_, neighbors_);
    return;
  }
  build_cells(x, radius, parallel);
}

namespace {
// floor(v) held to [0, count - 1], decided in double before any cast (a body flung to 1e300, or
// a NaN, must not make an out-of-range float-to-int conversion: it goes to an edge cell).
int cell_index_of(double v, int count) {
  return v >= count - 1 ? count - 1 : v >= 0 ? static_cast<int>(v) : 0;
}
}  // namespace

void NeighborList::build_cells(const Positions& x, const VecX& radius, Parallel* parallel) {
  const int n = static_cast<int>(x.cols());
  const double r_max = radius.maxCoeff();
  const double cell = 2 * r_max + skin_;
  const Vec3 lo = x.rowwise().minCoeff(), hi = x.rowwise().maxCoeff();
  // Cells at least `cell` wide, so the 27 around a body hold every partner within reach.
  Vec3 extent;
  Eigen::Vector3i dims;
  for (int k = 0; k < 3; ++k) {
    extent(k) = std::max(hi(k) - lo(k), 1e-9 * cell);
    dims(k) = std::max(cell_index_of(extent(k) / cell, (1 << 10) + 1), 1);
  }
  // Keep the grid from exceeding the body count by much (sparse scenes); cells only grow.
  while (static_cast<long>(dims.prod()) > 8L * n + 64) dims = (dims.array() + 1) / 2;
  auto cell_of = [&](int i, int k) {
    return cell_index_of((x(k, i) - lo(k)) / extent(k) * dims(k), dims(k));
  };
  // Bodies sorted by cell (ascending within a cell), with their positions and radii alongside,
  // so each cell's bodies are read as one contiguous run.
  const int cells = dims.prod();
  cell_start_.assign(cells + 1, 0);
  std::vector<int> cell_index(n);
  for (int i = 0; i < n; ++i) {
    cell_index[i] = (cell_of(i, 2) * dims(1) + cell_of(i, 1)) * dims(0) + cell_of(i, 0);
    ++cell_start_[cell_index[i] + 1];
  }
  for (int c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
  cell_body_.resize(n);
  cell_xr_.resize(4 * size_t(n));
  {
    std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (int i = 0; i < n; ++i) {
      const int m = fill[cell_index[i]]++;
      cell_body_[m] = i;
      for (int k = 0; k < 3; ++k) cell_xr_[4 * size_t(m) + k] = x(k, i);
      cell_xr_[4 * size_t(m) + 3] = radius(i);
    }
  }
  // Each task lists its own bodies' partners; the lists are joined in task order.
  const int tasks = range_count(parallel, n);
  found_.resize(tasks);
  std::vector<std::uint8_t> too_many(tasks, 0);
  for_each_range(parallel, n, [&](int task, int begin, int end) {
    std::vector<int>& out = found_[task];
    out.clear();
    const size_t most = size_t(max_pairs(end - begin));
    // Locals, so the loop does not reload them after every push_back.
    const int* start = cell_start_.data();
    const int* body = cell_body_.data();
    const double* xr = cell_xr_.data();
    const double skin = skin_;
    for (int i = begin; i < end; ++i) {
      const size_t first = out.size();
      const int cx = cell_of(i, 0), cy = cell_of(i, 1), cz = cell_of(i, 2);
      const double xi = x(0, i), yi = x(1, i), zi = x(2, i), ri = radius(i);
      // The nine runs of cells around body i (the three cells along x are adjacent in the sorted
      // order), then room for all their bodies, so each is written and kept or not without a
      // branch on the distance test (an unpredictable one).
      int runs[9][2], count = 0, room = 0;
      for (int dz = -1; dz <= 1; ++dz) {
        const int z = cz + dz;
        if (z < 0 || z >= dims(2)) continue;
        for (int dy = -1; dy <= 1; ++dy) {
          const int y = cy + dy;
          if (y < 0 || y >= dims(1)) continue;
          const int row = (z * dims(1) + y) * dims(0);
          runs[count][0] = start[row + std::max(cx - 1, 0)];
          runs[count][1] = start[row + std::min(cx + 1, dims(0) - 1) + 1];
          room += runs[count][1] - runs[count][0];
          ++count;
        }
      }
      out.resize(first + room);
      int* kept = out.data() + first;
      int found = 0;
      for (int r = 0; r < count; ++r)
        for (int m = runs[r][0]; m < runs[r][1]; ++m) {
          const int j = body[m];
          const double* p = xr + 4 * size_t(m);
          const double dx = xi - p[0], dy2 = yi - p[1], dz2 = zi - p[2];
          const double reach = ri + p[3] + skin;
          kept[found] = j;
          found += (j > i) & (dx * dx + dy2 * dy2 + dz2 * dz2 < reach * reach);
        }
      out.resize(first + found);
      std::sort(out.begin() + first, out.end());
      offsets_[i + 1] = found;  // a count until the sum below
      if (out.size() > most) {
        too_many[task] = 1;
        return;
      }
    }
  });
  for (std::uint8_t t : too_many)
    if (t) refuse_pairs(n);
  for (int i = 0; i < n; ++i) offsets_[i + 1] += offsets_[i];
  neighbors_.resize(offsets_[n]);
  for_each_range(parallel, n, [&](int task, int begin, int) {
    std::copy(found_[task].begin(), found_[task].end(), neighbors_.begin() + offsets_[begin]);
  });
}

void NeighborList::refuse_pairs(long n) {
  throw InputError("contacts: more than " + std::to_string(max_pairs(n)) + " pairs of " +
                   std::to_string(n) +
                   " bodies within reach of each other (1,000 a body, plus a "
                   "million): the bodies overlap far beyond any contact; spread them out");
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
