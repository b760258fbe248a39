// The granular settling benchmark, identical to the LAMMPS deck in shared/bench/lammps: spheres
// d = 1, rho = 1 on a simple-cubic lattice of spacing 1.2, shifted by <= 0.04 and given small
// random velocities (temperature 0.01), dropped under g = 1 into a box with a floor and four side
// walls; hooke contacts kn = 2000, kt = 2/7 kn, gamma_n = 50, gamma_t = 25, mu = 0.5;
// dt = t_c / 50, skin 0.2.
#include <cmath>

#include "core/random.hpp"
#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class Settle final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"settle",
                   "spheres poured into a box: the LAMMPS granular benchmark",
                   "A loose lattice of spheres falls, collides and settles into a packing. Friction "
                   "and damping turn the potential energy into heat; the contact network grows "
                   "until the pile comes to rest.",
                   {{"n", 10000.0, "spheres: 10000 (25 x 20 x 20) or 50000 (50 x 50 x 20); others need nx, ny, nz"},
                    {"nx", 0.0, "lattice sites along x (0: from n)"},
                    {"ny", 0.0, "lattice sites along y (0: from n)"},
                    {"nz", 20.0, "lattice layers"},
                    {"spacing", 1.2, "lattice spacing (diameters)"},
                    {"g", 1.0, "gravitational acceleration"}}};
    add_contact_params(info.params, 2000.0, 50.0, 0.5, "lammps");  // LAMMPS' benchmark and deck
    return info;
  }

  SceneSetup build(const ParamTable& p) const override {
    const long n = count(p, "n", 1, 2000000);
    int nx = count(p, "nx", 0, 2000), ny = count(p, "ny", 0, 2000);
    const int nz = count(p, "nz", 1, 2000);
    if (nx == 0 && ny == 0 && n == 10000) nx = 25, ny = 20;
    if (nx == 0 && ny == 0 && n == 50000) nx = 50, ny = 50;
    if (nx <= 0 || ny <= 0 || static_cast<long>(nx) * ny * nz != n)
      throw InputError(p.where() + ": n must equal nx * ny * nz (give nx, ny, nz for n other than 10000 or 50000)");
    const double spacing = positive(p, "spacing"), g = positive(p, "g", true);
    if (spacing < 0.5)  // (closer, each grain starts inside dozens of others)
      throw InputError(p.where() + ": parameter 'spacing' must be at least 0.5 diameters");
    const double mass = M_PI / 6.0, radius = 0.5;
    SceneSetup s;
    Random random(4711);
    Vec3 mean_velocity = Vec3::Zero();
    // Made one at a time into the World (World::add_bodies): a million bodies' specs held at
    // once took 240 MB.
    s.world.add_bodies(int(n), [&](int b, BodySpec& spec) {
      const int i = b % nx, j = b / nx % ny, k = b / nx / ny;
      spec.mass = mass;
      spec.radius = radius;
      spec.position = spacing * Vec3(i + 0.5, j + 0.5, k + 0.5) + Vec3(random.uniform(-0.04, 0.04),
                                                                       random.uniform(-0.04, 0.04),
                                                                       random.uniform(-0.04, 0.04));
      spec.velocity =
          Vec3(random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5));
      mean_velocity += spec.velocity / double(n);
    });
    // As LAMMPS' velocity create: zero net momentum, temperature 0.01 over 3N - 3 dofs.
    thermalise(s.world, mean_velocity, mass, 3.0 * n - 3.0, 0.01);
    add_gravity(s.world, g);
    const double lx = nx * spacing, ly = ny * spacing;
    add_contacts(s.world, p,
                 {{Vec3::Zero(), Vec3::UnitZ()}, {Vec3::Zero(), Vec3::UnitX()},
                  {Vec3(lx, 0, 0), -Vec3::UnitX()}, {Vec3::Zero(), Vec3::UnitY()},
                  {Vec3(0, ly, 0), -Vec3::UnitY()}},
                 0.2);
    const double kn = p.number("kn"), gamma_n = p.number("gamma_n"), m_eff = 0.5 * mass;
    const double contact_time = M_PI / std::sqrt(kn / m_eff - 0.25 * gamma_n * gamma_n);
    s.dt = contact_time / 50.0;
    s.duration = 20000 * s.dt;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("settle", Settle);
}  // namespace stepwise
