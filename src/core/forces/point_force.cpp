// A constant world-frame force applied at a point fixed in a body: the body feels F and the
// torque r x F about its centre; the work F . v_point is counted as external work.
#include "core/world.hpp"

namespace stepwise {
namespace {

class PointForce final : public ForceModel {
 public:
  explicit PointForce(const ParamTable& p)
      : body_(p.index("body")),
        point_(p.vec3("point", Vec3::Zero())),
        force_(p.vec3("force", Vec3::Zero())) {}
  std::string kind() const override { return "point-force"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<PointForce>(*this); }

  void validate(const World& world) const override {
    if (body_ < 0 || body_ >= world.size())
      throw InputError("point-force: body " + std::to_string(body_) + " does not exist");
  }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    const World& world = s.world;
    const Vec3 arm = world.q[body_] * point_;
    out.force.col(body_) += force_;
    out.torque.col(body_) += arm.cross(force_);
    out.external_force.col(body_) += force_;
    out.external_torque.col(body_) += arm.cross(force_);
  }
  unsigned body_work() const override { return kExternalWork; }
  bool jacobian(const StateView&, Triplets&, Triplets&) const override { return true; }
  void save(ParamTable& out) const override {
    out.set("body", double(body_));
    out.set("point", std::vector<double>{point_.x(), point_.y(), point_.z()});
    out.set("force", std::vector<double>{force_.x(), force_.y(), force_.z()});
  }
  std::vector<Tunable> tunables() const override {
    return {{"F", force_.norm(), "magnitude of the applied force (direction kept)"}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "F" && force_.norm() > 0) force_ *= value / force_.norm();
  }

 private:
  int body_;
  Vec3 point_, force_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("point-force", PointForce);
}  // namespace stepwise
