// Central inverse-square field: F = -GM m r/|r|^3 about a centre, U = -GM m/|r| (Kepler orbits).
#include <cmath>

#include "core/world.hpp"

namespace stepwise {
namespace {

class CentralField final : public ForceModel {
 public:
  explicit CentralField(const ParamTable& p)
      : gm_(p.number("GM", 1.0)), centre_(p.vec3("center", Vec3::Zero())) {
    if (!(gm_ > 0)) throw InputError(p.where() + ": GM must be positive");
  }
  std::string kind() const override { return "central"; }
  bool names_bodies() const override { return false; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<CentralField>(*this); }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    for (Eigen::Index i = 0; i < s.x.cols(); ++i) {
      const Vec3 r = s.x.col(i) - centre_;
      const double d = r.norm();
      const double m = s.world.mass(i);
      out.force.col(i) -= gm_ * m / (d * d * d) * r;
      out.potential -= gm_ * m / d;
    }
  }
  // dF/dx = -GM m (I/r^3 - 3 r r^T/r^5)
  bool jacobian(const StateView& s, Triplets& dfdx, Triplets&) const override {
    for (Eigen::Index i = 0; i < s.x.cols(); ++i) {
      const Vec3 r = s.x.col(i) - centre_;
      const double d = r.norm();
      const Mat3 block = -gm_ * s.world.mass(i) *
                         (Mat3::Identity() / (d * d * d) - 3.0 * r * r.transpose() / std::pow(d, 5));
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) dfdx.emplace_back(3 * i + a, 3 * i + b, block(a, b));
    }
    return true;
  }
  double max_frequency(const World& world) const override {
    double omega = 0;
    for (int i = 0; i < world.size(); ++i) {
      const double d = (world.x.col(i) - centre_).norm();
      omega = std::max(omega, std::sqrt(2.0 * gm_ / (d * d * d)));
    }
    return omega;
  }
  void save(ParamTable& out) const override {
    out.set("GM", gm_);
    out.set("center", std::vector<double>{centre_.x(), centre_.y(), centre_.z()});
  }
  std::vector<Tunable> tunables() const override {
    return {{"GM", gm_, "field strength G M", 1e-12, kTunableMax}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "GM") gm_ = value;
  }

 private:
  double gm_;
  Vec3 centre_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("central", CentralField);
}  // namespace stepwise
