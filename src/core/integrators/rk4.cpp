// Classical fourth-order Runge-Kutta on (x, v).
#include <cmath>
#include "core/integrator.hpp"

namespace stepwise {
namespace {

class RungeKutta4 final : public Integrator {
 public:
  // The RK4 stability region meets the imaginary axis at 2 sqrt(2).
  double stability_limit() const override { return 2.0 * std::sqrt(2.0); }
  MethodInfo info() const override {
    return {"rk4", 4, false, false, 4,
            "Classical Runge-Kutta: four derivative evaluations combined with weights 1/6, 1/3, "
            "1/3, 1/6. Fourth order and very accurate per step, but not symplectic: over long "
            "runs energy drifts (slowly).",
            "k1 = f(t, y)\nk2 = f(t + h/2, y + h/2 k1)\nk3 = f(t + h/2, y + h/2 k2)\n"
            "k4 = f(t + h, y + h k3)\ny(n+1) = y(n) + h/6 (k1 + 2 k2 + 2 k3 + k4)"};
  }
  void step(Dynamics& d, double h) override {
    const double t = d.time();
    x0_ = d.x();
    v0_ = d.v();
    k1v_ = d.start_accel();
    Powers p1 = d.start_powers(), p2, p3, p4;
    // Stage 2: y + h/2 k1, where k1 = (v0, a0).
    xs_ = x0_ + 0.5 * h * v0_;
    vs_ = v0_ + 0.5 * h * k1v_;
    d.accel(xs_, vs_, t + 0.5 * h, k2v_, &p2);
    k2x_ = vs_;
    // Stage 3: y + h/2 k2.
    xs_ = x0_ + 0.5 * h * k2x_;
    vs_ = v0_ + 0.5 * h * k2v_;
    d.accel(xs_, vs_, t + 0.5 * h, k3v_, &p3);
    k3x_ = vs_;
    // Stage 4: y + h k3.
    xs_ = x0_ + h * k3x_;
    vs_ = v0_ + h * k3v_;
    d.accel(xs_, vs_, t + h, k4v_, &p4);
    d.x() = x0_ + (h / 6.0) * (v0_ + 2.0 * k2x_ + 2.0 * k3x_ + vs_);
    d.v() = v0_ + (h / 6.0) * (k1v_ + 2.0 * k2v_ + 2.0 * k3v_ + k4v_);
    d.account(p1, h / 6.0);
    d.account(p2, h / 3.0);
    d.account(p3, h / 3.0);
    d.account(p4, h / 6.0);
  }

 private:
  Positions x0_, v0_, xs_, vs_, k1v_, k2x_, k2v_, k3x_, k3v_, k4v_;
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("rk4", RungeKutta4);
}  // namespace stepwise
