// A body in a 1/r^2 field, GM = 1, semi-major axis 1 (period 2 pi), released at pericentre.
#include <cmath>

#include "core/scene.hpp"

namespace stepwise {
namespace {

// Position on the orbit at time t from pericentre: solve Kepler's equation M = E - e sin E.
Vec3 kepler_position(double e, double t) {
  const double mean = std::remainder(t, 2 * M_PI);
  double E = e < 0.8 ? mean : M_PI * (mean < 0 ? -1 : 1);
  for (int it = 0; it < 50; ++it) {
    const double step = (E - e * std::sin(E) - mean) / (1 - e * std::cos(E));
    E -= step;
    if (std::abs(step) < 1e-16) break;
  }
  return {std::cos(E) - e, std::sqrt(1 - e * e) * std::sin(E), 0};
}

class Kepler final : public Scene {
 public:
  SceneInfo info() const override {
    return {"kepler",
            "an orbit in an inverse-square field (GM = 1, a = 1, period 2 pi)",
            "Watch explicit Euler spiral outward and RK4's energy creep, while the symplectic "
            "methods keep a closed orbit whose energy error oscillates but never grows. The "
            "eccentric orbit stresses every method at pericentre.",
            {{"e", 0.5, "eccentricity (0 <= e < 1)"}, {"m", 1.0, "orbiting mass"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double e = p.number("e"), m = positive(p, "m");
    if (!(e >= 0 && e < 1))
      throw InputError("scene 'kepler': parameter 'e' must be in [0, 1) (got " + format_double(e) + ")");
    SceneSetup s;
    BodySpec body;
    body.mass = m;
    body.radius = 0.05;
    body.position = Vec3(1 - e, 0, 0);
    body.velocity = Vec3(0, std::sqrt((1 + e) / (1 - e)), 0);
    s.world.add_body(body);
    ParamTable field;
    field.set("GM", 1.0);
    s.world.add_force(ForceRegistry::instance().make("central", field));
    s.dt = 0.01;
    s.duration = 10 * 2 * M_PI;
    s.exact = [e](double t) {
      Positions x(3, 1);
      x.col(0) = kepler_position(e, t);
      return x;
    };
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("kepler", Kepler);
}  // namespace stepwise
