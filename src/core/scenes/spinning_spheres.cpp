// Spheres with initial spin falling under gravity (no contacts): translation and rotation are
// independent, and a sphere's spin never changes without torque.
#include <cmath>

#include "core/scene.hpp"

namespace stepwise {
namespace {

class SpinningSpheres final : public Scene {
 public:
  SceneInfo info() const override {
    return {"spinning-spheres",
            "spheres with initial spin falling under gravity",
            "A sphere's inertia is the same about every axis (2/5 m R^2), so without torque its "
            "spin vector never changes, whatever the integrator: a check on the rotation code.",
            {{"n", 5.0, "number of spheres"},
             {"radius", 0.2, "sphere radius"},
             {"m", 1.0, "sphere mass"},
             {"spin", 10.0, "initial spin rate (rad/s), about a different axis for each sphere"},
             {"g", 9.81, "gravitational acceleration"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 100000);
    const double r = shape_length(p, "radius", 1), m = positive(p, "m"), spin = p.number("spin");
    const double g = positive(p, "g", true);
    SceneSetup s;
    for (int i = 0; i < n; ++i) {
      BodySpec b;
      b.mass = m;
      b.radius = r;
      b.position = Vec3(3 * r * i, 0, 5);
      const double angle = 2 * M_PI * i / std::max(1, n);
      b.angular_velocity = spin * Vec3(std::cos(angle), std::sin(angle), 0.5).normalized();
      b.velocity = Vec3(0, 0, 1.0 + 0.2 * i);
      s.world.add_body(b);
    }
    add_gravity(s.world, g);
    s.dt = 0.005;
    s.duration = 2;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("spinning-spheres", SpinningSpheres);
}  // namespace stepwise
