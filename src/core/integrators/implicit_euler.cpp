// Backward (implicit) Euler, solved for v(n+1) by Newton-Raphson: first order, unconditionally
// stable and strongly damping, the method of choice for stiff springs in games.
#include <limits>
#include "core/integrators/newton.hpp"

namespace stepwise {
namespace {

class ImplicitEuler final : public Integrator {
 public:
  // A-stable: |1 / (1 - i w h)| < 1 at any step.
  double stability_limit() const override { return std::numeric_limits<double>::infinity(); }
  MethodInfo info() const override {
    return {"implicit-euler", 1, true, false, 1,
            "Backward Euler: forces at the end of the step, found by Newton-Raphson. First order, "
            "unconditionally stable, and it bleeds energy (numerical damping).",
            "x(n+1) = x(n) + h v(n+1)\nv(n+1) = v(n) + h a(x(n+1), v(n+1))\n"
            "r = M (v(n+1) - v(n)) - h f(x(n+1), v(n+1)) = 0"};
  }

  void step(Dynamics& d, double h) override {
    const double t1 = d.time() + h;
    const Positions x0 = d.x(), v0 = d.v();
    Positions v1 = v0 + h * d.start_accel(), x1, accel;
    const VecX& m = d.mass();
    Powers p1;
    auto residual = [&](const Positions& v, Positions& r) {
      x1 = x0 + h * v;
      d.accel(x1, v, t1, accel, &p1);
      r = v - v0 - h * accel;
      double scale = 1.0;
      for (int i = 0; i < d.size(); ++i) {
        r.col(i) *= m(i) * (d.inv_mass()(i) > 0 ? 1.0 : 0.0);
        scale = std::max(scale, m(i) * (v.col(i) - v0.col(i)).norm());
      }
      return flat(r).norm() / scale;
    };
    auto matrix = [&](const Positions& v) {
      x1 = x0 + h * v;
      SparseMatrix K, C;
      d.jacobians(x1, v, t1, K, C);
      return plus_masses(-(h * h) * K - h * C, m, 1.0);
    };
    stats_ = {};
    newton_solve(v1, residual, matrix, d.inv_mass(), settings_, stats_);
    d.x() = x1;  // (newton_solve's last evaluation was at v1: x1, p1 are its)
    d.v() = v1;
    d.account(p1, h);
  }

  std::vector<Tunable> options() const override {
    return {{"tolerance", settings_.tolerance, "Newton residual tolerance (relative)"}};
  }
  void set_option(const std::string& name, const ParamValue& value) override {
    const double x = option_number("implicit-euler", name, value);
    if (name == "tolerance" && x > 0) settings_.tolerance = x;
    else throw InputError("implicit-euler: unknown option '" + name + "' or bad value (tolerance > 0)");
  }
  IntegratorStats stats() const override { return stats_; }

 private:
  NewtonSettings settings_;
  IntegratorStats stats_;
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("implicit-euler", ImplicitEuler);
}  // namespace stepwise
