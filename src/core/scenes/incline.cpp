// A sphere released on a plane tilted by `angle`: it rolls without slipping (a = 5/7 g sin)
// while tan(angle) < 7/2 mu, and slips (a = g (sin - mu cos)) beyond. Gravity is tilted instead
// of the plane, which is the same physics.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class Incline final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"incline",
                   "a sphere released on a tilted plane",
                   "Friction makes the sphere roll: it accelerates at 5/7 g sin(angle), slower than "
                   "a sliding block. Past tan(angle) = 7/2 mu friction cannot keep up and it slips.",
                   {{"angle", 20.0, "tilt of the plane, degrees"},
                    {"m", 1.0, "sphere mass"},
                    {"radius", 0.1, "sphere radius"},
                    {"g", 9.81, "gravitational acceleration"}}};
    add_contact_params(info.params, 1e5, 20.0, 0.3);
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const double angle = p.number("angle") * M_PI / 180.0, g = positive(p, "g", true);
    SceneSetup s;
    BodySpec ball;
    ball.mass = positive(p, "m");
    ball.radius = shape_length(p, "radius", 1);
    const double kn = positive(p, "kn");
    const double settled = ball.mass * g * std::cos(angle) / std::max(kn, 1e-300);
    ball.position = Vec3(0, 0, ball.radius - settled);  // resting at its equilibrium overlap
    s.world.add_body(ball);
    ParamTable gravity;
    gravity.set("g", std::vector<double>{g * std::sin(angle), 0, -g * std::cos(angle)});
    s.world.add_force(ForceRegistry::instance().make("gravity", gravity));
    add_contacts(s.world, p, {{Vec3::Zero(), Vec3::UnitZ()}}, 0.1 * ball.radius);
    s.dt = 0.02 * M_PI / std::sqrt(kn / ball.mass);
    s.duration = 1;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("incline", Incline);
}  // namespace stepwise
