// Semi-implicit (symplectic) Euler: velocity first, then position with the new velocity.
#include "core/integrator.hpp"

namespace stepwise {
namespace {

class SymplecticEuler final : public Integrator {
 public:
  // Stable for w h < 2 (as central differences).
  double stability_limit() const override { return 2.0; }
  MethodInfo info() const override {
    return {"symplectic-euler", 1, false, true, 1,
            "Semi-implicit Euler: update the velocity, then move with the new velocity. First "
            "order but symplectic, so energy errors stay bounded.",
            "v(n+1) = v(n) + h a(x(n), v(n))\nx(n+1) = x(n) + h v(n+1)"};
  }
  void step(Dynamics& d, double h) override {
    d.account(d.start_powers(), h);
    d.v() += h * d.start_accel();
    d.drift(h);
  }
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("symplectic-euler", SymplecticEuler);
}  // namespace stepwise
