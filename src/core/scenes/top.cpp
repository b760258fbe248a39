// A torque-free asymmetric rigid body. Spun close to its intermediate axis it flips over and back
// periodically (the Dzhanibekov effect); the flip period has a closed form.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/rigid_scene_helpers.hpp"

namespace stepwise {
namespace {

class Top final : public Scene {
 public:
  SceneInfo info() const override {
    return {"top",
            "a torque-free asymmetric body spinning near its intermediate axis",
            "Spin about the smallest or largest axis is stable; about the middle one it is not, "
            "and the body flips every half period (Dzhanibekov). With explicit Euler rotation the "
            "energy grows and the flips drift; rk4 keeps energy and |L| to 1e-8.",
            {{"I1", 1.0, "principal moment about body x"},
             {"I2", 2.0, "principal moment about body y"},
             {"I3", 3.0, "principal moment about body z"},
             {"a", 0.0, "box side along x (with b, c: inertia from a unit-mass box instead)"},
             {"b", 0.0, "box side along y"},
             {"c", 0.0, "box side along z"},
             {"w1", 0.01, "initial angular velocity about body x"},
             {"w2", 1.0, "initial angular velocity about body y"},
             {"w3", 0.01, "initial angular velocity about body z"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    SceneSetup s;
    BodySpec body = rigid_body_from(p, 1.0);
    body.angular_velocity = Vec3(p.number("w1"), p.number("w2"), p.number("w3"));
    s.world.add_body(body);
    s.rotation = "rk4";
    s.dt = 0.01;
    s.duration = 4 * flip_half_period(s.world.inertia.col(0), body.angular_velocity);
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("top", Top);
}  // namespace stepwise
