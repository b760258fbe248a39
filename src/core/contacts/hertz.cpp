// Hertz-Mindlin: F_n = 4/3 E* sqrt(R* delta) delta, tangential stiffness 8 G* sqrt(R* delta), and
// damping set from the restitution e (Tsuji-type, as LIGGGHTS): beta = ln e / sqrt(ln^2 e + pi^2),
// m_eff gamma = -2 sqrt(5/6) beta sqrt(S m_eff) with S = 2 E* sqrt(R* delta) (normal) or
// 8 G* sqrt(R* delta) (tangential). Identical materials; walls are of the same material.
#include "core/contacts/granular_contact.hpp"

namespace stepwise {
namespace {

struct HertzLaw {
  static constexpr const char* kName = "hertz";
  static constexpr bool kConstant = false;
  double young, poisson, restitution;
  double e_star = 0, g_star = 0, beta = 0;
  explicit HertzLaw(const ParamTable& p)
      : young(p.number("E", 1e6)), poisson(p.number("nu", 0.3)), restitution(p.number("e", 0.8)) {
    if (!(young > 0) || !(poisson > -1 && poisson < 0.5) || !(restitution > 0 && restitution <= 1))
      throw InputError(p.where() + ": hertz needs E > 0, -1 < nu < 0.5 and 0 < e <= 1");
    update();
  }
  void update() {
    e_star = young / (2 * (1 - poisson * poisson));
    g_star = young / (4 * (1 + poisson) * (2 - poisson));
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
