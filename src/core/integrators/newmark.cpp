// Newmark-beta: the implicit family of the DEM lecture; beta = 1/4, gamma = 1/2 (average
// acceleration) is unconditionally stable and second order. The residual r = f - M a is driven to
// zero by Newton-Raphson with a sparse LU solve, or Jacobi's iteration where the matrix is
// diagonally dominant (newton_solve: the matrix reused while it works, a step that does not lower
// the residual halved).
#include <limits>
#include <cmath>

#include "core/integrators/newton.hpp"

namespace stepwise {
namespace {

class Newmark final : public Integrator {
 public:
  // Undamped oscillator: unconditionally stable for 2 beta >= gamma >= 1/2; for gamma >= 1/2 and
  // smaller beta, w h <= 1 / sqrt(gamma / 2 - beta); for gamma < 1/2 unstable (Hughes, 1987).
  double stability_limit() const override {
    if (gamma_ < 0.5) return 0.0;
    if (2 * beta_ >= gamma_) return std::numeric_limits<double>::infinity();
    return 1.0 / std::sqrt(0.5 * gamma_ - beta_);
  }
  MethodInfo info() const override {
    const bool second = std::abs(gamma_ - 0.5) < 1e-15;
    return {"newmark", second ? 2 : 1, true, false, 1,
            "Newmark-beta, solved for a(n+1) by Newton-Raphson. beta = 1/4, gamma = 1/2 is the "
            "trapezoidal rule: second order, unconditionally stable, no numerical damping; "
            "gamma > 1/2 damps high frequencies.",
            "x(n+1) = x(n) + h v(n) + h^2 [(1/2 - beta) a(n) + beta a(n+1)]\n"
            "v(n+1) = v(n) + h [(1 - gamma) a(n) + gamma a(n+1)]\n"
            "r = f(x(n+1), v(n+1)) - M a(n+1) = 0"};
  }

  void step(Dynamics& d, double h) override {
    const double t1 = d.time() + h;
    const Positions a0 = d.start_accel();
    const Powers p0 = d.start_powers();
    const Positions base_x = d.x() + h * d.v() + (0.5 - beta_) * h * h * a0;
    const Positions base_v = d.v() + (1.0 - gamma_) * h * a0;
    Positions a1 = a0, x1, v1, accel;
    const VecX& m = d.mass();
    Powers p1;
    auto at = [&](const Positions& a) {
      x1 = base_x + beta_ * h * h * a;
      v1 = base_v + gamma_ * h * a;
    };
    auto residual = [&](const Positions& a, Positions& r) {
      at(a);
      d.accel(x1, v1, t1, accel, &p1);
      r = accel - a;  // r / m per body
      double scale = 1.0;
      for (int i = 0; i < d.size(); ++i) {
        r.col(i) *= m(i) * (d.inv_mass()(i) > 0 ? 1.0 : 0.0);
        scale = std::max(scale, m(i) * accel.col(i).norm());
      }
      return flat(r).norm() / scale;
    };
    auto matrix = [&](const Positions& a) {
      at(a);
      SparseMatrix K, C;
      d.jacobians(x1, v1, t1, K, C);
      return plus_masses(beta_ * h * h * K + gamma_ * h * C, m, -1.0);
    };
    stats_ = {};
    newton_solve(a1, residual, matrix, d.inv_mass(), settings_, stats_);
    d.x() = x1;  // (newton_solve's last evaluation was at a1: x1, v1, p1 are its)
    d.v() = v1;
    d.account(p0, (1.0 - gamma_) * h);
    d.account(p1, gamma_ * h);
  }

  std::vector<Tunable> options() const override {
    return {{"beta", beta_, "Newmark beta (1/4: average acceleration)"},
            {"gamma", gamma_, "Newmark gamma (1/2: no numerical damping)"},
            {"tolerance", settings_.tolerance, "Newton residual tolerance (relative)"}};
  }
  void set_option(const std::string& name, const ParamValue& value) override {
    const double x = option_number("newmark", name, value);
    if (name == "beta" && x > 0 && x <= 0.5) beta_ = x;
    else if (name == "gamma" && x >= 0 && x <= 1) gamma_ = x;
    else if (name == "tolerance" && x > 0) settings_.tolerance = x;
    else
      throw InputError("newmark: option '" + name + "' = " + format_double(x) +
                       " is unknown or out of range (beta in (0, 1/2], gamma in [0, 1], tolerance > 0)");
  }
  IntegratorStats stats() const override { return stats_; }

 private:
  double beta_ = 0.25, gamma_ = 0.5;
  NewtonSettings settings_;
  IntegratorStats stats_;
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("newmark", Newmark);
}  // namespace stepwise
