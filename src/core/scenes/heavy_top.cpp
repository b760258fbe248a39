// A symmetric top on a fixed pivot under gravity: it precesses (slowly, at m g l / (I3 w3) for a
// fast top) and nutates.
#include <cmath>

#include "core/limits.hpp"
#include "core/scene.hpp"
#include "core/scenes/rigid_scene_helpers.hpp"

namespace stepwise {
namespace {

class HeavyTop final : public Scene {
 public:
  SceneInfo info() const override {
    return {"heavy-top",
            "a spinning top on a fixed pivot, precessing under gravity",
            "Gravity's torque is horizontal, so it turns the angular momentum around the vertical "
            "instead of toppling the top: slow precession at m g l / (I3 w3), with a small fast "
            "nodding (nutation) on top.",
            {{"m", 1.0, "mass"},
             {"l", 0.5, "pivot to centre-of-mass distance"},
             {"I1", 0.1, "transverse moment about the centre of mass"},
             {"I3", 0.15, "moment about the symmetry axis"},
             {"w3", 60.0, "spin about the symmetry axis"},
             {"tilt", 30.0, "initial tilt of the axis from the vertical, degrees"},
             {"g", 9.81, "gravitational acceleration"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double m = within(p, "m", 1 / limits::kMaxMagnitude, limits::kMaxMagnitude),
                 l = positive(p, "l"), I1 = positive(p, "I1");
    const double I3 = positive(p, "I3"), w3 = p.number("w3"), g = positive(p, "g", true);
    const double tilt = p.number("tilt") * M_PI / 180.0;
    SceneSetup s;
    BodySpec top = symmetric_body("scene 'heavy-top'", m, I1, I3);
    top.orientation = Quat(Eigen::AngleAxisd(tilt, Vec3::UnitX()));
    const Vec3 axis = top.orientation * Vec3::UnitZ();
    top.flags = kPivot;
    top.pivot = Vec3::Zero();
    top.position = l * axis;
    // Start on the slow-precession branch so the nutation stays small.
    const double precession = w3 != 0 ? m * g * l / (I3 * w3) : 0.0;
    top.angular_velocity = w3 * axis + precession * Vec3::UnitZ();
    s.world.add_body(top);
    add_gravity(s.world, g);
    s.rotation = "rk4";
    s.dt = 0.002;
    s.duration = precession > 0 ? 2 * M_PI / precession : 10;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("heavy-top", HeavyTop);
}  // namespace stepwise
