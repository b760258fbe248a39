// Quadratic (form) drag: F = -c |v| v, torque = -c_rot |w| w.
#include "core/forces/drag_base.hpp"

namespace stepwise {
namespace {

class QuadraticDrag final : public DragBase {
 public:
  using DragBase::DragBase;
  std::string kind() const override { return "quadratic-drag"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<QuadraticDrag>(*this); }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    for (Eigen::Index i = 0; i < s.x.cols(); ++i)
      add(out, i, -c_ * s.v.col(i).norm() * s.v.col(i), -c_rot_ * s.w.col(i).norm() * s.w.col(i));
  }
  // dF/dv = -c (|v| I + v v^T / |v|)
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
};

}  // namespace
STEPWISE_REGISTER_FORCE("quadratic-drag", QuadraticDrag);
}  // namespace stepwise
