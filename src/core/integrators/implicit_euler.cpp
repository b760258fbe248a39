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
    stats_ = {};
    for (int it = 0; it < settings_.max_iterations; ++it) {
      x1 = x0 + h * v1;
      d.accel(x1, v1, t1, accel, &p1);
      Positions residual = v1 - v0 - h * accel;
      double scale = 1.0;
      for (int i = 0; i < d.size(); ++i) {
        residual.col(i) *= m(i) * (d.inv_mass()(i) > 0 ? 1.0 : 0.0);
        scale = std::max(scale, m(i) * (v1.col(i) - v0.col(i)).norm());
      }
      stats_.newton_iterations = it + 1;
      stats_.newton_residual = flat(residual).norm() / scale;
      if (stats_.newton_residual < settings_.tolerance) break;
      SparseMatrix K, C;
      d.jacobians(x1, v1, t1, K, C);
      SparseMatrix J = -(h * h) * K - h * C;
      for (int j = 0; j < J.rows(); ++j) J.coeffRef(j, j) += m(j / 3);
      flat(v1) += newton_update(J, flat(residual), d.inv_mass());
    }
    d.x() = x1;
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
