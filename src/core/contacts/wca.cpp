// Generalised Weeks-Chandler-Andersen repulsion, U = 4 eps [(s/r)^2l - (s/r)^l] + eps, cut at its
// minimum r = 2^(1/l) s (the seed's 2^(1/6) s is l = 6). s is chosen per pair so that the cut-off
// is where the spheres' surfaces touch, s = (r_i + r_j) 2^(-1/l): energy and force both reach
// zero there continuously.
#include <cmath>

#include "core/contacts/pair_potential.hpp"

namespace stepwise {
namespace {

class Wca final : public PairPotential {
 public:
  explicit Wca(const ParamTable& p)
      : PairPotential(p), epsilon_(p.number("epsilon", 1.0)), l_(p.number("l", 6.0)) {
    if (!(epsilon_ >= 0) || !(l_ >= 1)) throw InputError(p.where() + ": need epsilon >= 0 and l >= 1");
  }
  std::string kind() const override { return "wca"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<Wca>(*this); }
  void pair(double r, double reach, double& energy, double& force) const override {
    const double sigma = reach * std::pow(2.0, -1.0 / l_);
    const double a = std::pow(sigma / r, l_);  // (s/r)^l
    energy = 4 * epsilon_ * (a * a - a) + epsilon_;
    force = 4 * epsilon_ * l_ * (2 * a * a - a) / r;
  }
  void save(ParamTable& out) const override {
    out.set("epsilon", epsilon_);
    out.set("l", l_);
    save_common(out);
  }
  std::vector<Tunable> tunables() const override {
    return {{"epsilon", epsilon_, "energy scale"}, {"l", l_, "stiffness exponent", 1, 100}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "epsilon") epsilon_ = value;
    if (name == "l") l_ = value;
  }

 private:
  double epsilon_, l_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("wca", Wca);
}  // namespace stepwise
