// BAOAB Langevin splitting (Leimkuhler & Matthews): kick, half drift, exact Ornstein-Uhlenbeck
// velocity update, half drift, kick. Its configurational sampling is accurate to O(h^2) with a
// tiny constant; at zero friction it is velocity Verlet.
#include <cmath>

#include "core/integrator.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

class Baoab final : public Integrator {
 public:
  // The B-A-B parts are velocity Verlet: w h < 2 (the O part only damps).
  double stability_limit() const override { return 2.0; }
  MethodInfo info() const override {
    return {"baoab", 2, false, friction_ == 0, 1,
            "BAOAB Langevin dynamics: B (half kick), A (half drift), O (friction and noise, "
            "exact), A, B. Samples the canonical ensemble at temperature kT; the thermostat's "
            "heat is booked as dissipated energy.",
            "B: v += h/2 a\nA: x += h/2 v\nO: v = c v + sqrt((1 - c^2) kT/m) R,  c = exp(-gamma h)\n"
            "A: x += h/2 v\nB: v += h/2 a(x(n+1))"};
  }

  void step(Dynamics& d, double h) override {
    before_ = d.v();
    d.v() += 0.5 * h * d.start_accel();
    d.account_start_kick(before_, d.v(), 0.5 * h);
    d.x() += 0.5 * h * d.v();
    const double c = std::exp(-friction_ * h);
    const double noise = std::sqrt(std::max(0.0, 1.0 - c * c) * temperature_);
    double heat = 0;
    Random& random = d.random();
    const int axes = d.world().dimensions;  // 2-D: no noise off the plane
    for (int i = 0; i < d.size(); ++i) {
      const double inv_m = d.inv_mass()(i);
      if (inv_m == 0) continue;
      auto v = d.v().col(i);
      const double before = v.squaredNorm();
      const double sigma = noise * std::sqrt(inv_m);
      for (int k = 0; k < axes; ++k) v(k) = c * v(k) + sigma * random.normal();
      heat += 0.5 * (before - v.squaredNorm()) / inv_m;
    }
    if (rotational_friction_ > 0) heat += rotational_noise(d, h);
    d.add_dissipated(heat);
    d.x() += 0.5 * h * d.v();
    const Positions& a1 = d.end_accel();
    before_ = d.v();
    d.v() += 0.5 * h * a1;
    d.account_end_kick(before_, d.v(), 0.5 * h);
  }

  std::vector<Tunable> options() const override {
    return {{"temperature", temperature_, "bath temperature kT (energy units)"},
            {"friction", friction_, "Langevin friction gamma (1/time)"},
            {"rotational_friction", rotational_friction_, "Langevin friction on spins (1/time)"}};
  }
  void set_option(const std::string& name, const ParamValue& value) override {
    const double x = option_number("baoab", name, value);
    if (!(x >= 0) || !std::isfinite(x))
      throw InputError("baoab: option '" + name + "' must be a finite number >= 0");
    if (name == "temperature") temperature_ = x;
    else if (name == "friction") friction_ = x;
    else if (name == "rotational_friction") rotational_friction_ = x;
    else throw InputError("baoab: unknown option '" + name + "' (temperature, friction, rotational_friction)");
  }

 private:
  // The O step on the spins, in each body's principal frame: w_k = c w_k + sqrt((1-c^2) kT/I_k) R.
  // Returns the heat given to the bath.
  double rotational_noise(Dynamics& d, double h) {
    World& world = d.world();
    const double c = std::exp(-rotational_friction_ * h);
    const double noise = std::sqrt(std::max(0.0, 1.0 - c * c) * temperature_);
    double heat = 0;
    for (int i = 0; i < world.size(); ++i) {
      if (world.flags[i] & (kFixed | kDriven | kDrivenSpin)) continue;
      const Vec3 I = world.rotational_inertia(i);
      Vec3 w_body = world.q[i].conjugate() * world.w.col(i);
      const double before = 0.5 * w_body.dot(I.cwiseProduct(w_body));
      // 2-D: the spin about z only (a 2-D body's z axis is the world's).
      for (int k = world.dimensions == 2 ? 2 : 0; k < 3; ++k)
        w_body(k) = c * w_body(k) + noise / std::sqrt(I(k)) * d.random().normal();
      heat += before - 0.5 * w_body.dot(I.cwiseProduct(w_body));
      world.L.col(i) = world.q[i] * I.cwiseProduct(w_body);
      world.sync_angular_velocity(i);
    }
    return heat;
  }

  double temperature_ = 0, friction_ = 0, rotational_friction_ = 0;
  Positions before_;
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("baoab", Baoab);
}  // namespace stepwise
