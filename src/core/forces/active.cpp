// Self-propulsion (active Brownian particles): a constant force along each free body's own axis
// (body z, turning with it; body x in 2-D scenes) and a constant torque. Both do work, counted
// as external work.
#include "core/world.hpp"

namespace stepwise {
namespace {

class Active final : public ForceModel {
 public:
  explicit Active(const ParamTable& p)
      : force_(p.number("force", 1.0)), torque_(p.vec3("torque", Vec3::Zero())) {}
  std::string kind() const override { return "active"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<Active>(*this); }
  unsigned body_work() const override { return kExternalWork; }
  bool names_bodies() const override { return false; }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    const World& world = s.world;
    // Along the body's z axis; in a 2-D scene (z out of the plane) along its x axis, which turns
    // with it in the plane.
    const Vec3 axis = world.dimensions == 2 ? Vec3::UnitX() : Vec3::UnitZ();
    for (int i = 0; i < world.size(); ++i) {
      if (world.flags[i] & (kFixed | kDriven)) continue;
      const Vec3 f = force_ * (world.q[i] * axis);
      out.force.col(i) += f;
      out.torque.col(i) += torque_;
      out.external_force.col(i) += f;
      out.external_torque.col(i) += torque_;
    }
  }
  bool jacobian(const StateView&, Triplets&, Triplets&) const override { return true; }
  void save(ParamTable& out) const override {
    out.set("force", force_);
    out.set("torque", std::vector<double>{torque_.x(), torque_.y(), torque_.z()});
  }
  std::vector<Tunable> tunables() const override {
    return {{"force", force_, "propulsion force along the body's axis", -kTunableMax, kTunableMax}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "force") force_ = value;
  }

 private:
  double force_;
  Vec3 torque_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("active", Active);
}  // namespace stepwise
