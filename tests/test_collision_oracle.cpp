// The collision table against an independent oracle, libccd (GJK + EPA, Debian's libccd-dev):
// on 10^4 random poses per pair of shapes, the separating-axis test's least overlap is the
// penetration depth EPA finds, along the same normal, and separated pairs report no contact.
// Built only where libccd is installed (a test-only dependency).
#include <doctest/doctest.h>

#include <ccd/ccd.h>

#include <algorithm>
#include <cmath>

#include "core/collision/collision.hpp"
#include "core/collision/separating_axis.hpp"
#include "core/random.hpp"
#include "core/shapes/convex_hull.hpp"

using namespace stepwise;

namespace {

// A placed convex set for libccd: its corners in the world, rounded by a radius (a sphere is
// one point rounded).
struct Corners {
  std::vector<Vec3> points;
  double radius = 0;
};

void support(const void* object, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const auto& points = static_cast<const Corners*>(object)->points;
  const Vec3 d(dir->v[0], dir->v[1], dir->v[2]);
  const Vec3* best = &points[0];
  for (const Vec3& p : points)
    if (p.dot(d) > best->dot(d)) best = &p;
  const double r = static_cast<const Corners*>(object)->radius;
  const Vec3 p = *best + (r > 0 ? Vec3(r * d.normalized()) : Vec3::Zero());
  for (int k = 0; k < 3; ++k) out->v[k] = p(k);
}

struct Oracle {
  bool touching;
  double depth;  // EPA's penetration depth, or the distance when apart
  Vec3 normal;   // pushes a out of b
};

Oracle ccd(const Corners& a, const Corners& b) {
  ccd_t c;
  CCD_INIT(&c);
  c.support1 = support;
  c.support2 = support;
  c.max_iterations = 10000;
  c.epa_tolerance = 1e-14;
  c.dist_tolerance = 1e-14;
  ccd_real_t depth;
  ccd_vec3_t dir, pos;
  if (ccdGJKPenetration(&a, &b, &c, &depth, &dir, &pos) == 0)
    return {true, depth, -Vec3(dir.v[0], dir.v[1], dir.v[2]).normalized()};
  ccd_vec3_t sep;
  ccdGJKSeparate(&a, &b, &c, &sep);
  return {false, Vec3(sep.v[0], sep.v[1], sep.v[2]).norm(), Vec3::Zero()};
}

// Overlap of two point sets along u: the shorter of the two ways out.
double overlap(const Vec3& u, const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double amax = -INFINITY, amin = INFINITY, bmax = -INFINITY, bmin = INFINITY;
  for (const Vec3& p : a) amax = std::max(amax, p.dot(u)), amin = std::min(amin, p.dot(u));
  for (const Vec3& p : b) bmax = std::max(bmax, p.dot(u)), bmin = std::min(bmin, p.dot(u));
  return std::min(bmax - amin, amax - bmin);
}

bool consistent(const Oracle& o, const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  return std::abs(overlap(o.normal, a, b) - o.depth) < 1e-9;
}

// Whether moving b against the normal by depth + margin leaves the two apart (libccd's GJK).
bool separates(const PlacedHull& a, const PlacedHull& b, const AxisQuery& axis, double margin) {
  Corners ca{a.vertices}, cb{b.vertices};
  for (Vec3& p : cb.points) p -= (axis.depth + margin) * axis.normal;
  ccd_t c;
  CCD_INIT(&c);
  c.support1 = support;
  c.support2 = support;
  c.max_iterations = 10000;
  return !ccdGJKIntersect(&ca, &cb, &c);
}

Corners corners(const ConvexHull& hull, const Vec3& x, const Mat3& R) {
  Corners c;
  for (const Vec3& v : hull.vertices) c.points.push_back(x + R * v);
  return c;
}

std::vector<ShapePtr> convex_shapes() {
  Random random(11);
  std::vector<Vec3> blob;  // twelve points on an ellipsoid: all corners of their hull
  for (int k = 0; k < 12; ++k) {
    const Vec3 d = Vec3(random.normal(), random.normal(), random.normal()).normalized();
    blob.push_back(Vec3(0.6 * d.x(), 0.4 * d.y(), 0.3 * d.z()));
  }
  return {box_shape(Vec3(0.5, 0.3, 0.2)), box_shape(Vec3(0.25, 0.25, 0.25)),
          polyhedron_shape({Vec3(0.4, 0, 0), Vec3(-0.4, 0, 0), Vec3(0, 0.4, 0), Vec3(0, -0.4, 0),
                            Vec3(0, 0, 0.4), Vec3(0, 0, -0.4)}),
          polyhedron_shape({Vec3(0.3, 0.3, 0.3), Vec3(0.3, -0.3, -0.3), Vec3(-0.3, 0.3, -0.3),
                            Vec3(-0.3, -0.3, 0.3)}),
          polyhedron_shape(blob)};
}

}  // namespace

