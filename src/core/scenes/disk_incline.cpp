// A disk released on a plane tilted by `angle` (2-D): it rolls without slipping at 2/3 g sin
// while tan(angle) < 3 mu, and slips at g (sin - mu cos) beyond. As in `incline`, gravity is
// tilted instead of the plane. Thrown flat (angle 0) at v0 without spin, it slides until
// t = v0 / (3 mu g) and rolls on at 2/3 v0, friction having taken a third of its energy.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/disk_scene_helpers.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class DiskIncline final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"disk-incline",
                   "a disk released on a tilted line (2-D)",
                   "A disk rolls down at 2/3 g sin(angle): a third of gravity's pull goes into its "
                   "spin (a sphere keeps 5/7). Past tan(angle) = 3 mu friction cannot keep up and "
                   "it slips.",
                   {{"angle", 20.0, "tilt of the plane, degrees"},
                    {"m", 1.0, "disk mass"},
                    {"radius", 0.1, "disk radius"},
                    {"g", 9.81, "gravitational acceleration"},
                    {"v0", 0.0, "speed it is thrown with down the plane, without spin"}}};
    add_contact_params(info.params, 1e5, 20.0, 0.3);
    info.dimensions = 2;
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const double angle = p.number("angle") * M_PI / 180.0, g = positive(p, "g", true);
    const double m = positive(p, "m"), r = shape_length(p, "radius", 1), kn = positive(p, "kn");
    SceneSetup s;
    const double settled = m * g * std::cos(angle) / std::max(kn, 1e-300);
    // At its equilibrium overlap; thrown without spin it slides until friction makes it roll.
    s.world.add_body(disk_at(disk_shape(r), m, 0, r - settled, p.number("v0")));
    ParamTable gravity;
    gravity.set("g", std::vector<double>{g * std::sin(angle), -g * std::cos(angle), 0});
    s.world.add_force(ForceRegistry::instance().make("gravity", gravity));
    add_contacts(s.world, p, {{Vec3::Zero(), Vec3::UnitY()}}, 0.1 * r);
    s.dt = 0.02 * M_PI / std::sqrt(kn / m);
    s.duration = 1;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("disk-incline", DiskIncline);
}  // namespace stepwise
