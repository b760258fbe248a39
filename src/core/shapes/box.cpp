// A rectangular box of half-extents (a, b, c) about its centre: exact mass properties
// I = m/3 (b^2 + c^2, a^2 + c^2, a^2 + b^2), and its hull for the separating-axis test.
#include <cmath>

#include "core/limits.hpp"
#include "core/shapes/convex_hull.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise {
namespace {

class BoxShape final : public Shape {
 public:
  BoxShape(const ParamTable& p, bool)
      : Shape("box"), half_(p.vec3("half_extents", Vec3::Constant(0.1))) {
    if (!half_.allFinite() || !(half_.minCoeff() >= limits::kMinLength) ||
        !(half_.maxCoeff() <= limits::kMaxLength))
      throw InputError(p.where() + ": box half_extents must be from 1e-12 to 1e12");
    // Corner k has sign bit d set for -h_d, so the faces' corners come out exact.
    for (int k = 0; k < 8; ++k)
      hull_.vertices.push_back(Vec3(k & 1 ? -half_.x() : half_.x(), k & 2 ? -half_.y() : half_.y(),
                                    k & 4 ? -half_.z() : half_.z()));
    hull_ = convex_hull(hull_.vertices, p.where());
    for (ConvexHull::Face& f : hull_.faces) {  // exact axes, not a cross product's round-off
      for (int d = 0; d < 3; ++d)
        if (std::abs(f.normal(d)) > 0.5) {
          f.normal = Vec3::Unit(d) * (f.normal(d) > 0 ? 1.0 : -1.0);
          f.offset = half_(d);
        }
    }
    for (int d = 0; d < 3; ++d) hull_.directions[d] = Vec3::Unit(d);
    hull_.box_half = half_;
    for (size_t f = 0; f < hull_.faces.size(); ++f)
      for (int d = 0; d < 3; ++d)
        if (hull_.faces[f].normal(d) != 0)
          hull_.box_face[d][hull_.faces[f].normal(d) > 0 ? 0 : 1] = int(f);
  }
  double volume() const override { return 8 * half_.prod(); }
  Vec3 unit_inertia() const override {
    const Vec3 s = half_.cwiseProduct(half_);
    return Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y()) / 3.0;
  }
  double bounding_radius() const override { return half_.norm(); }
  double contact_radius() const override { return half_.minCoeff(); }
  Vec3 support(const Vec3& d) const override {
    return Vec3(d.x() < 0 ? -half_.x() : half_.x(), d.y() < 0 ? -half_.y() : half_.y(),
                d.z() < 0 ? -half_.z() : half_.z());
  }
  const ConvexHull* hull() const override { return &hull_; }
  void save(ParamTable& out) const override {
    out.set("half_extents", std::vector<double>{half_.x(), half_.y(), half_.z()});
  }
  void draw(DrawSink& sink) const override { sink.box(half_); }

 private:
  Vec3 half_;
  ConvexHull hull_;
};

}  // namespace
STEPWISE_REGISTER_SHAPE("box", BoxShape);
}  // namespace stepwise
