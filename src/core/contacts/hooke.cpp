// The linear spring-dashpot law of LAMMPS' gran/hooke/history: constant kn, kt, gamma_n, gamma_t.
#include "core/contacts/granular_contact.hpp"

namespace stepwise {
namespace {

struct HookeLaw {
  static constexpr const char* kName = "hooke";
  static constexpr bool kConstant = true;  // kn, kt, gammas independent of the overlap
  double kn, kt, gamma_n, gamma_t;
  explicit HookeLaw(const ParamTable& p)
      : kn(p.number("kn", 2000.0)), kt(p.number("kt", 2.0 / 7.0 * kn)),
        gamma_n(p.number("gamma_n", 50.0)), gamma_t(p.number("gamma_t", 0.5 * gamma_n)) {
    for (double v : {kn, kt, gamma_n, gamma_t})
      if (!(v >= 0) || !std::isfinite(v))
        throw InputError(p.where() + ": hooke kn, kt, gamma_n, gamma_t must be finite and >= 0");
  }
  ContactCoefficients at(double, double, double) const { return {kn, kt, gamma_n, gamma_t}; }
  double normal_energy(double delta, double) const { return 0.5 * kn * delta * delta; }
  void save(ParamTable& out) const {
    out.set("kn", kn);
    out.set("kt", kt);
    out.set("gamma_n", gamma_n);
    out.set("gamma_t", gamma_t);
  }
  std::vector<Tunable> tunables() const {
    return {{"kn", kn, "normal stiffness"}, {"kt", kt, "tangential stiffness"},
            {"gamma_n", gamma_n, "normal damping rate"}, {"gamma_t", gamma_t, "tangential damping rate"}};
  }
  void set(const std::string& name, double value) {
    if (name == "kn") kn = value;
    else if (name == "kt") kt = value;
    else if (name == "gamma_n") gamma_n = value;
    else if (name == "gamma_t") gamma_t = value;
  }
};

}  // namespace
STEPWISE_REGISTER_FORCE("hooke", GranularContacts<HookeLaw>);
}  // namespace stepwise
