#include "core/difference_jacobian.hpp"

#include <algorithm>
#include <cmath>

#include "core/world.hpp"

namespace stepwise {

DifferenceGroups difference_groups(const VecX& inv_mass,
                                   const std::vector<std::pair<int, int>>* pairs) {
  const int n = static_cast<int>(inv_mass.size());
  DifferenceGroups out;
  if (!pairs) {
    for (int b = 0; b < n; ++b)
      if (inv_mass(b) > 0) out.groups.push_back({b});
    return out;
  }
  out.all_rows = false;
  out.rows.assign(n, {});
  for (int b = 0; b < n; ++b) out.rows[b].push_back(b);
  for (const auto& [i, j] : *pairs)
    if (i != j) out.rows[i].push_back(j), out.rows[j].push_back(i);
  for (auto& r : out.rows)
    std::sort(r.begin() + 1, r.end()), r.erase(std::unique(r.begin() + 1, r.end()), r.end());
  // Greedy: the lowest group no body within two pairs of b is in yet.
  std::vector<int> group(n, -1), seen;  // seen[g] == b: group g is taken near b
  for (int b = 0; b < n; ++b) {
    if (!(inv_mass(b) > 0)) continue;
    for (int a : out.rows[b])
      for (int c : out.rows[a])
        if (group[c] >= 0) seen[group[c]] = b;
    int g = 0;
    while (g < static_cast<int>(seen.size()) && seen[g] == b) ++g;
    if (g == static_cast<int>(seen.size())) seen.push_back(-1), out.groups.emplace_back();
    group[b] = g;
    out.groups[g].push_back(b);
  }
  return out;
}

void difference_jacobian(ForceModel& model, const World& world, const Positions& x,
                         const Positions& v, const EvalContext& ctx, unsigned tracked,
                         const DifferenceGroups& groups, Triplets& dfdx, Triplets& dfdv) {
  const int n = world.size();
  ForceSums plus, minus;
  plus.tracked = minus.tracked = tracked;  // models write the arrays they track
  Positions xp = x, vp = v;
  std::vector<double> step;
  for (int side = 0; side < 2; ++side) {
    Positions& target = side == 0 ? xp : vp;
    const Positions& origin = side == 0 ? x : v;
    Triplets& out = side == 0 ? dfdx : dfdv;
    for (const std::vector<int>& group : groups.groups)
      for (int axis = 0; axis < 3; ++axis) {
        step.resize(group.size());
        for (size_t k = 0; k < group.size(); ++k)
          step[k] = ForceModel::kDifferenceStep * std::max(1.0, std::abs(target(axis, group[k])));
        auto evaluate = [&](ForceSums& sums, double sign) {
          for (size_t k = 0; k < group.size(); ++k) {
            const int b = group[k];
            target(axis, b) = origin(axis, b) + sign * step[k];
          }
          sums.reset(n);
          model.apply(StateView{world, xp, vp, world.w}, sums, ctx);
        };
        evaluate(plus, 1);
        evaluate(minus, -1);
        for (size_t k = 0; k < group.size(); ++k) {
          const int b = group[k], column = 3 * b + axis;
          target(axis, b) = origin(axis, b);
          auto add_rows = [&](int body) {
            for (int r = 0; r < 3; ++r) {
              const double d = (plus.force(r, body) - minus.force(r, body)) / (2 * step[k]);
              if (d != 0) out.emplace_back(3 * body + r, column, d);
            }
          };
          if (groups.all_rows)
            for (int body = 0; body < n; ++body) add_rows(body);
          else
            for (int body : groups.rows[b]) add_rows(body);
        }
      }
  }
}

}  // namespace stepwise
