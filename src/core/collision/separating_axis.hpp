#pragma once
// The separating-axis test for two convex polyhedra (seed 004: a separating plane holds a face
// of one body or an edge of each): every face normal of either and the cross product of every
// pair of edge directions. The least overlap over those axes is the exact penetration depth.
#include "core/collision/collision.hpp"
#include "core/shapes/convex_hull.hpp"

namespace stepwise {

// A hull placed in the world: corners, face normals and plane offsets, edge directions.
struct PlacedHull {
  const ConvexHull* hull = nullptr;
  std::vector<Vec3> vertices, normals, directions;
  std::vector<double> offsets;
  Vec3 centre = Vec3::Zero();
  void place(const ConvexHull& h, const Placement& p);
};

enum class AxisKind { FaceA, FaceB, Edges, Separated };

struct AxisQuery {
  AxisKind kind = AxisKind::Separated;
  int axis = -1;         // id for PairCache: face of a, 256 + face of b, 512 + 64 i + j edges
  int index = -1;        // the face (FaceA, FaceB) or edge directions i * 64 + j (Edges)
  double depth = 0;      // least overlap (> 0 when touching)
  Vec3 normal = Vec3::Zero();  // pushes a out of b
};

// The least overlap over a's faces, b's faces and the edge pairs, each (FaceA, FaceB, Edges), or
// Separated (in all three, with the separating axis) as soon as an axis separates them;
// `cached`, if >= 0, is tried first. The least of the three is the penetration depth.
struct OverlapQuery {
  AxisQuery face_a, face_b, edges;
};
OverlapQuery least_overlap(const PlacedHull& a, const PlacedHull& b, int cached);

}  // namespace stepwise
