// Quadratic (form) drag: F = -c |v| v, torque = -c_rot |w| w. Dissipates c |v|^3 + c_rot |w|^3.
#include "core/world.hpp"

namespace stepwise {
namespace {

class QuadraticDrag final : public ForceModel {
 public:
  explicit QuadraticDrag(const ParamTable& p)
      : c_(p.number("c", 0.1)), c_rot_(p.number("c_rot", 0.0)) {
    if (c_ < 0 || c_rot_ < 0) throw InputError(p.where() + ": drag coefficients must be >= 0");
  }
  std::string kind() const override { return "quadratic-drag"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<QuadraticDrag>(*this); }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    for (Eigen::Index i = 0; i < s.x.cols(); ++i) {
      const double speed = s.v.col(i).norm(), spin = s.w.col(i).norm();
      const Vec3 f = -c_ * speed * s.v.col(i), t = -c_rot_ * spin * s.w.col(i);
      out.force.col(i) += f;
      out.torque.col(i) += t;
      out.drag_force.col(i) += f;
      out.drag_torque.col(i) += t;
    }
  }
  // dF/dv = -c (|v| I + v v^T / |v|)
  bool body_work() const override { return true; }
  bool jacobian(const StateView& s, Triplets&, Triplets& dfdv) const override {
    for (Eigen::Index i = 0; i < s.x.cols(); ++i) {
      const Vec3 v = s.v.col(i);
      const double speed = v.norm();
      Mat3 block = speed * Mat3::Identity();
      if (speed > 0) block += v * v.transpose() / speed;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          if (block(r, c) != 0) dfdv.emplace_back(3 * i + r, 3 * i + c, -c_ * block(r, c));
    }
    return true;
  }
  void save(ParamTable& out) const override {
    out.set("c", c_);
    out.set("c_rot", c_rot_);
  }
  std::vector<Tunable> tunables() const override {
    return {{"c", c_, "drag force per squared speed"}, {"c_rot", c_rot_, "drag torque per squared spin"}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "c") c_ = std::max(0.0, value);
    if (name == "c_rot") c_rot_ = std::max(0.0, value);
  }

 private:
  double c_, c_rot_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("quadratic-drag", QuadraticDrag);
}  // namespace stepwise