TEST_CASE("box and polyhedron pairs: depth and normal equal EPA's on 10^4 random poses each") {
  const std::vector<ShapePtr> shapes = convex_shapes();
  Random random(5);
  int compared = 0, unique = 0, inconsistent = 0;
  double worst_depth = 0, worst_normal = 0;
  for (size_t s = 0; s < shapes.size(); ++s)
    for (size_t t = s; t < shapes.size(); ++t)
      for (int trial = 0; trial < 10000; ++trial) {
        const Shape& A = *shapes[s];
        const Shape& B = *shapes[t];
        const Placement a{A, Vec3::Zero(), random_orientation(random).toRotationMatrix()};
        const Vec3 offset(random.uniform(-0.8, 0.8), random.uniform(-0.8, 0.8),
                          random.uniform(-0.8, 0.8));
        const Placement b{B, offset, random_orientation(random).toRotationMatrix()};
        const Oracle oracle = ccd(corners(*A.hull(), a.x, a.R), corners(*B.hull(), b.x, b.R));
        PlacedHull ha, hb;
        ha.place(*A.hull(), a);
        hb.place(*B.hull(), b);
        const OverlapQuery q = least_overlap(ha, hb, -1);
        Contacts manifold;
        PairCache cache;
        CollisionTable::instance().collide(a, b, cache, manifold);
        CAPTURE(s);
        CAPTURE(t);
        CAPTURE(trial);
        if (!oracle.touching) {
          CHECK(q.face_a.kind == AxisKind::Separated);
          CHECK(manifold.empty());
          continue;
        }
        if (oracle.depth < 1e-9) continue;  // grazing: either answer is right
        ++compared;
        REQUIRE(q.face_a.kind != AxisKind::Separated);
        const AxisQuery* least = &q.face_a;
        for (const AxisQuery* other : {&q.face_b, &q.edges})
          if (other->depth < least->depth) least = other;
        if (!consistent(oracle, ha.vertices, hb.vertices)) {
          // EPA's depth is not the overlap along its own normal (it stopped on a wrong face,
          // which happens to libccd in deep penetrations): ours must still be the shallower
          // way out, and moving b by it must just separate the two (GJK).
          ++inconsistent;
          CHECK(least->depth <= overlap(oracle.normal, ha.vertices, hb.vertices) + 1e-9);
          CHECK(separates(ha, hb, *least, 1e-6));
          CHECK_FALSE(separates(ha, hb, *least, -1e-6));
          continue;
        }
        worst_depth = std::max(worst_depth, std::abs(least->depth - oracle.depth));
        CHECK(std::abs(least->depth - oracle.depth) <= 1e-9 * std::max(least->depth, oracle.depth));
        // The normal is defined when the least overlap is clearly the least.
        double runner_up = INFINITY;
        for (const AxisQuery* other : {&q.face_a, &q.face_b, &q.edges})
          if (other != least) runner_up = std::min(runner_up, other->depth);
        if (runner_up > least->depth + 1e-6) {
          ++unique;
          worst_normal = std::max(worst_normal, (least->normal - oracle.normal).norm());
          CHECK((least->normal - oracle.normal).norm() < 1e-9);
        }
        // The manifold: points no deeper than the axis it chose, which is never more than 1/0.95
        // of the least (it prefers a face to a nearly-as-shallow edge pair).
        CHECK_FALSE(manifold.empty());
        double deepest = 0;
        for (const ContactPoint& p : manifold) deepest = std::max(deepest, p.depth);
        CHECK(deepest <= oracle.depth / 0.95 + 1e-9);
      }
  MESSAGE("compared " << compared << " penetrating poses (" << unique
                      << " with a unique normal): "
                         "worst depth difference "
                      << worst_depth << ", worst normal difference " << worst_normal
                      << "; EPA inconsistent on " << inconsistent);
  CHECK(compared > 20000);
}

