// A clump (PFC): a rigid union of overlapping spheres, `spheres = [x, y, z, r, ...]`. Its mass
// properties come from a converged volume integration of the union (core/clump.hpp); it touches
// other bodies through its member spheres.
#include <algorithm>

#include "core/clump.hpp"
#include "core/limits.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise {
namespace {

class ClumpShape final : public Shape {
 public:
  static constexpr size_t kMaxMembers = 1000;  // feature ids give a member 16 bits
  ClumpShape(const ParamTable& p, bool body_frame) : Shape("clump") {
    const std::vector<double> flat = p.numbers("spheres", {});
    if (flat.empty() || flat.size() % 4 != 0)
      throw InputError(p.where() + ": a clump needs spheres = [x, y, z, r, x, y, z, r, ...]");
    if (flat.size() / 4 > kMaxMembers)
      throw InputError(p.where() + ": a clump has at most " + std::to_string(kMaxMembers) +
                       " spheres");
    for (size_t k = 0; k < flat.size(); k += 4)
      spheres_.push_back({Vec3(flat[k], flat[k + 1], flat[k + 2]), flat[k + 3]});
    for (const ClumpSphere& s : spheres_)
      if (!(s.radius >= limits::kMinLength) || !(s.radius <= limits::kMaxLength) ||
          !s.centre.allFinite() ||
          s.centre.norm() > limits::kMaxLength)  // (as spheres and clumps of disks)
        throw InputError(p.where() + ": clump spheres need finite centres and radii " +
                         "(|x| <= 1e12, r from 1e-12 to 1e12)");
    // In the body frame (a saved state) the body's inertia is saved with it: no integration.
    if (!body_frame) {
      const MassProperties mass = clump_mass_properties(spheres_);
      volume_ = mass.volume;
      frame_ = {mass.centre, mass.axes};
      for (ClumpSphere& s : spheres_) s.centre = mass.axes.conjugate() * (s.centre - mass.centre);
      inertia_ = mass.principal / mass.volume;
    }
    for (const ClumpSphere& s : spheres_) {
      parts_.push_back(sphere_shape(s.radius));
      radius_ = std::max(radius_, s.centre.norm() + s.radius);
      smallest_ = std::min(smallest_, s.radius);
    }
  }
  double volume() const override { return volume_; }
  Vec3 unit_inertia() const override { return inertia_; }
  double bounding_radius() const override { return radius_; }
  double contact_radius() const override { return smallest_; }
  Vec3 support(const Vec3& d) const override { return members_support(spheres_, d); }
  const std::vector<ClumpSphere>& members() const override { return spheres_; }
  const std::vector<ShapePtr>& member_shapes() const override { return parts_; }
  void save(ParamTable& out) const override {
    std::vector<double> flat;
    for (const ClumpSphere& s : spheres_)
      flat.insert(flat.end(), {s.centre.x(), s.centre.y(), s.centre.z(), s.radius});
    out.set("spheres", flat);
  }
  void draw(DrawSink& sink) const override {
    for (const ClumpSphere& s : spheres_) sink.sphere(s.centre, s.radius);
  }

 private:
  std::vector<ClumpSphere> spheres_;
  std::vector<ShapePtr> parts_;
  double volume_ = 0, radius_ = 0, smallest_ = INFINITY;
  Vec3 inertia_ = Vec3::Zero();  // zero: not integrated (body frame)
};

}  // namespace
STEPWISE_REGISTER_SHAPE("clump", ClumpShape);
}  // namespace stepwise
