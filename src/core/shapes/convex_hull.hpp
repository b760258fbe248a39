#pragma once
// A convex polyhedron as the collision table reads it: vertices, faces (outward unit normal, plane
// offset, corners counter-clockwise seen from outside), edges, and the distinct edge directions
// (the separating-axis test crosses those of two hulls). Built once per shape.
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace stepwise {

struct ConvexHull {
  struct Face {
    Vec3 normal;    // outward, unit
    double offset;  // normal . x <= offset inside
    std::vector<int> corners;
  };
  std::vector<Vec3> vertices;
  std::vector<Face> faces;
  std::vector<std::pair<int, int>> edges;  // each once
  std::vector<Vec3> directions;            // unit edge directions, one per parallel family
  // Unit density: volume, centroid, and the inertia tensor about the centroid.
  double volume = 0;
  Vec3 centroid = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
  // A box's half extents along its body axes, zero for other hulls. Only for speed: the
  // separating-axis test projects a box in closed form instead of corner by corner.
  Vec3 box_half = Vec3::Zero();
  int box_face[3][2] = {};  // a box's face with outward normal +u_k [0] and -u_k [1]

  Vec3 support(const Vec3& direction) const {
    int best = 0;
    double most = vertices[0].dot(direction);
    for (int k = 1; k < int(vertices.size()); ++k) {
      const double d = vertices[k].dot(direction);
      if (d > most) most = d, best = k;
    }
    return vertices[best];
  }
};

constexpr int kMaxHullVertices = 64;

// The hull of these points. InputError (with `where`) if there are fewer than four, more than
// kMaxHullVertices, the hull is flat, or a point is not one of its corners (inside it, or on a
// face or an edge): the vertex list of a convex polyhedron, nothing else.
ConvexHull convex_hull(const std::vector<Vec3>& points, const std::string& where);
// The same hull with every point p taken to axes^-1 (p - centre).
ConvexHull moved_hull(const ConvexHull& hull, const Vec3& centre, const Quat& axes);

}  // namespace stepwise
