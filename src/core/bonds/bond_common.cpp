#include "core/bonds/bond_common.hpp"

#include <cmath>
#include <limits>
#include <utility>

namespace stepwise {

BondAngles decompose_rotation(const Quat& g_in) {
  Quat g = g_in.normalized();
  if (g.w() < 0) g.coeffs() = -g.coeffs();  // g and -g are one rotation; keep psi in [-pi, pi]
  const double g0 = g.w(), g1 = g.x(), g2 = g.y(), g3 = g.z();
  const double c = std::sqrt(g0 * g0 + g3 * g3);  // cos(theta/2)
  const double s = std::sqrt(g1 * g1 + g2 * g2);  // sin(theta/2)
  BondAngles out;
  out.theta = 2.0 * std::atan2(s, c);  // eq 25, precise near 0 and pi
  if (c < 1e-12) {
    // theta = pi: the twist is undefined; the bend plane is the one containing the rotation axis'
    // normal, (cos phi, sin phi) = (g2, -g1)/s.
    out.phi = std::atan2(-g1, g2);
    out.bend_x = out.theta * g2 / s;
    out.bend_y = -out.theta * g1 / s;
    return out;
  }
  out.psi = 2.0 * std::atan2(g3, g0);  // eq 24
  const double a = g1 * g3 + g0 * g2, b = g2 * g3 - g0 * g1;  // |(a, b)| = c s
  out.phi = (a == 0 && b == 0) ? 0.0 : std::atan2(b, a);     // eq 26 (pure twist: phi is moot)
  // theta (cos phi, sin phi) = [theta / s] (a, b) / c, with theta/s -> 2/c as s -> 0.
  const double theta_over_s = s > 1e-150 ? out.theta / s : 2.0 / c;
  out.bend_x = theta_over_s * a / c;
  out.bend_y = theta_over_s * b / c;
  return out;
}

Vec3 rotation_energy_gradient(const Quat& g_in, const BondAngles& a, double kt, double kb) {
  Quat g = g_in.normalized();
  if (g.w() < 0) g.coeffs() = -g.coeffs();
  const double g0 = g.w(), g1 = g.x(), g2 = g.y(), g3 = g.z();
  const double c2 = g0 * g0 + g3 * g3, c = std::sqrt(c2), s = std::sqrt(g1 * g1 + g2 * g2);
  // theta/s stays finite as s -> 0 (theta = 2 atan2(s, c)); at theta = pi psi is undefined.
  const double theta_over_s = s > 1e-150 ? a.theta / s : 2.0 / c;
  Vec3 gradient;
  for (int k = 0; k < 3; ++k) {
    Vec3 axis = Vec3::Zero();
    axis(k) = 1;
    const Quat dg = Quat(0, 0.5 * axis.x(), 0.5 * axis.y(), 0.5 * axis.z()) * g;  // d/d delta_k
    const double dpsi = c2 > 1e-24 ? 2.0 * (g0 * dg.z() - g3 * dg.w()) / c2 : 0.0;
    // theta dtheta = 2 theta (c ds - s dc), ds = (g1 dg1 + g2 dg2)/s, dc = (g0 dg0 + g3 dg3)/c
    const double theta_dtheta =
        2.0 * (theta_over_s * c * (g1 * dg.x() + g2 * dg.y()) -
               (c > 1e-12 ? a.theta * s * (g0 * dg.w() + g3 * dg.z()) / c : 0.0));
    gradient(k) = kt * a.psi * dpsi + kb * theta_dtheta;
  }
  return gradient;
}

bool bend_jacobian(const Quat& g_in, const BondAngles& angles, Eigen::Matrix<double, 2, 3>& out) {
  Quat g = g_in.normalized();
  if (g.w() < 0) g.coeffs() = -g.coeffs();
  const double g0 = g.w(), g1 = g.x(), g2 = g.y(), g3 = g.z();
  const double c2 = g0 * g0 + g3 * g3, c = std::sqrt(c2), s = std::sqrt(g1 * g1 + g2 * g2);
  if (c < 1e-6) return false;  // theta near pi: the bend plane turns faster than it can be followed
  // bend = K (a, b) with K = theta / (s c), theta = 2 atan2(s, c) (decompose_rotation).
  const double theta = angles.theta, n2 = s * s + c2;
  const double a = g1 * g3 + g0 * g2, b = g2 * g3 - g0 * g1;
  const double theta_over_s = s > 1e-150 ? theta / s : 2.0 / c;
  const double K = theta_over_s / c;
  // dK = (dK/ds / s) (g1 dg1 + g2 dg2) + (dK/dc / c) (g0 dg0 + g3 dg3). With t = s/c,
  // dK/ds / s = (2t/(1+t^2) - 2 atan t) / (t^3 c^4): a series where the difference cancels.
  const double t = s / c;
  double ks_over_s;
  if (t < 0.1) {
    const double t2 = t * t;
    double series = 0;
    for (int k = 8; k >= 1; --k)
      series = series * t2 + (k % 2 ? -2.0 : 2.0) * (2 * k) / (2 * k + 1);
    ks_over_s = series / (c2 * c2);
  } else {
    ks_over_s = (2.0 * c * s / n2 - theta) / (s * s * s * c);
  }
  const double kc_over_c = -(2.0 * c / n2 + theta_over_s) / (c2 * c);
  for (int k = 0; k < 3; ++k) {
    Vec3 axis = Vec3::Zero();
    axis(k) = 0.5;
    const Quat dg = Quat(0, axis.x(), axis.y(), axis.z()) * g;
    const double dK =
        ks_over_s * (g1 * dg.x() + g2 * dg.y()) + kc_over_c * (g0 * dg.w() + g3 * dg.z());
    const double da = dg.x() * g3 + g1 * dg.z() + dg.w() * g2 + g0 * dg.y();
    const double db = dg.y() * g3 + g2 * dg.z() - dg.w() * g1 - g0 * dg.x();
    out(0, k) = dK * a + K * da;
    out(1, k) = dK * b + K * db;
  }
  return true;
}

Quat axis_frame(const Vec3& r0) {
  const double r = r0.norm(), x = r0.x(), y = r0.y(), z = r0.z();
  const double planar = std::sqrt(x * x + y * y);
  if (planar < 1e-14 * r) return z >= 0 ? Quat::Identity() : Quat(0, 1, 0, 0);
  const double cos_half = std::sqrt(0.5 * (r + z) / r), sin_half = std::sqrt(0.5 * (r - z) / r);
  return Quat(cos_half, -sin_half * y / planar, sin_half * x / planar, 0);  // eq 20
}

BondModel::BondModel(const ParamTable& p) {
  k_.kr = p.number("kr", k_.kr);
  k_.ks = p.number("ks", k_.ks);
  k_.kt = p.number("kt", k_.kt);
  k_.kb = p.number("kb", k_.kb);
  damping_ = p.number("damping", 0.0);
  strength_.tensile = p.number("tensile_strength", 0.0);
  strength_.shear = p.number("shear_strength", 0.0);
  strength_.twist = p.number("twist_strength", 0.0);
  strength_.bend = p.number("bend_strength", 0.0);
  for (double v : {k_.kr, k_.ks, k_.kt, k_.kb, damping_, strength_.tensile, strength_.shear,
                   strength_.twist, strength_.bend})
    if (!(v >= 0) || !std::isfinite(v))
      throw InputError(p.where() + ": bond stiffnesses, damping and strengths must be >= 0");
  for (const ParamTable& t : p.tables("bond")) {
    Bond b;
    b.i = t.index("i");
    b.j = t.index("j");
    b.r0 = t.vec3("r0", Vec3::Zero());
    const auto rest = t.numbers("rest", {1, 0, 0, 0});
    if (rest.size() != 4) throw InputError(t.where() + ": rest must be [w, x, y, z]");
    b.rest = Quat(rest[0], rest[1], rest[2], rest[3]);
    b.broken = t.flag("broken", false);
    b.shear_force = t.vec3("shear_force", Vec3::Zero());
    b.twist_moment = t.vec3("twist_moment", Vec3::Zero());
    b.bend_moment = t.vec3("bend_moment", Vec3::Zero());
    b.committed_time = t.number("committed_time", std::numeric_limits<double>::quiet_NaN());
    if (!(b.r0.norm() > 0)) throw InputError(t.where() + ": r0 must be a non-zero vector");
    t.reject_unused();
    b.h = axis_frame(b.r0);
    bonds_.push_back(b);
  }
}

ParamTable BondModel::bond_entry(const World& world, int i, int j) {
  ParamTable t;
  t.set("i", double(i));
  t.set("j", double(j));
  const Vec3 r0 = world.q[j].conjugate() * (world.x.col(i) - world.x.col(j));
  t.set("r0", std::vector<double>{r0.x(), r0.y(), r0.z()});
  const Quat rest = world.q[j].conjugate() * world.q[i];
  t.set("rest", std::vector<double>{rest.w(), rest.x(), rest.y(), rest.z()});
  return t;
}

void BondModel::validate(const World& world) const {
  for (size_t n = 0; n < bonds_.size(); ++n) {
    const Bond& b = bonds_[n];
    if (b.i < 0 || b.j < 0 || b.i >= world.size() || b.j >= world.size() || b.i == b.j)
      throw InputError(kind() + " bond " + std::to_string(n) + ": bodies " + std::to_string(b.i) +
                       ", " + std::to_string(b.j) + " do not exist (the scene has " +
                       std::to_string(world.size()) + ")");
  }
}

std::pair<int, int> BondModel::stiffest_pair(const World& world) const {
  std::pair<int, int> best{-1, -1};
  double lightest = 1e300;  // the same stiffness everywhere: the lightest pair is the fastest
  for (const Bond& b : bonds_) {
    if (b.broken) continue;
    const double m = std::min(world.mass(b.i), world.mass(b.j));
    if (m < lightest) lightest = m, best = {b.i, b.j};
  }
  return best;
}

double BondModel::max_frequency(const World& world) const {
  double omega = 0;
  for (const Bond& b : bonds_) {
    const double inv_m = world.inv_mass(b.i) + world.inv_mass(b.j);
    const double inv_I = 1.0 / world.inertia.col(b.i).minCoeff() + 1.0 / world.inertia.col(b.j).minCoeff();
    const double L0 = b.r0.norm();
    omega = std::max({omega, std::sqrt(std::max(k_.kr, k_.ks) * inv_m),
                      std::sqrt((std::max(k_.kt, k_.kb) + k_.ks * L0 * L0 / 4) * inv_I)});
  }
  return omega * (std::sqrt(1 + damping_ * damping_) + damping_);  // damped bound
}

void BondModel::save(ParamTable& out) const {
  out.set("kr", k_.kr);
  out.set("ks", k_.ks);
  out.set("kt", k_.kt);
  out.set("kb", k_.kb);
  out.set("damping", damping_);
  out.set("tensile_strength", strength_.tensile);
  out.set("shear_strength", strength_.shear);
  out.set("twist_strength", strength_.twist);
  out.set("bend_strength", strength_.bend);
  std::vector<ParamTable> tables;
  auto vec = [](const Vec3& v) { return std::vector<double>{v.x(), v.y(), v.z()}; };
  for (const Bond& b : bonds_) {
    ParamTable t;
    t.set("i", double(b.i));
    t.set("j", double(b.j));
    t.set("r0", vec(b.r0));
    t.set("rest", std::vector<double>{b.rest.w(), b.rest.x(), b.rest.y(), b.rest.z()});
    if (b.broken) t.set("broken", true);
    if (b.shear_force != Vec3::Zero()) t.set("shear_force", vec(b.shear_force));
    if (b.twist_moment != Vec3::Zero()) t.set("twist_moment", vec(b.twist_moment));
    if (b.bend_moment != Vec3::Zero()) t.set("bend_moment", vec(b.bend_moment));
    if (std::isfinite(b.committed_time)) t.set("committed_time", b.committed_time);
    tables.push_back(std::move(t));
  }
  out.set("bond", std::move(tables));
}

std::vector<Tunable> BondModel::tunables() const {
  return {{"kr", k_.kr, "normal stiffness K_r"},
          {"ks", k_.ks, "shear stiffness K_s"},
          {"kt", k_.kt, "twisting stiffness K_t"},
          {"kb", k_.kb, "bending stiffness K_b"},
          {"damping", damping_, "viscous damping of each interaction (fraction of critical)", 0,
           1e3}};
}

void BondModel::set_tunable(const std::string& name, double value) {
  if (name == "kr") k_.kr = value;
  else if (name == "ks") k_.ks = value;
  else if (name == "kt") k_.kt = value;
  else if (name == "kb") k_.kb = value;
  else if (name == "damping") damping_ = value;
}

int BondModel::broken_count() const {
  int n = 0;
  for (const Bond& b : bonds_) n += b.broken;
  return n;
}

void BondModel::add_pair(ForceSums& out, const StateView& s, const Bond& b, const Vec3& f_j,
                         const Vec3& tau_j) {
  const Vec3 r_f = s.x.col(b.i) - s.x.col(b.j);
  out.force.col(b.j) += f_j;
  out.force.col(b.i) -= f_j;
  out.torque.col(b.j) += tau_j;
  out.torque.col(b.i) += -tau_j + r_f.cross(f_j);
}

void BondModel::add_damping(ForceSums& out, const StateView& s, const Bond& b, const Vec3& n) {
  if (damping_ <= 0) return;
  const World& w = s.world;
  const double m_eff = w.mass(b.i) * w.mass(b.j) / (w.mass(b.i) + w.mass(b.j));
  const double Ii = w.inertia.col(b.i).mean(), Ij = w.inertia.col(b.j).mean();
  const double I_eff = Ii * Ij / (Ii + Ij);
  auto c = [&](double k, double inertia) { return 2.0 * damping_ * std::sqrt(k * inertia); };
  const Vec3 r_f = s.x.col(b.i) - s.x.col(b.j);
  const Vec3 wi = s.w.col(b.i), wj = s.w.col(b.j);
  // Relative velocity of the contact point (the bond's midpoint) and relative spin, i against j.
  const Vec3 v_c = s.v.col(b.i) - s.v.col(b.j) - (wi + wj).cross(0.5 * r_f);
  const Vec3 spin = wi - wj;
  const Vec3 v_n = v_c.dot(n) * n, spin_n = spin.dot(n) * n;
  const Vec3 f_shear = c(k_.ks, m_eff) * (v_c - v_n);
  const Vec3 f_j = c(k_.kr, m_eff) * v_n + f_shear;
  const Vec3 tau_j = c(k_.kt, I_eff) * spin_n + c(k_.kb, I_eff) * (spin - spin_n) +
                     (0.5 * r_f).cross(f_shear);
  add_pair(out, s, b, f_j, tau_j);
  // Power drawn from the pair: f_j.(v_i - v_j) + tau_j.(w_i - w_j) - (r_f x f_j).w_i >= 0.
  out.dissipation_power += f_j.dot(s.v.col(b.i) - s.v.col(b.j)) + tau_j.dot(spin) -
                           r_f.cross(f_j).dot(wi);
}

bool BondModel::check_strength(Bond& b, double stored_energy, const EvalContext& ctx) {
  if (!ctx.commit || b.broken) return false;
  const BondReport& r = b.report;
  const bool fails = (strength_.tensile > 0 && r.normal_force > strength_.tensile) ||
                     (strength_.shear > 0 && r.shear_force > strength_.shear) ||
                     (strength_.twist > 0 && std::abs(r.twist_torque) > strength_.twist) ||
                     (strength_.bend > 0 && r.bend_torque > strength_.bend);
  if (!fails) return false;
  b.broken = true;
  b.report.broken = true;
  broken_energy_ += stored_energy;  // the spring energy is released as dissipation
  return true;
}

std::vector<BondReport> bond_reports(const World& world) {
  std::vector<BondReport> out;
  for (const auto& f : world.forces)
    if (auto bonds = dynamic_cast<const BondModel*>(f.get()))
      for (const Bond& b : bonds->bonds()) out.push_back(b.report);
  return out;
}

int bonds_broken(const World& world) {
  int n = 0;
  for (const auto& f : world.forces)
    if (auto bonds = dynamic_cast<const BondModel*>(f.get())) n += bonds->broken_count();
  return n;
}

}  // namespace stepwise
