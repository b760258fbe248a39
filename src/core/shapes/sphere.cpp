// A sphere: the shape most bodies have, and the one the granular kernels take without the
// collision table.
#include <cmath>

#include "core/limits.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise {
namespace {

class SphereShape final : public Shape {
 public:
  SphereShape(const ParamTable& p, bool) : Shape("sphere"), radius_(p.number("radius", 0.1)) {
    if (!(radius_ >= limits::kMinLength) ||
        !(radius_ <= limits::kMaxLength))  // (its moments take the fifth power)
      throw InputError(p.where() + ": radius must be from 1e-12 to 1e12");
  }
  double volume() const override { return 4.0 / 3.0 * M_PI * radius_ * radius_ * radius_; }
  Vec3 unit_inertia() const override { return Vec3::Constant(0.4 * radius_ * radius_); }
  double bounding_radius() const override { return radius_; }
  double contact_radius() const override { return radius_; }
  Vec3 support(const Vec3& d) const override {
    const double length = d.norm();
    return length > 0 ? Vec3(radius_ / length * d) : Vec3::Zero();
  }
  void save(ParamTable& out) const override { out.set("radius", radius_); }
  void draw(DrawSink& sink) const override { sink.sphere(Vec3::Zero(), radius_); }

 private:
  double radius_;
};

}  // namespace
STEPWISE_REGISTER_SHAPE("sphere", SphereShape);
}  // namespace stepwise
