// A bead on a hoop: body a's centre stays on a circle of radius R about `centre`, in the plane
// whose normal is `normal` at t = 0; the hoop may spin at `omega` about `spin_axis` through its
// centre (the bead on a rotating hoop). Two rows:
//   C_1 = n(t) · (x - c)  (in the hoop's plane; moves with it: ∂C/∂t = ṅ · (x - c)),
//   C_2 = |x - c| - R     (at the hoop's radius),
// with ṅ = ω s × n, n̈ = ω s × ṅ, so C̈_1 = n · a + 2 ṅ · v + n̈ · (x - c) and
// C̈_2 = u · a + (|v|² - (u · v)²) / |x - c|, u = (x - c)/|x - c|.
// The hoop's motor does work on the bead: the model books it as external work.
#include <cmath>

#include "core/constraints/constraint.hpp"
#include "core/quaternion.hpp"

namespace stepwise {
namespace {

class Hoop final : public Constraint {
 public:
  explicit Hoop(const ParamTable& p)
      : body_(p.index("a")),
        centre_(p.vec3("centre", Vec3::Zero())),
        radius_(p.number("R")),
        omega_(p.number("omega", 0.0)),
        normal_(read_direction(p, "normal", Vec3::UnitY())),
        spin_axis_(read_direction(p, "spin_axis", Vec3::UnitZ())) {
    if (!(radius_ > 0 && radius_ <= 1e12))
      throw InputError(p.where("R") + ": R must be in (0, 1e12]");
    if (!(std::abs(omega_) <= 1e6))
      throw InputError(p.where("omega") + ": omega must be within +-1e6");
    if (!centre_.allFinite() || centre_.norm() > 1e12)
      throw InputError(p.where("centre") + ": centre must be finite, below 1e12");
  }
  std::string kind() const override { return "hoop"; }
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<Hoop>(*this); }
  int rows() const override { return 2; }
  bool angular() const override { return false; }
  bool moving() const override { return omega_ != 0; }
  std::pair<int, int> bodies() const override { return {body_, -1}; }

  void evaluate(const ConstraintState& s, ConstraintRow* row) const override {
    const Vec3 r = s.x.col(body_) - centre_, v = s.v.col(body_);
    const Vec3 n = quat::rotate(quat::from_axis_angle(spin_axis_, omega_ * s.t), normal_);
    const Vec3 n_dot = omega_ * spin_axis_.cross(n), n_ddot = omega_ * spin_axis_.cross(n_dot);
    row[0].body[0] = row[1].body[0] = body_;
    row[0].c = n.dot(r);
    row[0].dcdt = n_dot.dot(r);
    row[0].lin[0] = n;
    row[0].bias = 2 * n_dot.dot(v) + n_ddot.dot(r);
    const double len = r.norm();
    const Vec3 u = len > 0 ? Vec3(r / len) : Vec3::UnitX();
    row[1].c = len - radius_;
    row[1].lin[0] = u;
    const double vu = u.dot(v);
    row[1].bias = len > 0 ? (v.squaredNorm() - vu * vu) / len : 0.0;
  }

  void segments(const ConstraintState& s, std::vector<std::pair<Vec3, Vec3>>& out) const override {
    const Vec3 n = quat::rotate(quat::from_axis_angle(spin_axis_, omega_ * s.t), normal_);
    const Vec3 e1 = n.unitOrthogonal(), e2 = n.cross(e1);
    constexpr int kSides = 64;
    auto at = [&](int k) {
      const double phi = 2 * M_PI * k / kSides;
      return Vec3(centre_ + radius_ * (std::cos(phi) * e1 + std::sin(phi) * e2));
    };
    for (int k = 0; k < kSides; ++k) out.push_back({at(k), at(k + 1)});
  }

  void save(ParamTable& out) const override {
    out.set("a", double(body_));
    out.set("centre", std::vector<double>{centre_.x(), centre_.y(), centre_.z()});
    out.set("R", radius_);
    out.set("omega", omega_);
    out.set("normal", std::vector<double>{normal_.x(), normal_.y(), normal_.z()});
    out.set("spin_axis", std::vector<double>{spin_axis_.x(), spin_axis_.y(), spin_axis_.z()});
  }

 private:
  int body_;
  Vec3 centre_;
  double radius_, omega_;
  Vec3 normal_, spin_axis_;
};

}  // namespace
STEPWISE_REGISTER_CONSTRAINT("hoop", Hoop);
}  // namespace stepwise
