// The window's "grab and pull": a spring from a body's centre to a target point the user moves,
// with a dashpot on the body's velocity (critical by default, so a pulled body follows the hand
// instead of being flung off). The hand is outside the system: the work of both, F . v, is
// booked as external work.
#include "core/world.hpp"

namespace stepwise {
namespace {

class MouseSpring final : public ForceModel {
 public:
  explicit MouseSpring(const ParamTable& p)
      : body_(p.index("body")),
        target_(p.vec3("target", Vec3::Zero())),
        k_(p.number("k", 10.0)),
        zeta_(p.number("zeta", 1.0)) {
    if (!(k_ >= 0) || !std::isfinite(k_)) throw InputError(p.where() + ": k must be finite and >= 0");
    if (!(zeta_ >= 0) || !std::isfinite(zeta_))
      throw InputError(p.where() + ": zeta must be finite and >= 0");
  }
  std::string kind() const override { return "mouse-spring"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<MouseSpring>(*this); }

  void validate(const World& world) const override {
    if (body_ < 0 || body_ >= world.size())
      throw InputError("mouse-spring: body " + std::to_string(body_) + " does not exist");
  }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    // c = 2 zeta sqrt(k m): zeta = 1 is critical damping for this body on this spring.
    const double c = 2 * zeta_ * std::sqrt(k_ * s.world.mass(body_));
    const Vec3 f = k_ * (target_ - s.x.col(body_)) - c * s.v.col(body_);
    out.force.col(body_) += f;
    out.external_force.col(body_) += f;
  }
  unsigned body_work() const override { return kExternalWork; }
  bool jacobian(const StateView& s, Triplets& dfdx, Triplets& dfdv) const override {
    const double c = 2 * zeta_ * std::sqrt(k_ * s.world.mass(body_));
    for (int a = 0; a < 3; ++a)
      dfdx.emplace_back(3 * body_ + a, 3 * body_ + a, -k_),
          dfdv.emplace_back(3 * body_ + a, 3 * body_ + a, -c);
    return true;
  }
  double max_frequency(const World& world) const override {
    return world.inv_mass(body_) > 0 ? std::sqrt(k_ * world.inv_mass(body_)) : 0.0;
  }
  void save(ParamTable& out) const override {
    out.set("body", double(body_));
    out.set("target", std::vector<double>{target_.x(), target_.y(), target_.z()});
    out.set("k", k_);
    out.set("zeta", zeta_);
  }
  std::vector<Tunable> tunables() const override {
    return {{"k", k_, "pull stiffness"},
            {"target_x", target_.x(), "pulled-to point", -kTunableMax, kTunableMax},
            {"target_y", target_.y(), "pulled-to point", -kTunableMax, kTunableMax},
            {"target_z", target_.z(), "pulled-to point", -kTunableMax, kTunableMax}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "k") k_ = value;
    if (name == "target_x") target_.x() = value;
    if (name == "target_y") target_.y() = value;
    if (name == "target_z") target_.z() = value;
  }

 private:
  int body_;
  Vec3 target_;
  double k_, zeta_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("mouse-spring", MouseSpring);
}  // namespace stepwise
