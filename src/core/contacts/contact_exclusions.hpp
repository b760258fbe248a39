#pragma once
// Body pairs a contact model never touches, as LAMMPS's `neigh_modify exclude` or its special
// bonds: bonded neighbours that sit face to face, which the bond already holds. Scene key
// `exclude = [i1, j1, i2, j2, ...]`. Applied when the neighbour list is built, so it costs nothing
// per step.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/contacts/neighbor_list.hpp"
#include "core/params.hpp"

namespace stepwise {

class ContactExclusions {
 public:
  ContactExclusions() = default;
  explicit ContactExclusions(const ParamTable& p) {
    const std::vector<double> ids = p.numbers("exclude", {});
    if (ids.size() % 2)
      throw InputError(p.where() + ": 'exclude' lists body pairs: an even count of ids");
    for (size_t k = 0; k < ids.size(); k += 2) {
      for (double v : {ids[k], ids[k + 1]})
        if (!(v >= 0 && v < 2e9 && v == std::floor(v)))
          throw InputError(p.where() + ": 'exclude' holds body ids (whole numbers from 0)");
      const int i = int(ids[k]), j = int(ids[k + 1]);
      pairs_.push_back({std::min(i, j), std::max(i, j)});
    }
    std::sort(pairs_.begin(), pairs_.end());
    pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
  }
  bool empty() const { return pairs_.empty(); }
  bool excluded(int i, int j) const {
    return !pairs_.empty() && std::binary_search(pairs_.begin(), pairs_.end(),
                                                 std::pair{std::min(i, j), std::max(i, j)});
  }
  // Marks the excluded pairs of a freshly built (half, sorted) list as never touching.
  void mask(const NeighborList& list, std::vector<double>& gaps) const {
    const auto& offsets = list.offsets();
    const auto& neighbors = list.neighbors();
    for (const auto& [i, j] : pairs_) {
      if (i >= list.size()) continue;
      const auto begin = neighbors.begin() + offsets[i], end = neighbors.begin() + offsets[i + 1];
      const auto found = std::lower_bound(begin, end, j);
      if (found != end && *found == j)
        gaps[found - neighbors.begin()] = std::numeric_limits<double>::infinity();
    }
  }
  void save(ParamTable& out) const {
    if (pairs_.empty()) return;
    std::vector<double> ids;
    for (const auto& [i, j] : pairs_) ids.insert(ids.end(), {double(i), double(j)});
    out.set("exclude", ids);
  }

 private:
  std::vector<std::pair<int, int>> pairs_;  // (i < j), sorted
};

}  // namespace stepwise
