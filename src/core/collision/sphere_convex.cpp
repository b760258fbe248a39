// A sphere against a box or convex polyhedron: the point of the hull nearest the sphere's centre
// (on a face, an edge or at a corner, whose id is the feature); a centre inside the hull is
// pushed out through the face it is nearest.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/collision/collision.hpp"
#include "core/shapes/convex_hull.hpp"

namespace stepwise {
namespace {

// The point of segment [p, q] nearest c, and where on it (0 at p, 1 at q).
Vec3 nearest_on_segment(const Vec3& p, const Vec3& q, const Vec3& c, double& t) {
  const Vec3 d = q - p;
  t = std::clamp(d.dot(c - p) / d.squaredNorm(), 0.0, 1.0);
  return p + t * d;
}

void sphere_convex(const Placement& a, const Placement& b, PairCache&, Contacts& out) {
  const ConvexHull& hull = *b.shape.hull();
  const double r = a.shape.bounding_radius();
  const Vec3 c = b.R.transpose() * (a.x - b.x);  // the centre in b's frame
  int deepest = 0;
  double most = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < int(hull.faces.size()); ++f) {
    const double s = hull.faces[f].normal.dot(c) - hull.faces[f].offset;
    if (s > most) most = s, deepest = f;
  }
  if (most >= r) return;  // the hull lies beyond a face plane farther than r
  if (most <= 0) {        // inside: out through the nearest face
    const Vec3 n = b.R * hull.faces[deepest].normal;
    out.push_back({a.x - 0.5 * (r + most) * n, n, r - most, std::uint64_t(deepest)});
    return;
  }
  // Outside: the nearest point lies on a face whose plane the centre is in front of.
  double best = std::numeric_limits<double>::infinity();
  Vec3 nearest = Vec3::Zero();
  std::uint64_t feature = 0;
  for (int f = 0; f < int(hull.faces.size()); ++f) {
    const ConvexHull::Face& face = hull.faces[f];
    const double s = face.normal.dot(c) - face.offset;
    if (s <= 0) continue;
    const Vec3 p = c - s * face.normal;
    bool inside = true;
    const int corners = int(face.corners.size());
    for (int k = 0; k < corners && inside; ++k) {
      const Vec3& u = hull.vertices[face.corners[k]];
      const Vec3& v = hull.vertices[face.corners[(k + 1) % corners]];
      inside = (v - u).cross(p - u).dot(face.normal) >= 0;
    }
    if (inside) {
      if (s < best) best = s, nearest = p, feature = std::uint64_t(f);
      continue;
    }
    for (int k = 0; k < corners; ++k) {
      const int i = face.corners[k], j = face.corners[(k + 1) % corners];
      double t;
      const Vec3 q = nearest_on_segment(hull.vertices[i], hull.vertices[j], c, t);
      const double d = (c - q).norm();
      if (d < best) {
        best = d, nearest = q;
        // A corner if the nearest point is an end, else the edge (its two corners).
        feature = t == 0   ? 0x10000 + std::uint64_t(i)
                  : t == 1 ? 0x10000 + std::uint64_t(j)
                           : 0x20000 + std::uint64_t(std::min(i, j)) * 256 + std::max(i, j);
      }
    }
  }
  if (best >= r || best == 0) return;
  const Vec3 n = b.R * ((c - nearest) / best);
  const Vec3 on_hull = b.x + b.R * nearest;
  out.push_back({0.5 * ((a.x - r * n) + on_hull), n, r - best, feature});
}

}  // namespace
STEPWISE_REGISTER_COLLISION("sphere", "box", sphere_convex);
STEPWISE_REGISTER_COLLISION("sphere", "polyhedron", sphere_convex);
}  // namespace stepwise
