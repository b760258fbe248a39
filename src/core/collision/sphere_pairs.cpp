// Sphere against sphere and against a wall: one point on the line of centres (or the wall's
// normal), midway between the surfaces.
#include "core/collision/collision.hpp"

namespace stepwise {
namespace {

void sphere_sphere(const Placement& a, const Placement& b, PairCache&, Contacts& out) {
  const double ra = a.shape.bounding_radius(), rb = b.shape.bounding_radius();
  const Vec3 d = a.x - b.x;
  const double r2 = d.squaredNorm(), reach = ra + rb;
  if (r2 >= reach * reach || r2 == 0) return;  // concentric: no direction to push
  const double r = std::sqrt(r2);
  const Vec3 n = d / r;
  const double depth = reach - r;
  out.push_back({0.5 * ((a.x - ra * n) + (b.x + rb * n)), n, depth, 0});
}

void sphere_wall(const Placement& a, const Placement& wall, PairCache&, Contacts& out) {
  const Vec3 n = wall.R.col(2);
  const double r = a.shape.bounding_radius();
  const double gap = n.dot(a.x - wall.x) - r;
  if (gap >= 0) return;
  out.push_back({a.x - (r + 0.5 * gap) * n, n, -gap, 0});
}

}  // namespace
STEPWISE_REGISTER_COLLISION("sphere", "sphere", sphere_sphere);
STEPWISE_REGISTER_COLLISION("sphere", "wall", sphere_wall);
}  // namespace stepwise
