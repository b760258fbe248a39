// An hourglass (2-D): disks poured into a funnel whose walls are rows of fixed disks, flowing out
// through an orifice onto the floor of a lower chamber. Narrow the orifice below a few diameters
// and arches form and clog it; the flow rate through a wide one hardly depends on the height of
// the pile above (Janssen's screening), unlike a liquid's.
#include <cmath>

#include "core/random.hpp"
#include "core/scene.hpp"
#include "core/scenes/disk_scene_helpers.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class Hourglass final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"hourglass",
                   "disks through an orifice (2-D)",
                   "Grains leave a funnel at a steady rate whatever the height of the pile above: "
                   "the walls carry its weight. Make the orifice narrower than about four "
                   "diameters and arches form and stop the flow.",
                   {{"n", 600.0, "disks poured in"},
                    {"orifice", 5.0, "width of the opening, in disk diameters"},
                    {"angle", 60.0, "funnel walls' slope from the horizontal, degrees"},
                    {"g", 1.0, "gravitational acceleration"}}};
    add_contact_params(info.params, 2000.0, 50.0, 0.5);
    info.dimensions = 2;
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 100000);
    const double orifice = positive(p, "orifice"), g = positive(p, "g", true);
    const double angle = p.number("angle") * M_PI / 180;
    if (!(angle > 0.1 && angle < 1.5))
      throw InputError(p.where() + ": angle must be from 6 to 85 degrees");
    const double half = 15;  // the chamber's half-width (disk diameters)
    const double top = (half - 0.5 * orifice) * std::tan(angle);  // the funnel's rim
    SceneSetup s;
    // The funnel's two walls: fixed disks of diameter 1 in a row, 2% apart (touching walls would
    // press on each other for nothing); a rough wall, as a hopper's.
    const ShapePtr wall_disk = disk_shape(0.5);
    const double along = (half - 0.5 * orifice) / std::cos(angle);
    for (int side : {-1, 1})
      for (double t = 0; t <= along; t += 1.02) {
        BodySpec b =
            disk_at(wall_disk, M_PI / 4, side * (0.5 * orifice + 0.5 + t * std::cos(angle)),
                    t * std::sin(angle));
        b.flags = kFixed;
        s.world.add_body(b);
      }
    // The grains: diameters 0.8 to 1 (a packing of one size crystallises), on a lattice above.
    Random random(2024);
    const int per_row = int(2 * half / 1.1) - 1;
    for (int k = 0; k < n; ++k) {
      const double d = random.uniform(0.8, 1.0);
      s.world.add_body(disk_at(disk_shape(0.5 * d), M_PI / 4 * d * d,
                               -half + 1.1 * (k % per_row + 1), top + 1.1 * (k / per_row + 1),
                               random.uniform(-0.1, 0.1), 0));
    }
    add_gravity_2d(s.world, g);
    const double floor = -0.6 * top - 10;
    add_contacts(s.world, p,
                 {{Vec3(0, floor, 0), Vec3::UnitY()},
                  {Vec3(-half, 0, 0), Vec3::UnitX()},
                  {Vec3(half, 0, 0), -Vec3::UnitX()}},
                 0.2);
    const double smallest = M_PI / 4 * 0.8 * 0.8;  // the lightest grain sets the contact time
    s.dt = contact_step(p, 0.5 * smallest, 50.0);
    s.duration = 200;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("hourglass", Hourglass);
}  // namespace stepwise
