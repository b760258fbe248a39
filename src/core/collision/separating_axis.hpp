#pragma once
// The separating-axis test for two convex polyhedra (seed 004: a separating plane holds a face
// of one body or an edge of each): every face normal of either and the cross product of every
// pair of edge directions. The least overlap over those axes is the exact penetration depth.
#include <limits>

#include "core/collision/collision.hpp"
#include "core/shapes/convex_hull.hpp"

namespace stepwise {

// Where a placed hull lies along an axis: the least and greatest projection of its points.
struct Extent {
  double low, high;
};

// A hull placed in the world: corners, face normals and plane offsets, edge directions.
struct PlacedHull {
  const ConvexHull* hull = nullptr;
  std::vector<Vec3> vertices, normals, directions;
  std::vector<double> offsets;
  Vec3 centre = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  // Where it is, then its corners, normals, offsets and edge directions in the world. Two boxes
  // need only the first to be found apart (least_overlap_boxes), so the second can wait.
  void place(const ConvexHull& h, const Placement& p) {
    place_frame(h, p);
    place_corners();
  }
  void place_frame(const ConvexHull& h, const Placement& p) {
    hull = &h;
    centre = p.x;
    R = p.R;
  }
  void place_corners();
  // Along a unit axis: a box in closed form (centre +- sum h_k |u_k . axis|), other hulls by
  // their corners (extent_by_corners, the reference the closed form is tested against).
  Extent extent(const Vec3& axis) const {
    if (hull->box_half.x() == 0) return extent_by_corners(axis);
    const double c = centre.dot(axis);
    const Vec3 along = R.transpose() * axis;
    const double r = hull->box_half.dot(along.cwiseAbs());
    return {c - r, c + r};
  }
  Extent extent_by_corners(const Vec3& axis) const;
};

enum class AxisKind { FaceA, FaceB, Edges, Separated };

struct AxisQuery {
  AxisKind kind = AxisKind::Separated;
  int axis = -1;               // id for PairCache: face of a, 256 + face of b, 512 + 64 i + j edges
  int index = -1;              // the face (FaceA, FaceB) or edge directions i * 64 + j (Edges)
  double depth = 0;            // least overlap (> 0 when touching)
  Vec3 normal = Vec3::Zero();  // pushes a out of b
};

// The least overlap over a's faces, b's faces and the edge pairs, each (FaceA, FaceB, Edges), or
// Separated (in all three, with the separating axis) as soon as an axis separates them;
// `cached`, if >= 0, is tried first. The least of the three is the penetration depth.
struct OverlapQuery {
  AxisQuery face_a, face_b, edges;
};
OverlapQuery least_overlap(const PlacedHull& a, const PlacedHull& b, int cached);

// The search both ways of measuring an axis share: the cached axis first, then a's faces, b's
// faces and the edge pairs in order (ties keep the first), stopping at the first axis that
// separates. along(axis, overlap, normal) measures one axis; false: degenerate, skipped.
template <class Along>
OverlapQuery search_axes(int faces_a, int faces_b, int directions_a, int directions_b, int cached,
                         Along&& along) {
  OverlapQuery q;
  q.face_a.depth = q.face_b.depth = q.edges.depth = std::numeric_limits<double>::infinity();
  double overlap;
  Vec3 normal;
  auto separated = [&](int axis) {
    q.face_a = {AxisKind::Separated, axis, -1, overlap, normal};
    q.face_b = q.edges = q.face_a;
    return q;
  };
  if (cached >= 0 && along(cached, overlap, normal) && overlap < 0) return separated(cached);
  auto consider = [&](AxisQuery& best, int axis, AxisKind kind, int index) {
    if (!along(axis, overlap, normal)) return true;
    if (overlap < 0) return false;
    if (overlap < best.depth) best = {kind, axis, index, overlap, normal};
    return true;
  };
  for (int f = 0; f < faces_a; ++f)
    if (!consider(q.face_a, f, AxisKind::FaceA, f)) return separated(f);
  for (int f = 0; f < faces_b; ++f)
    if (!consider(q.face_b, 256 + f, AxisKind::FaceB, f)) return separated(256 + f);
  for (int i = 0; i < directions_a; ++i)
    for (int j = 0; j < directions_b; ++j)
      if (!consider(q.edges, 512 + 64 * i + j, AxisKind::Edges, 64 * i + j))
        return separated(512 + 64 * i + j);
  return q;
}
// The same for any two hulls by their corners: the reference that least_overlap's closed form for
// two boxes (box_box_overlap.cpp, Gottschalk's OBB axes, only for speed) is tested against.
OverlapQuery least_overlap_by_corners(const PlacedHull& a, const PlacedHull& b, int cached);
OverlapQuery least_overlap_boxes(const PlacedHull& a, const PlacedHull& b, int cached);

}  // namespace stepwise
