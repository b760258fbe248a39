// A rigid massless rod: the distance between a point of body a and a point of body b (or a fixed
// anchor) stays `length`. C = |d| - L with d = P_a - P_b, so J = ±n (n = d/|d|) on the
// velocities and ±(arm × n) on the spins; C̈ = n·d̈ + (|ḋ|² - (n·ḋ)²)/|d|.
#include <cmath>

#include "core/constraints/constraint.hpp"

namespace stepwise {
namespace {

class Rod final : public Constraint {
 public:
  explicit Rod(const ParamTable& p) {
    a_ = read_end(p, "a", "point_a", -1);
    b_ = read_other_end(p);
    length_ = p.number("length");
    if (!(length_ > 0 && length_ <= 1e12))
      throw InputError(p.where("length") + ": length must be in (0, 1e12]");
  }
  std::string kind() const override { return "rod"; }
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<Rod>(*this); }
  int rows() const override { return 1; }
  bool angular() const override { return off_centre(a_, b_); }
  std::pair<int, int> bodies() const override { return {a_.body, b_.body}; }

  void evaluate(const ConstraintState& s, ConstraintRow* row) const override {
    const Attachment pa = attach(s, a_.body, a_.point), pb = attach(s, b_.body, b_.point);
    const Vec3 d = pa.position - pb.position, dv = pa.velocity - pb.velocity;
    const double len = d.norm();
    // Two ends at one point have no direction: keep the last one's sense (x) rather than NaN.
    const Vec3 n = len > 0 ? Vec3(d / len) : Vec3::UnitX();
    row->c = len - length_;
    row->body[0] = a_.body, row->body[1] = b_.body;
    row->lin[0] = n, row->ang[0] = pa.arm.cross(n);
    row->lin[1] = -n, row->ang[1] = -pb.arm.cross(n);
    const double vn = n.dot(dv);
    row->bias = n.dot(pa.centripetal - pb.centripetal) +
                (len > 0 ? (dv.squaredNorm() - vn * vn) / len : 0.0);
  }

  void positions_error(const ConstraintState& s, double* c) const override {
    const Vec3 d =
        attached_position(s, a_.body, a_.point) - attached_position(s, b_.body, b_.point);
    c[0] = d.norm() - length_;
  }

  void segments(const ConstraintState& s, std::vector<std::pair<Vec3, Vec3>>& out) const override {
    out.push_back({attach(s, a_.body, a_.point).position, attach(s, b_.body, b_.point).position});
  }

  void save(ParamTable& out) const override {
    write_ends(out, a_, b_);
    out.set("length", length_);
  }

 private:
  JointEnd a_, b_;
  double length_ = 1;
};

}  // namespace
STEPWISE_REGISTER_CONSTRAINT("rod", Rod);
}  // namespace stepwise
