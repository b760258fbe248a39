// Linear (Stokes) drag from a medium: F = -c v, torque = -c_rot w.
#include "core/forces/drag_base.hpp"

namespace stepwise {
namespace {

class LinearDrag final : public DragBase {
 public:
  using DragBase::DragBase;
  std::string kind() const override { return "linear-drag"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<LinearDrag>(*this); }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    for (Eigen::Index i = 0; i < s.x.cols(); ++i) add(out, i, -c_ * s.v.col(i), -c_rot_ * s.w.col(i));
  }
  bool jacobian(const StateView& s, Triplets&, Triplets& dfdv) const override {
    for (Eigen::Index j = 0; j < 3 * s.x.cols(); ++j) dfdv.emplace_back(j, j, -c_);
    return true;
  }
};

}  // namespace
STEPWISE_REGISTER_FORCE("linear-drag", LinearDrag);
}  // namespace stepwise
