// The 2-D granular benchmark: the `settle` deck's physics in the plane. Disks d = 1 of area
// density 1 (m = pi/4) on a square lattice of spacing 1.2, shifted by <= 0.04 and given small
// random velocities (temperature 0.01), poured under g = 1 (along -y) into a box with a floor and
// two side walls; hooke contacts kn = 2000, kt = 2/7 kn, gamma_n = 50, gamma_t = 25, mu = 0.5 as
// LAMMPS' gran/hooke/history; dt = t_c / 50, skin 0.2. `export --lammps` writes its 2-D deck.
#include <cmath>

#include "core/random.hpp"
#include "core/scene.hpp"
#include "core/scenes/disk_scene_helpers.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class DiskSettle final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"disk-settle",
                   "disks poured into a box: the 2-D granular benchmark",
                   "A loose square lattice of disks falls and settles into a packing; in 2-D "
                   "every disk and every contact is in view, and the force chains show.",
                   {{"n", 10000.0, "disks: nx * ny (the squarest lattice when nx, ny are 0)"},
                    {"nx", 0.0, "lattice sites along x (0: from n)"},
                    {"ny", 0.0, "lattice layers (0: from n)"},
                    {"spacing", 1.2, "lattice spacing (diameters)"},
                    {"g", 1.0, "gravitational acceleration"}}};
    add_contact_params(info.params, 2000.0, 50.0, 0.5, "lammps");  // as the settle deck
    info.dimensions = 2;
    return info;
  }

  SceneSetup build(const ParamTable& p) const override {
    const long n = count(p, "n", 1, 2000000);
    int nx = count(p, "nx", 0, 20000), ny = count(p, "ny", 0, 20000);
    if (nx == 0 && ny == 0) {  // the squarest lattice at least as wide as it is tall
      nx = int(std::ceil(std::sqrt(double(n)) - 1e-9));
      while (n % nx != 0) ++nx;
      ny = int(n / nx);
    } else if (nx == 0 && ny > 0) {
      nx = int(n / ny);
    } else if (ny == 0) {
      ny = int(n / nx);
    }
    if (nx <= 0 || ny <= 0 || long(nx) * ny != n)
      throw InputError(p.where() + ": n must equal nx * ny (give nx or ny when n is not a square)");
    const double spacing = positive(p, "spacing"), g = positive(p, "g", true);
    if (spacing < 0.5)  // (closer, each grain starts inside dozens of others)
      throw InputError(p.where() + ": parameter 'spacing' must be at least 0.5 diameters");
    const double mass = M_PI / 4.0;
    SceneSetup s;
    const ShapePtr disk = disk_shape(0.5);
    Random random(4711);
    Vec3 mean_velocity = Vec3::Zero();
    s.world.add_bodies(int(n), [&](int b, BodySpec& spec) {  // (no list of every body's spec)
      const int i = b % nx, j = b / nx;
      const double x = spacing * (i + 0.5) + random.uniform(-0.04, 0.04);
      const double y = spacing * (j + 0.5) + random.uniform(-0.04, 0.04);
      spec = disk_at(disk, mass, x, y, random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5));
      mean_velocity += spec.velocity / double(n);
    });
    thermalise(s.world, mean_velocity, mass, 2.0 * n - 2.0, 0.01);  // (2N - 2 dofs)
    add_gravity_2d(s.world, g);
    const double lx = nx * spacing;
    add_contacts(s.world, p,
                 {{Vec3::Zero(), Vec3::UnitY()},
                  {Vec3::Zero(), Vec3::UnitX()},
                  {Vec3(lx, 0, 0), -Vec3::UnitX()}},
                 0.2);
    s.dt = contact_step(p, 0.5 * mass, 50.0);
    s.duration = 20000 * s.dt;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("disk-settle", DiskSettle);
}  // namespace stepwise
