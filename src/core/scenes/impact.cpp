// One sphere dropped onto the floor: the linear spring-dashpot's restitution and contact time
// have closed forms, e = exp(-pi zeta / sqrt(1 - zeta^2)), t_c = pi / sqrt(k/m - (gamma_n/2)^2).
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class Impact final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"impact",
                   "a sphere dropped onto the floor",
                   "The contact is a damped spring: the sphere leaves the floor after half a damped "
                   "period with a fixed fraction of its speed, the coefficient of restitution. Raise "
                   "gamma_n and the bounces die faster.",
                   {{"m", 1.0, "sphere mass"},
                    {"radius", 0.1, "sphere radius"},
                    {"height", 1.0, "initial height of the sphere's bottom above the floor"},
                    {"v0", 0.0, "initial downward speed"},
                    {"g", 9.81, "gravitational acceleration"}}};
    // lammps: the closed-form restitution of the linear spring-dashpot counts its final pull.
    add_contact_params(info.params, 1e5, 20.0, 0.5, "lammps");
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    SceneSetup s;
    BodySpec ball;
    ball.mass = positive(p, "m");
    ball.radius = shape_length(p, "radius", 1);
    ball.position = Vec3(0, 0, ball.radius + positive(p, "height", true));
    ball.velocity = Vec3(0, 0, -p.number("v0"));
    s.world.add_body(ball);
    add_gravity(s.world, positive(p, "g", true));
    add_contacts(s.world, p, {{Vec3::Zero(), Vec3::UnitZ()}}, 0.1 * ball.radius);
    const double omega = std::sqrt(p.number("kn") / ball.mass);
    s.dt = 0.02 * M_PI / omega;  // 50 steps per contact
    s.duration = 3;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("impact", Impact);
}  // namespace stepwise
