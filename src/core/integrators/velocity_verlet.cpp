// Velocity Verlet exactly as the PFC law of motion (its eqs 2-4): half-step velocity, position,
// new forces, second half step.
#include "core/integrator.hpp"

namespace stepwise {
namespace {

class VelocityVerlet final : public Integrator {
 public:
  // Central differences: stable for w h < 2.
  double stability_limit() const override { return 2.0; }
  MethodInfo info() const override {
    return {"velocity-verlet",
            2,
            false,
            true,
            1,
            "Velocity Verlet (PFC law of motion): kick half a step, drift, evaluate new forces, "
            "kick the other half. Second order, symplectic, time-reversible.",
            "v(n+1/2) = v(n) + h/2 a(n)\nx(n+1) = x(n) + h v(n+1/2)\na(n+1) = F(x(n+1))/m\n"
            "v(n+1) = v(n+1/2) + h/2 a(n+1)"};
  }
  bool reads_committed_powers() const override { return false; }
  bool plain_kick_drift_kick() const override { return true; }
  void step(Dynamics& d, double h) override {
    d.start_kick(0.5 * h);
    d.drift(h);
    d.evaluate_end();
    d.end_kick(0.5 * h);
  }
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("velocity-verlet", VelocityVerlet);
}  // namespace stepwise
