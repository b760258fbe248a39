// A torque-free symmetric body (I1 = I2): seen from the body, the angular velocity precesses
// about the symmetry axis at Omega = w3 (I3 - I1) / I1.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/rigid_scene_helpers.hpp"

namespace stepwise {
namespace {

class SymmetricTop final : public Scene {
 public:
  SceneInfo info() const override {
    return {"symmetric-top",
            "a torque-free symmetric body showing body-frame precession",
            "The spin axis wobbles around the symmetry axis at Omega = w3 (I3 - I1)/I1 in the body "
            "frame: the Earth's Chandler wobble in miniature. Angular momentum stays fixed in space.",
            {{"I1", 1.0, "moment about the two equal axes (I1 = I2)"},
             {"I3", 1.6, "moment about the symmetry axis"},
             {"w1", 0.4, "initial angular velocity about body x"},
             {"w3", 2.0, "initial angular velocity about the symmetry axis"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double I1 = positive(p, "I1"), I3 = positive(p, "I3");
    SceneSetup s;
    BodySpec body = symmetric_body("scene 'symmetric-top'", 1.0, I1, I3);
    body.angular_velocity = Vec3(p.number("w1"), 0, p.number("w3"));
    s.world.add_body(body);
    s.rotation = "rk4";
    s.dt = 0.01;
    const double omega = std::abs(p.number("w3") * (I3 - I1) / I1);
    s.duration = omega > 0 ? 3 * 2 * M_PI / omega : 20;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("symmetric-top", SymmetricTop);
}  // namespace stepwise
