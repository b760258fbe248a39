// Explicit midpoint (RK2): a half Euler step to estimate the derivative at mid-step.
#include "core/integrator.hpp"

namespace stepwise {
namespace {

class Midpoint final : public Integrator {
 public:
  // |1 + z + z^2/2| = sqrt(1 + (w h)^4 / 4) > 1 on z = i w h: grows at any step.
  double stability_limit() const override { return 0.0; }
  MethodInfo info() const override {
    return {"midpoint", 2, false, false, 2,
            "Explicit midpoint (RK2): take half an Euler step, evaluate there, then take the full "
            "step with the midpoint derivative. Second order, not symplectic: energy drifts "
            "slowly.",
            "x* = x(n) + h/2 v(n),  v* = v(n) + h/2 a(n)\nx(n+1) = x(n) + h v*\n"
            "v(n+1) = v(n) + h a(x*, v*)"};
  }
  void step(Dynamics& d, double h) override {
    mid_x_ = d.x() + 0.5 * h * d.v();
    mid_v_ = d.v() + 0.5 * h * d.start_accel();
    Powers pm;
    d.accel(mid_x_, mid_v_, d.time() + 0.5 * h, mid_a_, &pm);
    d.account(pm, h);
    d.x() += h * mid_v_;
    d.v() += h * mid_a_;
  }

 private:
  Positions mid_x_, mid_v_, mid_a_;
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("midpoint", Midpoint);
}  // namespace stepwise
