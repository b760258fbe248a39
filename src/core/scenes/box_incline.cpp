// A box on a plane tilted by `angle`: it stays while tan(angle) < mu, slides at
// a = g (sin - mu cos) beyond, and topples first when it is too slender to stand (a / c < tan).
// Gravity is tilted instead of the plane, which is the same physics.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class BoxIncline final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"box-incline",
                   "a box on a tilted plane: stick, slide or topple",
                   "Static friction holds the box while tan(angle) < mu; past it the box slides at "
                   "g (sin - mu cos), independent of its mass. A slender box (a / c < tan(angle)) "
                   "tips over its downhill edge before friction gives way: raise c and watch.",
                   {{"angle", 20.0, "tilt of the plane, degrees"},
                    {"a", 0.2, "side along the slope"},
                    {"b", 0.2, "side across the slope"},
                    {"c", 0.2, "height"},
                    {"m", 1.0, "box mass"},
                    {"g", 9.81, "gravitational acceleration"}}};
    // lammps until the shape path books exact friction to second order (README, friction).
    add_contact_params(info.params, 1e5, 40.0, 0.5, "lammps");
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const double angle = p.number("angle");
    if (!(angle > -90 && angle < 90))
      throw InputError(p.where() + ": 'angle' must be in (-90, 90) degrees");
    const double theta = angle * M_PI / 180.0, g = positive(p, "g", true), m = positive(p, "m");
    const Vec3 half =
        0.5 * Vec3(shape_length(p, "a", 0.5), shape_length(p, "b", 0.5), shape_length(p, "c", 0.5));
    const double kn = positive(p, "kn");
    SceneSetup s;
    // Placed at its resting overlap: four corners share the normal load m g cos.
    const double sunk = m * g * std::cos(theta) / (4 * kn);
    s.world.add_body(shaped_body(box_shape(half), m, Vec3(0, 0, half.z() - sunk)));
    ParamTable gravity;
    gravity.set("g", std::vector<double>{g * std::sin(theta), 0, -g * std::cos(theta)});
    s.world.add_force(ForceRegistry::instance().make("gravity", gravity));
    add_contacts(s.world, p, {{Vec3::Zero(), Vec3::UnitZ()}}, 0.2 * half.minCoeff());
    s.dt = contact_step(p, 0.25 * m, 30.0);
    s.duration = 2;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("box-incline", BoxIncline);
}  // namespace stepwise
