// A convex polygon of the plane (2-D scenes), `vertices = [x, y, x, y, ...]` in any order (its
// corners are found as a hull's): area, centroid and polar moment exact (the shoelace sums). It
// touches other bodies as a prism of unit thickness about z = 0 (the collision table's polyhedron
// row), so its contacts lie in the plane's line of sight and the plane takes away what they push
// out of it.
#include <cmath>

#include "core/limits.hpp"
#include "core/shapes/convex_hull.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise {
namespace {

class PolygonShape final : public Shape {
 public:
  PolygonShape(const ParamTable& p, bool body_frame) : Shape("polygon", "polyhedron") {
    const std::vector<double> flat = p.numbers("vertices", {});
    if (flat.size() % 2 != 0 || flat.size() < 6)
      throw InputError(p.where() +
                       ": a polygon needs vertices = [x, y, x, y, x, y, ...] (three or more)");
    for (double v : flat)
      if (!std::isfinite(v) || std::abs(v) > limits::kMaxLength)
        throw InputError(p.where() + ": polygon vertices must be finite (|x|, |y| <= 1e12)");
    std::vector<Vec3> prism;
    for (size_t k = 0; k < flat.size(); k += 2)
      for (double z : {0.5, -0.5}) prism.push_back(Vec3(flat[k], flat[k + 1], z));
    hull_ = convex_hull(prism, p.where());  // refuses corners that are not corners (not convex)
    // Shoelace sums about the origin over the top face's corners (counter-clockwise): twice the
    // area, the first moments and the polar moment.
    const std::vector<Vec3> corners = top_corners();
    double a2 = 0, mx = 0, my = 0, polar = 0;
    for (size_t k = 0; k < corners.size(); ++k) {
      const Vec3& u = corners[k];
      const Vec3& v = corners[(k + 1) % corners.size()];
      const double cross = u.x() * v.y() - v.x() * u.y();
      a2 += cross;
      mx += cross * (u.x() + v.x());
      my += cross * (u.y() + v.y());
      polar += cross * (u.x() * u.x() + u.x() * v.x() + v.x() * v.x() + u.y() * u.y() +
                        u.y() * v.y() + v.y() * v.y());
    }
    area_ = a2 / 2;
    const Vec3 centroid(mx / (3 * a2), my / (3 * a2), 0);
    inertia_ = polar / 12 / area_ - centroid.squaredNorm();  // per unit area, about the centroid
    if (!body_frame) {
      frame_ = {centroid, Quat::Identity()};
      hull_ = moved_hull(hull_, centroid, Quat::Identity());
    }
    inner_ = INFINITY;
    for (const ConvexHull::Face& f : hull_.faces)
      if (f.normal.z() == 0) inner_ = std::min(inner_, f.offset);
    for (const Vec3& c : hull_.vertices) radius_ = std::max(radius_, c.norm());
  }
  double volume() const override { return area_; }  // unit thickness
  // Turning about z only (see the disk): the polar moment about every axis.
  Vec3 unit_inertia() const override { return Vec3::Constant(inertia_); }
  double bounding_radius() const override { return radius_; }
  double contact_radius() const override { return std::max(inner_, 1e-3 * radius_); }
  Vec3 support(const Vec3& d) const override { return hull_.support(d); }
  const ConvexHull* hull() const override { return &hull_; }
  bool planar() const override { return true; }
  void save(ParamTable& out) const override {
    std::vector<double> flat;
    for (const Vec3& v : top_corners()) flat.insert(flat.end(), {v.x(), v.y()});
    out.set("vertices", flat);
  }
  void draw(DrawSink& sink) const override { sink.hull(hull_); }

 private:
  // The corners of the face at z = +1/2, counter-clockwise seen from +z, on the plane z = 0.
  std::vector<Vec3> top_corners() const {
    std::vector<Vec3> out;
    for (const ConvexHull::Face& f : hull_.faces)
      if (f.normal.z() > 0.5)
        for (int c : f.corners)
          out.push_back(Vec3(hull_.vertices[c].x(), hull_.vertices[c].y(), 0));
    return out;
  }

  ConvexHull hull_;
  double area_ = 0, inertia_ = 0, radius_ = 0, inner_ = 0;
};

}  // namespace
STEPWISE_REGISTER_SHAPE("polygon", PolygonShape);
}  // namespace stepwise
