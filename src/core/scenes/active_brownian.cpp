// Active Brownian particles: self-propelled spheres in a box, pushed along their own axes, with
// Langevin friction and noise on both translation and rotation (BAOAB), repelling each other by
// WCA and bouncing off the walls.
#include <cmath>

#include "core/random.hpp"
#include "core/quaternion.hpp"
#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class ActiveBrownian final : public Scene {
 public:
  SceneInfo info() const override {
    return {"active-brownian",
            "self-propelled spheres with thermal noise in a box",
            "Each sphere swims along its own axis at f/(m gamma); rotational noise turns that axis "
            "at random, so a lone swimmer performs a persistent random walk. Crowded, they jam "
            "at the walls and cluster.",
            {{"n", 200.0, "number of spheres"},
             {"force", 2.0, "propulsion force"},
             {"temperature", 0.05, "bath temperature kT"},
             {"friction", 1.0, "translational Langevin friction"},
             {"rotational_friction", 5.0, "rotational Langevin friction"},
             {"box", 12.0, "side of the cubic box"},
             {"spin_friction", 0.0, "the seed's tangential coupling mu in f_t = mu (Omega x r)"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 1000000);
    const double box = positive(p, "box");
    const int per_side = static_cast<int>(std::ceil(std::cbrt(double(n))));
    if (box < per_side * 1.1)
      throw InputError(p.where() + ": the box is too small for n spheres (needs side >= " +
                       format_double(per_side * 1.1) + ")");
    SceneSetup s;
    Random random(17);
    const double spacing = box / per_side;
    for (int i = 0; i < n; ++i) {
      BodySpec b;
      b.radius = 0.5;
      b.position = spacing * (Vec3(i % per_side, (i / per_side) % per_side, i / (per_side * per_side)) +
                              Vec3::Constant(0.5));
      b.orientation = quat::exp_map(M_PI * Vec3(random.normal(), random.normal(), random.normal()));
      s.world.add_body(b);
    }
    ParamTable active, wca;
    active.set("force", p.number("force"));
    s.world.add_force(ForceRegistry::instance().make("active", active));
    wca.set("spin_friction", positive(p, "spin_friction", true));
    s.world.add_force(ForceRegistry::instance().make("wca", wca));
    ParamTable walls(p.where());
    for (const char* key : {"kn", "kt", "gamma_n", "gamma_t", "mu"}) walls.set(key, 0.0);
    walls.set("kn", 1000.0);
    std::vector<std::pair<Vec3, Vec3>> planes;
    for (int k = 0; k < 3; ++k) {
      planes.push_back({Vec3::Zero(), Vec3::Unit(k)});
      planes.push_back({box * Vec3::Unit(k), -Vec3::Unit(k)});
    }
    add_contacts(s.world, walls, planes, 0.1);
    s.integrator = "baoab";
    s.integrator_options.set("temperature", positive(p, "temperature", true));
    s.integrator_options.set("friction", positive(p, "friction", true));
    s.integrator_options.set("rotational_friction", positive(p, "rotational_friction", true));
    s.dt = 2e-3;
    s.duration = 20;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("active-brownian", ActiveBrownian);
}  // namespace stepwise
