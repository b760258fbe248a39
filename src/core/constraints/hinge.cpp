// A hinge: a ball joint whose two bodies also keep an axis in common (axis_a in a's frame, axis_b
// in b's, or in the world's for a hinge to a fixed point). Two more rows, C_k = t_k · u_b with
// t_1, t_2 fixed in a and perpendicular to its axis: Ċ_k = (ω_a - ω_b) · (t_k × u_b), and
// C̈_k = J q̈ + (ω_a - ω_b) · ((ω_a × t_k) × u_b + t_k × (ω_b × u_b)).
#include "core/constraints/constraint.hpp"
#include "core/world.hpp"

namespace stepwise {

namespace {

class Hinge final : public Constraint {
 public:
  explicit Hinge(const ParamTable& p)
      : a_(read_end(p, "a", "point_a", -1)),
        b_(read_other_end(p)),
        axis_a_(read_direction(p, "axis_a", Vec3::UnitZ())),
        axis_b_(read_direction(p, "axis_b", Vec3::UnitZ())) {
    // Two directions perpendicular to a's axis, fixed in a.
    const Vec3 helper = std::abs(axis_a_.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
    t1_ = axis_a_.cross(helper).normalized();
    t2_ = axis_a_.cross(t1_);
  }
  std::string kind() const override { return "hinge"; }
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<Hinge>(*this); }
  int rows() const override { return 5; }
  bool angular() const override { return true; }
  std::pair<int, int> bodies() const override { return {a_.body, b_.body}; }

  void evaluate(const ConstraintState& s, ConstraintRow* row) const override {
    ball_rows(s, a_, b_, row);
    const Vec3 wa = s.w.col(a_.body);
    const Vec3 wb = b_.body >= 0 ? Vec3(s.w.col(b_.body)) : Vec3::Zero();
    const Vec3 u = b_.body >= 0 ? Vec3(s.world.q[b_.body] * axis_b_) : axis_b_;
    const Quat& qa = s.world.q[a_.body];
    for (int k = 0; k < 2; ++k) {
      const Vec3 t = qa * (k == 0 ? t1_ : t2_);
      ConstraintRow& r = row[3 + k];
      r.c = t.dot(u);
      r.body[0] = a_.body, r.body[1] = b_.body;
      r.ang[0] = t.cross(u), r.ang[1] = -t.cross(u);
      r.bias = (wa - wb).dot(wa.cross(t).cross(u) + t.cross(wb.cross(u)));
    }
  }

  void segments(const ConstraintState& s, std::vector<std::pair<Vec3, Vec3>>& out) const override {
    joint_segments(s, a_, b_, out);
    // The hinge's axis, a short line through the joint.
    const Vec3 joint = attach(s, b_.body, b_.point).position;
    const Vec3 axis = s.world.q[a_.body] * axis_a_;
    const double size = 0.25 * (s.x.col(a_.body) - joint).norm();
    out.push_back({joint - size * axis, joint + size * axis});
  }

  void save(ParamTable& out) const override {
    write_ends(out, a_, b_);
    out.set("axis_a", std::vector<double>{axis_a_.x(), axis_a_.y(), axis_a_.z()});
    out.set("axis_b", std::vector<double>{axis_b_.x(), axis_b_.y(), axis_b_.z()});
  }

 private:
  JointEnd a_, b_;
  Vec3 axis_a_, axis_b_, t1_, t2_;
};

}  // namespace
STEPWISE_REGISTER_CONSTRAINT("hinge", Hinge);
}  // namespace stepwise
