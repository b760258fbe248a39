// Linear (Stokes) drag from a medium: F = -c v, torque = -c_rot w. Dissipates c v^2 + c_rot w^2.
#include "core/world.hpp"

namespace stepwise {
namespace {

class LinearDrag final : public ForceModel {
 public:
  explicit LinearDrag(const ParamTable& p)
      : c_(p.number("c", 0.1)), c_rot_(p.number("c_rot", 0.0)) {
    if (c_ < 0 || c_rot_ < 0) throw InputError(p.where() + ": drag coefficients must be >= 0");
  }
  std::string kind() const override { return "linear-drag"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<LinearDrag>(*this); }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    for (Eigen::Index i = 0; i < s.x.cols(); ++i) {
      const Vec3 f = -c_ * s.v.col(i), t = -c_rot_ * s.w.col(i);
      out.force.col(i) += f;
      out.torque.col(i) += t;
      out.drag_force.col(i) += f;
      out.drag_torque.col(i) += t;
    }
  }
  bool body_work() const override { return true; }
  bool jacobian(const StateView& s, Triplets&, Triplets& dfdv) const override {
    for (Eigen::Index j = 0; j < 3 * s.x.cols(); ++j) dfdv.emplace_back(j, j, -c_);
    return true;
  }
  void save(ParamTable& out) const override {
    out.set("c", c_);
    out.set("c_rot", c_rot_);
  }
  std::vector<Tunable> tunables() const override {
    return {{"c", c_, "drag force per unit velocity"}, {"c_rot", c_rot_, "drag torque per unit spin"}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "c") c_ = std::max(0.0, value);
    if (name == "c_rot") c_rot_ = std::max(0.0, value);
  }

 private:
  double c_, c_rot_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("linear-drag", LinearDrag);
}  // namespace stepwise
