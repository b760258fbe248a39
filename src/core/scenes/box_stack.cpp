// A stack of boxes on a floor: each rests on the one below on four corners. Shifted boxes stand
// while the centre of mass of all above each box stays over it (uniform shift s: s < 1/n).
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class BoxStack final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"box-stack",
                   "a stack of boxes standing on a floor",
                   "Each box rests on four corner contacts; the lowest carries the weight of all "
                   "above, so it sinks furthest: n m g / (4 kn). Shift each box over the one below "
                   "and the stack stands while the centre of mass of all boxes above any box "
                   "is over it: for n boxes each shifted s sides, while s < 1/n. Pull a box out "
                   "with the mouse and watch the ones above fall.",
                   {{"n", 10.0, "number of boxes"},
                    {"a", 1.0, "side of a box"},
                    {"m", 1.0, "mass of a box"},
                    {"shift", 0.0, "each box shifted along x over the one below, in sides"},
                    {"g", 9.81, "gravitational acceleration"}}};
    // lammps until the shape path books exact friction to second order (README, friction).
    add_contact_params(info.params, 1e5, 40.0, 0.5, "lammps");
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 1000);
    const double a = shape_length(p, "a", 0.5), m = positive(p, "m"), g = positive(p, "g", true);
    const double kn = positive(p, "kn"), shift = p.number("shift");
    if (!(std::abs(shift) < 1)) throw InputError(p.where() + ": 'shift' must be in (-1, 1) sides");
    SceneSetup s;
    const ShapePtr box = box_shape(Vec3::Constant(0.5 * a));
    // Each placed at its resting overlap: the contact under box k carries n - k boxes.
    double z = 0.5 * a;
    for (int k = 0; k < n; ++k) {
      z -= (n - k) * m * g / (4 * kn);
      s.world.add_body(shaped_body(box, m, Vec3(k * shift * a, 0, z)));
      z += a;
    }
    add_gravity(s.world, g);
    add_contacts(s.world, p, {{Vec3::Zero(), Vec3::UnitZ()}}, 0.2 * a);
    s.dt = contact_step(p, 0.5 * m, 30.0);
    s.duration = 10;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("box-stack", BoxStack);
}  // namespace stepwise
