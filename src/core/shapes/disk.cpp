// A disk of the plane (seed 000, PFC's 2-D balls): unit thickness, so m = rho pi R^2 and the
// polar moment I = 1/2 m R^2. It touches everything as a sphere of its radius does (in the plane
// the two are the same circle), so the granular kernels take it as they take spheres.
#include <cmath>

#include "core/limits.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise {
namespace {

class DiskShape final : public Shape {
 public:
  DiskShape(const ParamTable& p, bool) : Shape("disk", "sphere"), radius_(p.number("radius", 0.1)) {
    if (!(radius_ > 0) || !(radius_ <= limits::kMaxLength))  // (as the other 2-D shapes)
      throw InputError(p.where() + ": radius must be positive and at most 1e12");
  }
  double volume() const override { return M_PI * radius_ * radius_; }  // area x unit thickness
  // A disk turns about z only (the 2-D world holds the other spins at zero): the same moment
  // about every axis keeps it on the spheres' isotropic paths (w = L / I, no body frame).
  Vec3 unit_inertia() const override { return Vec3::Constant(0.5 * radius_ * radius_); }
  double bounding_radius() const override { return radius_; }
  double contact_radius() const override { return radius_; }
  Vec3 support(const Vec3& d) const override {
    const double length = d.norm();
    return length > 0 ? Vec3(radius_ / length * d) : Vec3::Zero();
  }
  bool planar() const override { return true; }
  void save(ParamTable& out) const override { out.set("radius", radius_); }
  void draw(DrawSink& sink) const override { sink.disk(Vec3::Zero(), radius_); }

 private:
  double radius_;
};

}  // namespace
STEPWISE_REGISTER_SHAPE("disk", DiskShape);
}  // namespace stepwise
