// A ball joint: a point of body a and a point of body b (or a fixed anchor) coincide. Three rows,
// C = P_a - P_b along x, y, z: J = ±e_k on the velocities, ±(arm × e_k) on the spins, and
// C̈ = J q̈ + ω_a × (ω_a × arm_a) - ω_b × (ω_b × arm_b).
#include "core/constraints/constraint.hpp"

namespace stepwise {

// From each body's centre to the joint.
void joint_segments(const ConstraintState& s, const JointEnd& a, const JointEnd& b,
                    std::vector<std::pair<Vec3, Vec3>>& out) {
  const Vec3 joint = attach(s, b.body, b.point).position;
  out.push_back({Vec3(s.x.col(a.body)), joint});
  if (b.body >= 0) out.push_back({Vec3(s.x.col(b.body)), joint});
}

void ball_rows(const ConstraintState& s, const JointEnd& a, const JointEnd& b, ConstraintRow* row) {
  const Attachment pa = attach(s, a.body, a.point), pb = attach(s, b.body, b.point);
  const Vec3 c = pa.position - pb.position, bias = pa.centripetal - pb.centripetal;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e = Vec3::Unit(k);
    row[k].c = c(k);
    row[k].bias = bias(k);
    row[k].body[0] = a.body, row[k].body[1] = b.body;
    row[k].lin[0] = e, row[k].ang[0] = pa.arm.cross(e);
    row[k].lin[1] = -e, row[k].ang[1] = -pb.arm.cross(e);
  }
}

JointEnd read_other_end(const ParamTable& p) {
  return p.has("b") ? read_end(p, "b", "point_b", -1) : read_end(p, "none", "anchor", -1);
}

void write_ends(ParamTable& out, const JointEnd& a, const JointEnd& b) {
  write_end(out, a, "a", "point_a");
  write_end(out, b, "b", b.body >= 0 ? "point_b" : "anchor");
}

namespace {

class Ball final : public Constraint {
 public:
  explicit Ball(const ParamTable& p) : a_(read_end(p, "a", "point_a", -1)), b_(read_other_end(p)) {}
  std::string kind() const override { return "ball"; }
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<Ball>(*this); }
  int rows() const override { return 3; }
  bool angular() const override { return off_centre(a_, b_); }
  std::pair<int, int> bodies() const override { return {a_.body, b_.body}; }
  void evaluate(const ConstraintState& s, ConstraintRow* row) const override {
    ball_rows(s, a_, b_, row);
  }
  void positions_error(const ConstraintState& s, double* c) const override {
    const Vec3 d =
        attached_position(s, a_.body, a_.point) - attached_position(s, b_.body, b_.point);
    for (int k = 0; k < 3; ++k) c[k] = d(k);
  }
  void segments(const ConstraintState& s, std::vector<std::pair<Vec3, Vec3>>& out) const override {
    joint_segments(s, a_, b_, out);
  }
  void save(ParamTable& out) const override { write_ends(out, a_, b_); }

 private:
  JointEnd a_, b_;
};

}  // namespace
STEPWISE_REGISTER_CONSTRAINT("ball", Ball);
}  // namespace stepwise
