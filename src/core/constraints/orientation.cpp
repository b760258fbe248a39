// Fixed orientation: body a keeps the orientation `target` (w, x, y, z), in the world's frame or,
// with b, relative to body b (q_a = q_b target). Three rows, C = the rotation vector of the
// error q_a (q_b target)* to first order (2 × its vector part, sign taken so w ≥ 0); Ċ = ω_a - ω_b
// on the manifold, J = ±e_k on the spins, no bias.
#include <cmath>

#include "core/constraints/constraint.hpp"
#include "core/quaternion.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

class Orientation final : public Constraint {
 public:
  explicit Orientation(const ParamTable& p) : a_(p.index("a")), b_(p.index("b", -1)) {
    const std::vector<double> t = p.numbers("target", {1, 0, 0, 0});
    if (t.size() != 4) throw InputError(p.where("target") + ": target must be [w, x, y, z]");
    target_ = Quat(t[0], t[1], t[2], t[3]);
    const double n = target_.norm();
    if (!(n > 1e-9 && n < 1e12))
      throw InputError(p.where("target") + ": target must be a nonzero quaternion");
    target_.coeffs() /= n;
  }
  std::string kind() const override { return "orientation"; }
  std::unique_ptr<Constraint> clone() const override {
    return std::make_unique<Orientation>(*this);
  }
  int rows() const override { return 3; }
  bool angular() const override { return true; }
  std::pair<int, int> bodies() const override { return {a_, b_}; }

  void evaluate(const ConstraintState& s, ConstraintRow* row) const override {
    const Quat goal = b_ >= 0 ? quat::product(s.world.q[b_], target_) : target_;
    const Quat error = quat::product(s.world.q[a_], quat::conjugate(goal));
    const Vec3 c = 2.0 * (error.w() < 0 ? -1.0 : 1.0) * error.vec();
    for (int k = 0; k < 3; ++k) {
      row[k].c = c(k);
      row[k].body[0] = a_, row[k].body[1] = b_;
      row[k].ang[0] = Vec3::Unit(k), row[k].ang[1] = -Vec3::Unit(k);
    }
  }

  void save(ParamTable& out) const override {
    out.set("a", double(a_));
    if (b_ >= 0) out.set("b", double(b_));
    out.set("target", std::vector<double>{target_.w(), target_.x(), target_.y(), target_.z()});
  }

 private:
  int a_, b_;
  Quat target_;
};

}  // namespace
STEPWISE_REGISTER_CONSTRAINT("orientation", Orientation);
}  // namespace stepwise
