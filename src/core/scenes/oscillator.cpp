// One mass on a zero-rest-length spring anchored at the origin: the harmonic oscillator, with an
// exact solution for every damping regime.
#include <cmath>

#include "core/scene.hpp"

namespace stepwise {
namespace {

// x(t) of m x'' + c x' + k x = 0 with x(0) = x0, x'(0) = v0.
double damped_oscillator(double k, double m, double c, double x0, double v0, double t) {
  const double w0 = std::sqrt(k / m), zeta = c / (2.0 * std::sqrt(k * m));
  if (zeta < 1.0) {
    const double wd = w0 * std::sqrt(1.0 - zeta * zeta), decay = zeta * w0;
    return std::exp(-decay * t) * (x0 * std::cos(wd * t) + (v0 + decay * x0) / wd * std::sin(wd * t));
  }
  if (zeta == 1.0) return std::exp(-w0 * t) * (x0 + (v0 + w0 * x0) * t);
  const double s = w0 * std::sqrt(zeta * zeta - 1.0);
  const double r1 = -zeta * w0 + s, r2 = -zeta * w0 - s;
  const double b = (v0 - r1 * x0) / (r2 - r1), a = x0 - b;
  return a * std::exp(r1 * t) + b * std::exp(r2 * t);
}

class Oscillator final : public Scene {
 public:
  SceneInfo info() const override {
    return {"oscillator",
            "a mass on a spring anchored at the origin",
            "The harmonic oscillator has an exact solution, so every integrator's error can be "
            "measured. Explicit Euler's amplitude grows every step; symplectic methods keep a "
            "slightly wrong but bounded energy; at dt > 2/omega even Verlet blows up.",
            {{"k", 1.0, "spring stiffness"},
             {"m", 1.0, "mass"},
             {"x0", 1.0, "initial displacement along x"},
             {"v0", 0.0, "initial velocity along x"},
             {"c", 0.0, "dashpot (damping) coefficient"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double k = positive(p, "k"), m = positive(p, "m"), c = positive(p, "c", true);
    const double x0 = p.number("x0"), v0 = p.number("v0");
    SceneSetup s;
    BodySpec body;
    body.mass = m;
    body.radius = 0.1;
    body.position = Vec3(x0, 0, 0);
    body.velocity = Vec3(v0, 0, 0);
    s.world.add_body(body);
    ParamTable link, spring;
    link.set("a", 0.0);
    link.set("k", k);
    link.set("damping", c);
    spring.set("link", std::vector<ParamTable>{link});
    s.world.add_force(ForceRegistry::instance().make("spring", spring));
    const double omega = std::sqrt(k / m);
    s.dt = 0.05 / omega;
    s.duration = 10 * 2 * M_PI / omega;
    s.exact = [=](double t) {
      Positions x = Positions::Zero(3, 1);
      x(0, 0) = damped_oscillator(k, m, c, x0, v0, t);
      return x;
    };
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("oscillator", Oscillator);
}  // namespace stepwise
