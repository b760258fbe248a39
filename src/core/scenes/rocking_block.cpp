// Housner's rocking block: a slender block tipped onto one bottom edge swings back about it,
// strikes the floor with the other edge and rocks on, losing energy at each impact.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class RockingBlock final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"rocking-block",
                   "a slender block tipped onto its edge, rocking",
                   "Between impacts the block pivots on one bottom edge like an inverted pendulum "
                   "(its period is not fixed: it grows with the amplitude). Each impact moves the "
                   "pivot to the other edge and keeps only part of the angular velocity "
                   "(Housner: 1 - 3/2 sin^2 of the block's slenderness angle), so the rocking "
                   "quickens as it dies out.",
                   {{"width", 0.2, "width (and depth) of the block"},
                    {"height", 1.0, "height of the block"},
                    {"tilt", 5.0, "initial tilt about one bottom edge, degrees"},
                    {"m", 1.0, "block mass"},
                    {"g", 9.81, "gravitational acceleration"}}};
    // lammps until the shape path books exact friction to second order (README, friction).
    add_contact_params(info.params, 1e6, 200.0, 0.8, "lammps");
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const double w = shape_length(p, "width", 0.5), h = shape_length(p, "height", 0.5),
                 m = positive(p, "m");
    const double g = positive(p, "g", true), kn = positive(p, "kn");
    const double tilt = p.number("tilt");
    const double slender = std::atan2(w, h) * 180 / M_PI;
    if (!(tilt >= 0 && tilt < 90))
      throw InputError(p.where() + ": 'tilt' must be in [0, 90) degrees");
    const double phi = tilt * M_PI / 180;
    SceneSetup s;
    // Rotated about y so that the +x bottom edge is the lowest; that edge carries the weight on its
    // two corners and sits at its resting overlap.
    const Quat q(Eigen::AngleAxisd(phi, Vec3::UnitY()));
    const double z = 0.5 * w * std::sin(phi) + 0.5 * h * std::cos(phi) - m * g / (2 * kn);
    s.world.add_body(shaped_body(box_shape(0.5 * Vec3(w, w, h)), m, Vec3(0, 0, z), q));
    add_gravity(s.world, g);
    add_contacts(s.world, p, {{Vec3::Zero(), Vec3::UnitZ()}}, 0.2 * w);
    s.dt = contact_step(p, 0.25 * m, 30.0);
    s.duration = tilt > slender ? 2 : 4;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("rocking-block", RockingBlock);
}  // namespace stepwise
