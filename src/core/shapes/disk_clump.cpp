// A clump of disks in the plane (seed 000: PFC's 2-D clumps), `disks = [x, y, r, ...]`. Its area,
// centroid and polar moment are the union's, exact (core/disk_union.hpp); a body may give its own
// polar moment instead (`polar_moment`, PFC lets the user set it). It touches other bodies
// through its member disks, as a clump does through its spheres.
#include <algorithm>
#include <cmath>

#include "core/clump.hpp"
#include "core/disk_union.hpp"
#include "core/limits.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise {
namespace {

class DiskClumpShape final : public Shape {
 public:
  static constexpr size_t kMaxMembers = 1000;  // as clumps: feature ids give a member 16 bits
  DiskClumpShape(const ParamTable& p, bool body_frame) : Shape("disk-clump", "clump") {
    const std::vector<double> flat = p.numbers("disks", {});
    if (flat.empty() || flat.size() % 3 != 0)
      throw InputError(p.where() + ": a clump of disks needs disks = [x, y, r, x, y, r, ...]");
    if (flat.size() / 3 > kMaxMembers)
      throw InputError(p.where() + ": a clump of disks has at most " + std::to_string(kMaxMembers) +
                       " disks");
    for (size_t k = 0; k < flat.size(); k += 3)
      disks_.push_back({Vec3(flat[k], flat[k + 1], 0), flat[k + 2]});
    for (const ClumpSphere& d : disks_)
      if (!(d.radius > 0) || !std::isfinite(d.radius) || !d.centre.allFinite() ||
          d.centre.norm() > limits::kMaxLength || d.radius > limits::kMaxLength)
        throw InputError(p.where() + ": clump disks need finite centres and positive radii " +
                         "(|x|, r <= 1e12)");
    const PlaneMassProperties mass = disk_union_properties(disks_);
    area_ = mass.area;
    inertia_ = mass.polar / mass.area;
    // In the body frame (a saved state) the centroid is the origin already: nothing moves.
    if (!body_frame) {
      frame_ = {mass.centroid, Quat::Identity()};
      for (ClumpSphere& d : disks_) d.centre -= mass.centroid;
    }
    for (const ClumpSphere& d : disks_) {
      parts_.push_back(sphere_shape(d.radius));
      radius_ = std::max(radius_, d.centre.norm() + d.radius);
      smallest_ = std::min(smallest_, d.radius);
    }
  }
  double volume() const override { return area_; }  // unit thickness
  // Turning about z only (see the disk): the polar moment about every axis.
  Vec3 unit_inertia() const override { return Vec3::Constant(inertia_); }
  double bounding_radius() const override { return radius_; }
  double contact_radius() const override { return smallest_; }
  Vec3 support(const Vec3& d) const override { return members_support(disks_, d); }
  bool planar() const override { return true; }
  const std::vector<ClumpSphere>& members() const override { return disks_; }
  const std::vector<ShapePtr>& member_shapes() const override { return parts_; }
  void save(ParamTable& out) const override {
    std::vector<double> flat;
    for (const ClumpSphere& d : disks_)
      flat.insert(flat.end(), {d.centre.x(), d.centre.y(), d.radius});
    out.set("disks", flat);
  }
  void draw(DrawSink& sink) const override {
    for (const ClumpSphere& d : disks_) sink.disk(d.centre, d.radius);
  }

 private:
  std::vector<ClumpSphere> disks_;
  std::vector<ShapePtr> parts_;
  double area_ = 0, inertia_ = 0, radius_ = 0, smallest_ = INFINITY;
};

}  // namespace
STEPWISE_REGISTER_SHAPE("disk-clump", DiskClumpShape);
}  // namespace stepwise
