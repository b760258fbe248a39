// Soft harmonic repulsion U = 1/2 k delta^2 on the overlap delta = r_i + r_j - r.
#include "core/contacts/pair_potential.hpp"

namespace stepwise {
namespace {

class SoftRepulsion final : public PairPotential {
 public:
  explicit SoftRepulsion(const ParamTable& p) : PairPotential(p), k_(p.number("k", 100.0)) {
    if (!(k_ >= 0)) throw InputError(p.where() + ": k must be >= 0");
  }
  std::string kind() const override { return "soft"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<SoftRepulsion>(*this); }
  void pair(double r, double reach, double& energy, double& force) const override {
    const double overlap = reach - r;
    energy = 0.5 * k_ * overlap * overlap;
    force = k_ * overlap;
  }
  void save(ParamTable& out) const override {
    out.set("k", k_);
    save_common(out);
  }
  std::vector<Tunable> tunables() const override { return {{"k", k_, "repulsion stiffness"}}; }
  void set_tunable(const std::string& name, double value) override {
    if (name == "k") k_ = value;
  }

 private:
  double k_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("soft", SoftRepulsion);
}  // namespace stepwise
