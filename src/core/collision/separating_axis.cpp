#include "core/collision/separating_axis.hpp"

#include <limits>

namespace stepwise {
namespace {

double lowest(const std::vector<Vec3>& points, const Vec3& axis) {
  double low = std::numeric_limits<double>::infinity();
  for (const Vec3& p : points) low = std::min(low, p.dot(axis));
  return low;
}
double highest(const std::vector<Vec3>& points, const Vec3& axis) {
  double high = -std::numeric_limits<double>::infinity();
  for (const Vec3& p : points) high = std::max(high, p.dot(axis));
  return high;
}

// Overlap along one candidate axis and the normal pushing a out of b; false if it is degenerate
// (parallel edges).
bool overlap_along(const PlacedHull& a, const PlacedHull& b, int axis, double& overlap, Vec3& normal) {
  if (axis < 256) {  // a's face: b reaches below it by offset - lowest
    const Vec3& n = a.normals[axis];
    overlap = a.offsets[axis] - lowest(b.vertices, n);
    normal = -n;
  } else if (axis < 512) {
    const Vec3& n = b.normals[axis - 256];
    overlap = b.offsets[axis - 256] - lowest(a.vertices, n);
    normal = n;
  } else {
    const int i = (axis - 512) / 64, j = (axis - 512) % 64;
    Vec3 l = a.directions[i].cross(b.directions[j]);
    const double length = l.norm();
    if (length < 1e-9) return false;
    l /= length;
    // Either way along the line may be the shorter way out: a above b, or b above a.
    const double up = highest(b.vertices, l) - lowest(a.vertices, l);
    const double down = highest(a.vertices, l) - lowest(b.vertices, l);
    overlap = std::min(up, down);
    normal = up <= down ? l : Vec3(-l);
  }
  return true;
}

}  // namespace

void PlacedHull::place(const ConvexHull& h, const Placement& p) {
  hull = &h;
  centre = p.x;
  vertices.resize(h.vertices.size());
  for (size_t k = 0; k < h.vertices.size(); ++k) vertices[k] = p.x + p.R * h.vertices[k];
  normals.resize(h.faces.size());
  offsets.resize(h.faces.size());
  for (size_t f = 0; f < h.faces.size(); ++f) {
    normals[f] = p.R * h.faces[f].normal;
    offsets[f] = normals[f].dot(vertices[h.faces[f].corners[0]]);
  }
  directions.resize(h.directions.size());
  for (size_t k = 0; k < h.directions.size(); ++k) directions[k] = p.R * h.directions[k];
}

OverlapQuery least_overlap(const PlacedHull& a, const PlacedHull& b, int cached) {
  OverlapQuery q;
  const double none = std::numeric_limits<double>::infinity();
  q.face_a.depth = q.face_b.depth = q.edges.depth = none;
  double overlap;
  Vec3 normal;
  auto separated = [&](int axis) {
    q.face_a = {AxisKind::Separated, axis, -1, overlap, normal};
    q.face_b = q.edges = q.face_a;
    return q;
  };
  if (cached >= 0 && overlap_along(a, b, cached, overlap, normal) && overlap < 0)
    return separated(cached);
  auto consider = [&](AxisQuery& best, int axis, AxisKind kind, int index) {
    if (!overlap_along(a, b, axis, overlap, normal)) return true;
    if (overlap < 0) return false;
    if (overlap < best.depth) best = {kind, axis, index, overlap, normal};
    return true;
  };
  for (int f = 0; f < int(a.normals.size()); ++f)
    if (!consider(q.face_a, f, AxisKind::FaceA, f)) return separated(f);
  for (int f = 0; f < int(b.normals.size()); ++f)
    if (!consider(q.face_b, 256 + f, AxisKind::FaceB, f)) return separated(256 + f);
  for (int i = 0; i < int(a.directions.size()); ++i)
    for (int j = 0; j < int(b.directions.size()); ++j)
      if (!consider(q.edges, 512 + 64 * i + j, AxisKind::Edges, 64 * i + j))
        return separated(512 + 64 * i + j);
  return q;
}

}  // namespace stepwise
