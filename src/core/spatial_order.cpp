#include "core/spatial_order.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace stepwise {
namespace {

// The bits of a 21-bit cell index spread to every third bit of 63.
std::uint64_t spread(std::uint64_t a) {
  a &= 0x1fffff;
  a = (a | a << 32) & 0x1f00000000ffff;
  a = (a | a << 16) & 0x1f0000ff0000ff;
  a = (a | a << 8) & 0x100f00f00f00f00f;
  a = (a | a << 4) & 0x10c30c30c30c30c3;
  a = (a | a << 2) & 0x1249249249249249;
  return a;
}

}  // namespace

std::vector<int> spatial_order(const World& world) {
  const int n = world.size();
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  if (n == 0) return order;
  const Vec3 low = world.x.rowwise().minCoeff(), high = world.x.rowwise().maxCoeff();
  // Cells of the largest body's diameter (a contact's partner is in the next cell at most),
  // coarser where the box would need more than 2^21 of them along an axis.
  const double most = 2 * world.radius.maxCoeff();
  const double span = (high - low).maxCoeff();
  const double cell = std::max({most, span / double((1 << 21) - 1), 1e-300});
  std::vector<std::uint64_t> key(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    std::uint64_t code = 0;
    for (int a = 0; a < 3; ++a) {
      const double c = std::min((world.x(a, i) - low(a)) / cell, double((1 << 21) - 1));
      code |= spread(static_cast<std::uint64_t>(std::max(c, 0.0))) << a;
    }
    key[size_t(i)] = code;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return key[size_t(a)] < key[size_t(b)]; });
  return order;
}

bool order_spatially(World& world) {
  if (world.size() < kSpatialOrderMinBodies ||
      std::any_of(world.forces.begin(), world.forces.end(),
                  [](const auto& f) { return f->names_bodies(); }))
    return false;
  world.reorder(spatial_order(world));
  return true;
}

}  // namespace stepwise
