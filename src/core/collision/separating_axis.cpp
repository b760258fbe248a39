#include "core/collision/separating_axis.hpp"

#include <limits>

namespace stepwise {
namespace {

// Overlap along one candidate axis and the normal pushing a out of b; false if it is degenerate
// (parallel edges).
bool overlap_along(const PlacedHull& a, const PlacedHull& b, int axis, double& overlap,
                   Vec3& normal) {
  if (axis < 256) {  // a's face: b reaches below it by offset - lowest
    const Vec3& n = a.normals[axis];
    overlap = a.offsets[axis] - b.extent(n).low;
    normal = -n;
  } else if (axis < 512) {
    const Vec3& n = b.normals[axis - 256];
    overlap = b.offsets[axis - 256] - a.extent(n).low;
    normal = n;
  } else {
    const int i = (axis - 512) / 64, j = (axis - 512) % 64;
    Vec3 l = a.directions[i].cross(b.directions[j]);
    const double length = l.norm();
    if (length < 1e-9) return false;
    l /= length;
    // Either way along the line may be the shorter way out: a above b, or b above a.
    const Extent ea = a.extent(l), eb = b.extent(l);
    const double up = eb.high - ea.low;
    const double down = ea.high - eb.low;
    overlap = std::min(up, down);
    normal = up <= down ? l : Vec3(-l);
  }
  return true;
}

}  // namespace

Extent PlacedHull::extent_by_corners(const Vec3& axis) const {
  Extent e{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const Vec3& p : vertices) {
    const double d = p.dot(axis);
    e.low = std::min(e.low, d);
    e.high = std::max(e.high, d);
  }
  return e;
}

void PlacedHull::place_corners() {
  const ConvexHull& h = *hull;
  vertices.resize(h.vertices.size());
  normals.resize(h.faces.size());
  offsets.resize(h.faces.size());
  directions.resize(h.directions.size());
  if (h.box_half.x() != 0) {
    // A box's corners are sums of its scaled axes, its normals and directions its axes (for
    // speed only): the products below without multiplying, the corners to round-off (summed
    // in another order), the normals and directions exactly (test_shape_contacts.cpp).
    const Mat3 axes = R * h.box_half.asDiagonal();
    for (size_t k = 0; k < h.vertices.size(); ++k) {
      Vec3 along = Vec3::Zero();
      for (int d = 0; d < 3; ++d)
        along += h.vertices[k](d) > 0 ? Vec3(axes.col(d)) : Vec3(-axes.col(d));
      vertices[k] = centre + along;
    }
    for (int d = 0; d < 3; ++d) {
      normals[h.box_face[d][0]] = R.col(d);
      normals[h.box_face[d][1]] = -R.col(d);
      directions[d] = R.col(d);
    }
  } else {
    for (size_t k = 0; k < h.vertices.size(); ++k) vertices[k] = centre + R * h.vertices[k];
    for (size_t f = 0; f < h.faces.size(); ++f) normals[f] = R * h.faces[f].normal;
    for (size_t k = 0; k < h.directions.size(); ++k) directions[k] = R * h.directions[k];
  }
  for (size_t f = 0; f < h.faces.size(); ++f)
    offsets[f] = normals[f].dot(vertices[h.faces[f].corners[0]]);
}

OverlapQuery least_overlap(const PlacedHull& a, const PlacedHull& b, int cached) {
  if (a.hull->box_half.x() != 0 && b.hull->box_half.x() != 0)
    return least_overlap_boxes(a, b, cached);
  return least_overlap_by_corners(a, b, cached);
}

OverlapQuery least_overlap_by_corners(const PlacedHull& a, const PlacedHull& b, int cached) {
  return search_axes(int(a.normals.size()), int(b.normals.size()), int(a.directions.size()),
                     int(b.directions.size()), cached,
                     [&](int axis, double& overlap, Vec3& normal) {
                       return overlap_along(a, b, axis, overlap, normal);
                     });
}

}  // namespace stepwise
