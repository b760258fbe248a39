#pragma once
// What the finite (Wang 2008) and incremental bond models share: the bond list with rest state,
// four stiffnesses (isotropic case), viscous damping per interaction, breakage, and the per-bond
// state written by `stepwise run --bonds`.
#include <string>
#include <vector>

#include "core/world.hpp"

namespace stepwise {

// Wang's decomposition of a relative rotation g (in the bond's primed frame) into twist psi about
// z', bend theta of z' and the bend plane angle phi (eqs 24-26). bend_x/bend_y = theta (cos phi,
// sin phi), finite in every singular case (pure twist, theta near pi).
struct BondAngles {
  double psi = 0, theta = 0, phi = 0;
  double bend_x = 0, bend_y = 0;
};
BondAngles decompose_rotation(const Quat& g);
// The gradient of 1/2 kt psi^2 + 1/2 kb theta^2 with respect to a small rotation applied to g
// from the left (primed-frame axes): the torque on body 2, minus the torque on body 1. Its
// components along z' and along the bend axis are Wang's eq 16 (kt psi, kb theta); the rest is
// the twist-bend coupling that makes the pair of torques conservative.
Vec3 rotation_energy_gradient(const Quat& g, const BondAngles& a, double kt, double kb);
// d(bend_x, bend_y) / d delta_k for a small rotation delta applied to g from the left (primed-frame
// axes; column k), a = decompose_rotation(g). Smooth through theta = 0; not for theta within
// about 2e-6 of pi (false there).
bool bend_jacobian(const Quat& g, const BondAngles& a, Eigen::Matrix<double, 2, 3>& out);
// h (eq 20): the rotation of body 2's frame that turns its z axis onto r0.
Quat axis_frame(const Vec3& r0);

struct BondStiffness {
  double kr = 1000, ks = 1000, kt = 1000, kb = 1000;
};

struct BondStrength {  // 0 = unbreakable
  double tensile = 0, shear = 0, twist = 0, bend = 0;
};

// One row of `--bonds` output.
struct BondReport {
  int i = 0, j = 0;
  double stretch = 0, shear = 0, twist = 0, bend = 0, plane = 0;
  double normal_force = 0, shear_force = 0, twist_torque = 0, bend_torque = 0;
  bool broken = false;
};

struct Bond {
  int i = 0, j = 0;    // body 1 (p) and body 2 (q, the reference): the bond runs from j to i
  Vec3 r0;             // rest position of i relative to j, in j's body frame
  Quat rest;           // rest relative orientation q0* p0
  Quat h;              // axis_frame(r0)
  bool broken = false;
  // Incremental model state: accumulated shear force and moments (world frame).
  Vec3 shear_force = Vec3::Zero(), twist_moment = Vec3::Zero(), bend_moment = Vec3::Zero();
  double committed_time = 0;
  BondReport report;   // as of the last committed evaluation
};

class BondModel : public ForceModel {
 public:
  explicit BondModel(const ParamTable& p);
  void validate(const World& world) const override;
  double internal_dissipation() const override { return broken_energy_; }
  double max_frequency(const World& world) const override;
  std::pair<int, int> stiffest_pair(const World& world) const override;
  bool coupled_pairs(const StateView&, std::vector<std::pair<int, int>>& out) const override {
    for (const Bond& b : bonds_) out.emplace_back(b.i, b.j);
    return true;
  }
  void save(ParamTable& out) const override;
  std::vector<Tunable> tunables() const override;
  void set_tunable(const std::string& name, double value) override;

  const std::vector<Bond>& bonds() const { return bonds_; }
  int broken_count() const;

  // A bond between bodies i and j at their current pose (its rest state).
  static ParamTable bond_entry(const World& world, int i, int j);

 protected:
  // Adds a force on body i (-f on j) and torques, keeping linear and angular momentum exact:
  // the reaction torque on i is -tau_j + r_f x f_j.
  static void add_pair(ForceSums& out, const StateView& s, const Bond& b, const Vec3& force_on_j,
                       const Vec3& torque_on_j);
  // Damping forces and torques on body j from the relative motion (world frame).
  void add_damping(ForceSums& out, const StateView& s, const Bond& b, const Vec3& axis);
  // Breaks the bond if a strength is exceeded (commit only); returns true if it broke.
  bool check_strength(Bond& b, double stored_energy, const EvalContext& ctx);

  std::vector<Bond> bonds_;
  BondStiffness k_;
  BondStrength strength_;
  double damping_ = 0;  // fraction of critical damping for each of the six interactions
  double broken_energy_ = 0;
};

// Bond reports of every bond model in the World (for --bonds and the GUI).
std::vector<BondReport> bond_reports(const World& world);
int bonds_broken(const World& world);

}  // namespace stepwise