TEST_CASE("sphere against box and polyhedron: the exact nearest point, and EPA's depth") {
  const std::vector<ShapePtr> shapes = convex_shapes();
  const double r = 0.15;
  const ShapePtr ball = sphere_shape(r);
  Random random(9);
  int inside = 0, outside = 0;
  double worst_epa = 0;
  for (const ShapePtr& shape : shapes)
    for (int trial = 0; trial < 10000; ++trial) {
      const Placement b{*shape, Vec3::Zero(), random_orientation(random).toRotationMatrix()};
      const Vec3 centre(random.uniform(-0.7, 0.7), random.uniform(-0.7, 0.7),
                        random.uniform(-0.7, 0.7));
      const Placement a{*ball, centre, Mat3::Identity()};
      const Corners hull = corners(*shape->hull(), b.x, b.R);
      const Oracle sphere = ccd(Corners{{centre}, r}, hull), point = ccd(Corners{{centre}}, hull);
      Contacts manifold;
      PairCache cache;
      CollisionTable::instance().collide(a, b, cache, manifold);
      CAPTURE(trial);
      if (!sphere.touching) {
        CHECK(manifold.empty());
        continue;
      }
      if (sphere.depth < 1e-9) continue;
      REQUIRE(manifold.size() == 1);
      const ContactPoint& c = manifold[0];
      if (point.touching) {
        // The centre inside: out through the nearest face, r + its distance (EPA is exact on a
        // polytope), along its normal unless another face is as near.
        ++inside;
        CHECK(std::abs(c.depth - (r + point.depth)) < 1e-9);
        std::vector<double> distance;
        for (const ConvexHull::Face& f : shape->hull()->faces)
          distance.push_back(f.offset - f.normal.dot(b.R.transpose() * centre));
        std::sort(distance.begin(), distance.end());
        if (distance[1] > distance[0] + 1e-9) CHECK((c.normal - point.normal).norm() < 1e-9);
        continue;
      }
      // The centre outside: q = centre - (r - depth) n is the nearest point of the hull when q
      // is on its surface and the whole hull lies behind the plane through q normal to n.
      ++outside;
      const Vec3 q = centre - (r - c.depth) * c.normal;
      double beyond = -INFINITY;
      for (const Vec3& v : hull.points) beyond = std::max(beyond, c.normal.dot(v - q));
      CHECK(std::abs(beyond) < 1e-12);
      double above = -INFINITY;  // q's height over the hull's face planes: 0 on its surface
      for (const ConvexHull::Face& f : shape->hull()->faces)
        above = std::max(above, f.normal.dot(b.R.transpose() * q) - f.offset);
      CHECK(std::abs(above) < 1e-12);
      // EPA on a sphere stops on a polytope inscribed in it: a little shallower, never deeper.
      worst_epa = std::max(worst_epa, c.depth - sphere.depth);
      CHECK(c.depth >= sphere.depth - 1e-12);
      CHECK(c.depth - sphere.depth < 1e-6);
    }
  MESSAGE(inside << " centres inside, " << outside << " outside; EPA shallower by at most "
                 << worst_epa);
  CHECK(inside > 1500);
  CHECK(outside > 5000);
}
