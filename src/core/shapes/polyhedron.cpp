// A convex polyhedron given by its corners (`vertices = [x, y, z, ...]`): its hull, faces and
// edges are found once; mass properties are exact (tetrahedra from an inner point to each face).
// Read in a template frame, the body frame is moved to the centroid and the principal axes.
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/shapes/convex_hull.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise {
namespace {

class PolyhedronShape final : public Shape {
 public:
  PolyhedronShape(const ParamTable& p, bool body_frame) : Shape("polyhedron") {
    const std::vector<double> flat = p.numbers("vertices", {});
    if (flat.size() % 3 != 0)
      throw InputError(p.where() + ": a polyhedron needs vertices = [x, y, z, x, y, z, ...]");
    std::vector<Vec3> points;
    for (size_t k = 0; k < flat.size(); k += 3)
      points.push_back(Vec3(flat[k], flat[k + 1], flat[k + 2]));
    hull_ = convex_hull(points, p.where());
    if (!body_frame) {
      Eigen::SelfAdjointEigenSolver<Mat3> solver(hull_.inertia);
      Mat3 axes = solver.eigenvectors();
      if (axes.determinant() < 0) axes.col(2) = -axes.col(2);
      frame_ = {hull_.centroid, Quat(axes).normalized()};
      hull_ = moved_hull(hull_, frame_.centre, frame_.axes);
    }
    // In the body frame the tensor is diagonal (to round-off): its diagonal is the principal set.
    inertia_ = hull_.inertia.diagonal() / hull_.volume;
    for (const Vec3& v : hull_.vertices) radius_ = std::max(radius_, v.norm());
    // The radius of the largest ball about the centroid inside it, for Hertz's curvature.
    inner_ = INFINITY;
    for (const ConvexHull::Face& f : hull_.faces) inner_ = std::min(inner_, f.offset);
  }
  double volume() const override { return hull_.volume; }
  Vec3 unit_inertia() const override { return inertia_; }
  double bounding_radius() const override { return radius_; }
  double contact_radius() const override { return std::max(inner_, 1e-3 * radius_); }
  Vec3 support(const Vec3& d) const override { return hull_.support(d); }
  const ConvexHull* hull() const override { return &hull_; }
  void save(ParamTable& out) const override {
    std::vector<double> flat;
    for (const Vec3& v : hull_.vertices) flat.insert(flat.end(), {v.x(), v.y(), v.z()});
    out.set("vertices", flat);
  }
  void draw(DrawSink& sink) const override { sink.hull(hull_); }

 private:
  ConvexHull hull_;
  Vec3 inertia_;
  double radius_ = 0, inner_ = 0;
};

}  // namespace
STEPWISE_REGISTER_SHAPE("polyhedron", PolyhedronShape);
}  // namespace stepwise
