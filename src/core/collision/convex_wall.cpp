// A box or convex polyhedron against a wall: every corner below the plane is a contact point
// (its feature the corner's index), at most four kept: a box resting on a face has its four.
#include "core/collision/collision.hpp"
#include "core/shapes/convex_hull.hpp"

namespace stepwise {
namespace {

void convex_wall(const Placement& a, const Placement& wall, PairCache&, Contacts& out) {
  const ConvexHull& hull = *a.shape.hull();
  const Vec3 n = wall.R.col(2);
  // Screen by the support point first: most bodies near a wall are not touching it.
  const double offset = n.dot(wall.x);
  const Vec3 lowest = a.x + a.R * a.shape.support(-(a.R.transpose() * n));
  if (n.dot(lowest) >= offset) return;
  const size_t first = out.size();
  for (size_t k = 0; k < hull.vertices.size(); ++k) {
    const Vec3 p = a.x + a.R * hull.vertices[k];
    const double gap = n.dot(p) - offset;
    if (gap < 0) out.push_back({p - 0.5 * gap * n, n, -gap, std::uint64_t(k)});
  }
  reduce_manifold(out, first);
}

}  // namespace
STEPWISE_REGISTER_COLLISION("box", "wall", convex_wall);
STEPWISE_REGISTER_COLLISION("polyhedron", "wall", convex_wall);
}  // namespace stepwise
