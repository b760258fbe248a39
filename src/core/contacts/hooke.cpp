// The linear spring-dashpot law of LAMMPS' gran/hooke/history: constant kn, kt, gamma_n, gamma_t.
// Materials: kn and kt in series (each material's value is that of a contact between two bodies
// of it, so half-springs of 2 kn; a rigid wall doubles the body's), damping rates averaged (a
// rigid wall: the body's).
#include "core/contacts/granular_contact.hpp"

namespace stepwise {
namespace {

struct HookeLaw {
  static constexpr const char* kName = "hooke";
  static constexpr bool kConstant = true;  // kn, kt, gammas independent of the overlap
  double kn, kt, gamma_n, gamma_t;
  // From a [[force]] table, or a material's keys over the model's own law (`base`): a material
  // giving kn alone keeps the model's kt / kn and gamma_t / gamma_n ratios.
  explicit HookeLaw(const ParamTable& p, const HookeLaw* base = nullptr)
      : kn(p.number("kn", base ? base->kn : 2000.0)),
        kt(p.number("kt", base ? ratio(base->kt, base->kn) * kn : 2.0 / 7.0 * kn)),
        gamma_n(p.number("gamma_n", base ? base->gamma_n : 50.0)),
        gamma_t(p.number("gamma_t", base ? ratio(base->gamma_t, base->gamma_n) * gamma_n
                                         : 0.5 * gamma_n)) {
    for (double v : {kn, kt, gamma_n, gamma_t})
      if (!(v >= 0) || !std::isfinite(v))
        throw InputError(p.where() + ": hooke kn, kt, gamma_n, gamma_t must be finite and >= 0");
  }
  static double ratio(double a, double b) { return b > 0 ? a / b : 0; }
  static const std::vector<std::string>& keys() {
    static const std::vector<std::string> k = {"kn", "kt", "gamma_n", "gamma_t"};
    return k;
  }
  static const std::vector<std::string>& pair_keys() { return keys(); }
  static HookeLaw mix(const HookeLaw& a, const HookeLaw& b, bool rigid) {
    auto series = [rigid](double x, double y) {
      return rigid ? 2 * x : x + y > 0 ? 2 * x * y / (x + y) : 0.0;
    };
    HookeLaw out = a;
    out.kn = series(a.kn, b.kn);
    out.kt = series(a.kt, b.kt);
    if (!rigid) out.gamma_n = 0.5 * (a.gamma_n + b.gamma_n), out.gamma_t = 0.5 * (a.gamma_t + b.gamma_t);
    return out;
  }
  void override_pair(const ParamTable& p) {
    kn = p.number("kn", kn), kt = p.number("kt", kt);
    gamma_n = p.number("gamma_n", gamma_n), gamma_t = p.number("gamma_t", gamma_t);
  }
  ContactCoefficients at(double, double, double) const { return {kn, kt, gamma_n, gamma_t}; }
  double normal_energy(double delta, double) const { return 0.5 * kn * delta * delta; }
  void save(ParamTable& out) const {
    out.set("kn", kn);
    out.set("kt", kt);
    out.set("gamma_n", gamma_n);
    out.set("gamma_t", gamma_t);
  }
  void coefficients(ParamTable& out) const { save(out); }  // a pair's are its own keys
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
