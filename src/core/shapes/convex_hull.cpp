#include "core/shapes/convex_hull.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/limits.hpp"

namespace stepwise {
namespace {

// Volume, centroid and inertia of the solid, summed over tetrahedra from a point inside to each
// face's fan of triangles: for the tetrahedron (0, a, b, c), with D = det[a b c],
// volume D/6, first moment D/24 (a + b + c), and the integral of r r^T
// D/120 (a a^T + b b^T + c c^T + s s^T) with s = a + b + c.
void mass_properties(ConvexHull& hull) {
  Vec3 inside = Vec3::Zero();
  for (const Vec3& v : hull.vertices) inside += v;
  inside /= double(hull.vertices.size());
  double volume = 0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const ConvexHull::Face& f : hull.faces) {
    const Vec3 a = hull.vertices[f.corners[0]] - inside;
    for (size_t k = 1; k + 1 < f.corners.size(); ++k) {
      const Vec3 b = hull.vertices[f.corners[k]] - inside;
      const Vec3 c = hull.vertices[f.corners[k + 1]] - inside;
      const double det = a.dot(b.cross(c));
      const Vec3 s = a + b + c;
      volume += det / 6;
      first += det / 24 * s;
      second += det / 120 *
                (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
  }
  const Vec3 offset = first / volume;  // centroid relative to `inside`
  second -= volume * offset * offset.transpose();
  hull.volume = volume;
  hull.centroid = inside + offset;
  hull.inertia = second.trace() * Mat3::Identity() - second;
}

void add_edges(ConvexHull& hull) {
  hull.edges.clear();
  hull.directions.clear();
  for (const ConvexHull::Face& f : hull.faces)
    for (size_t k = 0; k < f.corners.size(); ++k) {
      const int a = f.corners[k], b = f.corners[(k + 1) % f.corners.size()];
      const std::pair<int, int> edge{std::min(a, b), std::max(a, b)};
      if (std::find(hull.edges.begin(), hull.edges.end(), edge) != hull.edges.end()) continue;
      hull.edges.push_back(edge);
      const Vec3 d = (hull.vertices[edge.second] - hull.vertices[edge.first]).normalized();
      bool known = false;
      for (const Vec3& e : hull.directions) known |= std::abs(e.dot(d)) > 1 - 1e-12;
      if (!known) hull.directions.push_back(d);
    }
}

}  // namespace

ConvexHull convex_hull(const std::vector<Vec3>& points, const std::string& where) {
  const int n = int(points.size());
  if (n < 4 || n > kMaxHullVertices)
    throw InputError(where + ": a polyhedron needs 4 to " + std::to_string(kMaxHullVertices) +
                     " vertices (got " + std::to_string(n) + ")");
  // Within 1e12 (as the 2-D shapes): the plane tests square the hull's size and the moments
  // take its fifth power; 1e300 overflowed them to a hull without corners.
  double scale = 0;
  for (const Vec3& p : points) {
    if (!p.allFinite() || p.cwiseAbs().maxCoeff() > limits::kMaxLength)
      throw InputError(where + ": polyhedron vertices must be finite (|x|, |y|, |z| <= 1e12)");
    for (const Vec3& q : points) scale = std::max(scale, (p - q).norm());
  }
  if (!(scale >= limits::kMinLength))
    throw InputError(where + ": polyhedron vertices all coincide (or lie within 1e-12)");
  const double tolerance = 1e-9 * scale;
  ConvexHull hull;
  hull.vertices = points;
  std::vector<int> planes_through(n, 0);
  // Every supporting plane through three points is a face (O(n^4), n <= 64, once per shape).
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        Vec3 normal = (points[j] - points[i]).cross(points[k] - points[i]);
        if (normal.norm() < 1e-9 * scale * scale) continue;
        normal.normalize();
        double high = -INFINITY, low = INFINITY;
        for (const Vec3& p : points) {
          const double d = normal.dot(p - points[i]);
          high = std::max(high, d), low = std::min(low, d);
        }
        if (high > tolerance && low < -tolerance) continue;  // points on both sides
        if (high > tolerance) normal = -normal;
        const double offset = normal.dot(points[i]);
        bool known = false;
        for (const ConvexHull::Face& f : hull.faces)
          known |= f.normal.dot(normal) > 1 - 1e-9 && std::abs(f.offset - offset) <= tolerance;
        if (known) continue;
        ConvexHull::Face face{normal, offset, {}};
        for (int m = 0; m < n; ++m)
          if (std::abs(normal.dot(points[m]) - offset) <= tolerance) face.corners.push_back(m);
        hull.faces.push_back(face);
      }
  if (hull.faces.size() < 4) throw InputError(where + ": polyhedron vertices are flat (no volume)");
  for (ConvexHull::Face& f : hull.faces) {
    for (int m : f.corners) ++planes_through[m];
    // Corners counter-clockwise about the outward normal.
    Vec3 centre = Vec3::Zero();
    for (int m : f.corners) centre += points[m];
    centre /= double(f.corners.size());
    const Vec3 u = (points[f.corners[0]] - centre).normalized(), v = f.normal.cross(u);
    std::sort(f.corners.begin(), f.corners.end(), [&](int a, int b) {
      const Vec3 pa = points[a] - centre, pb = points[b] - centre;
      return std::atan2(pa.dot(v), pa.dot(u)) < std::atan2(pb.dot(v), pb.dot(u));
    });
  }
  for (int m = 0; m < n; ++m)
    if (planes_through[m] < 3)
      throw InputError(where + ": vertex " + std::to_string(m) +
                       " is not a corner of the convex hull (inside it, or on a face or an edge); "
                       "give the corners of a convex polyhedron");
  add_edges(hull);
  mass_properties(hull);
  return hull;
}

ConvexHull moved_hull(const ConvexHull& hull, const Vec3& centre, const Quat& axes) {
  ConvexHull out = hull;
  const Mat3 back = axes.conjugate().toRotationMatrix();
  for (Vec3& v : out.vertices) v = back * (v - centre);
  for (ConvexHull::Face& f : out.faces) {
    f.normal = back * f.normal;
    f.offset = f.normal.dot(out.vertices[f.corners[0]]);
  }
  add_edges(out);
  mass_properties(out);
  return out;
}

}  // namespace stepwise
