// Explicit (forward) Euler: the simplest method and the classroom's example of energy growth.
#include "core/integrator.hpp"

namespace stepwise {
namespace {

class ExplicitEuler final : public Integrator {
 public:
  // Amplification |1 + i w h| > 1: unstable on oscillations at any step.
  double stability_limit() const override { return 0.0; }
  MethodInfo info() const override {
    return {"euler", 1, false, false, 1,
            "Explicit Euler: both updates use the start-of-step state. Unstable for undamped "
            "oscillators at any dt; orbits spiral outward.",
            "x(n+1) = x(n) + h v(n)\nv(n+1) = v(n) + h a(x(n), v(n))"};
  }
  void step(Dynamics& d, double h) override {
    a_ = d.start_accel();
    d.account(d.start_powers(), h);
    d.x() += h * d.v();
    d.v() += h * a_;
  }

 private:
  Positions a_;
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("euler", ExplicitEuler);
}  // namespace stepwise
