// Hertz-Mindlin: F_n = 4/3 E* sqrt(R* delta) delta, tangential stiffness 8 G* sqrt(R* delta), and
// damping set from the restitution e (Tsuji-type, as LIGGGHTS): beta = ln e / sqrt(ln^2 e + pi^2),
// m_eff gamma = -2 sqrt(5/6) beta sqrt(S m_eff) with S = 2 E* sqrt(R* delta) (normal) or
// 8 G* sqrt(R* delta) (tangential). Two materials: 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2 and
// 1/G* = (2 - nu1)/G1 + (2 - nu2)/G2 with G = E / (2 (1 + nu)); a rigid wall drops its terms;
// e is the smaller of the two (a pair table may say otherwise).
#include "core/contacts/granular_contact.hpp"

namespace stepwise {
namespace {

struct HertzLaw {
  static constexpr const char* kName = "hertz";
  static constexpr bool kConstant = false;
  double young, poisson, restitution;
  double e_star = 0, g_star = 0, beta = 0;
  // From a [[force]] table, or a material's keys over the model's own law (`base`).
  explicit HertzLaw(const ParamTable& p, const HertzLaw* base = nullptr)
      : young(p.number("E", base ? base->young : 1e6)),
        poisson(p.number("nu", base ? base->poisson : 0.3)),
        restitution(p.number("e", base ? base->restitution : 0.8)) {
    if (!(young > 0) || !(poisson > -1 && poisson < 0.5) || !(restitution > 0 && restitution <= 1))
      throw InputError(p.where() + ": hertz needs E > 0, -1 < nu < 0.5 and 0 < e <= 1");
    update();
  }
  static const std::vector<std::string>& keys() {
    static const std::vector<std::string> k = {"E", "nu", "e"};
    return k;
  }
  static const std::vector<std::string>& pair_keys() {
    static const std::vector<std::string> k = {"e"};
    return k;
  }
  // The compliances of one body of this material.
  double normal_compliance() const { return (1 - poisson * poisson) / young; }
  double shear_compliance() const { return (2 - poisson) * 2 * (1 + poisson) / young; }
  static HertzLaw mix(const HertzLaw& a, const HertzLaw& b, bool rigid) {
    HertzLaw out = a;
    out.e_star = 1 / (a.normal_compliance() + (rigid ? 0 : b.normal_compliance()));
    out.g_star = 1 / (a.shear_compliance() + (rigid ? 0 : b.shear_compliance()));
    out.set_restitution(std::min(a.restitution, b.restitution));
    return out;
  }
  void override_pair(const ParamTable& p) { set_restitution(p.number("e", restitution)); }
  void update() {
    e_star = young / (2 * (1 - poisson * poisson));
    g_star = young / (4 * (1 + poisson) * (2 - poisson));
    set_restitution(restitution);
  }
  void set_restitution(double e) {
    restitution = e;
    const double log_e = std::log(restitution);
    beta = log_e / std::sqrt(log_e * log_e + M_PI * M_PI);
  }
  ContactCoefficients at(double delta, double r_eff, double m_eff) const {
    const double root = std::sqrt(r_eff * std::max(delta, 0.0));
    const double s_n = 2 * e_star * root, s_t = 8 * g_star * root;
    const double damping = -2 * std::sqrt(5.0 / 6.0) * beta / m_eff;
    return {4.0 / 3.0 * e_star * root, s_t, damping * std::sqrt(s_n * m_eff),
            damping * std::sqrt(s_t * m_eff)};
  }
  double normal_energy(double delta, double r_eff) const {
    return 8.0 / 15.0 * e_star * std::sqrt(r_eff) * std::pow(delta, 2.5);
  }
  void save(ParamTable& out) const {
    out.set("E", young);
    out.set("nu", poisson);
    out.set("e", restitution);
  }
  // A pair's law: the mixed moduli, not either material's E and nu.
  void coefficients(ParamTable& out) const {
    out.set("E_star", e_star);
    out.set("G_star", g_star);
    out.set("e", restitution);
  }
  std::vector<Tunable> tunables() const {
    return {{"E", young, "Young's modulus", 1e-12, kTunableMax},
            {"nu", poisson, "Poisson ratio", -0.99, 0.49},
            {"e", restitution, "coefficient of restitution", 1e-3, 1}};
  }
  void set(const std::string& name, double value) {
    if (name == "E") young = value;
    else if (name == "nu") poisson = value;
    else if (name == "e") restitution = value;
    update();
  }
};

}  // namespace
STEPWISE_REGISTER_FORCE("hertz", GranularContacts<HertzLaw>);
}  // namespace stepwise
