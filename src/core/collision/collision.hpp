#pragma once
// The collision table: for every pair of shape kinds, the function that finds where two placed
// bodies touch (MuJoCo's collision table, Box2D's contact registers). Each pair function is one
// file and one registration line; it returns a contact manifold of points, each with its normal,
// depth and a feature id that stays the same while the same features touch, so the laws applied
// per point (core/contacts) can keep a tangential spring per feature. Compound shapes (clumps)
// touch through their member spheres; walls are half-spaces.
#include <cstdint>
#include <string>
#include <vector>

#include "core/shapes/shape.hpp"

namespace stepwise {

// A body's shape where it is: centre and orientation (R its rotation matrix).
struct Placement {
  const Shape& shape;
  Vec3 x;
  Mat3 R;
};

struct ContactPoint {
  Vec3 position;          // world, midway between the two surfaces
  Vec3 normal;            // unit, from b towards a: the direction that pushes a out of b
  double depth;           // overlap along the normal, > 0
  std::uint64_t feature;  // which features touch (vertex, edge, face ids), stable while they do
  // Where the depth is not a material point's (an incident edge crossing a side plane of the
  // reference face, or a corner of the reference face under the incident face), the point slides
  // as the bodies turn and the depth's gradient leans off the normal: the elastic force acts
  // along normal + lean, at lean_at on both bodies, so that it is minus the gradient of the
  // point's energy (contact_lean in convex_convex.cpp). Zero for every other point.
  Vec3 lean = Vec3::Zero();
  Vec3 lean_at = Vec3::Zero();
};
using Contacts = std::vector<ContactPoint>;

// What a pair keeps between evaluations: the last separating axis (-1: none), so a separated
// pair of polyhedra is usually dismissed by one test.
struct PairCache {
  int axis = -1;
};

// Appends a's contacts with b to out.
using CollideFn = void (*)(const Placement& a, const Placement& b, PairCache& cache, Contacts& out);

constexpr int kMaxManifold = 4;  // points per face contact (more are reduced to the 4 that span it)

class CollisionTable {
 public:
  static CollisionTable& instance();
  bool add(const std::string& kind_a, const std::string& kind_b, CollideFn collide);
  // a against b, whichever order the pair was registered in; clumps member by member. Returns
  // how many points it appended.
  int collide(const Placement& a, const Placement& b, PairCache& cache, Contacts& out) const;
  // a against the half-space normal . p <= offset (a wall: normal into the space bodies are in,
  // so normal . p >= offset is free).
  int collide_wall(const Placement& a, const Vec3& normal, double offset, Contacts& out) const;

 private:
  CollideFn find(int a, int b, bool& swapped) const;
  std::vector<std::vector<CollideFn>> table_;
};

// The placement of a wall, for pair functions registered against "wall": x a point on the plane,
// R's third column its normal.
const Shape& wall_shape();

// Keeps at most kMaxManifold of out[first..]: the deepest, then the points that span the
// largest area, so a face contact keeps its corners.
void reduce_manifold(Contacts& out, size_t first);

}  // namespace stepwise

#define STEPWISE_REGISTER_COLLISION(A, B, FUNCTION)                       \
  static const bool STEPWISE_CONCAT(registered_collision_, __COUNTER__) = \
      ::stepwise::CollisionTable::instance().add(A, B, FUNCTION)
