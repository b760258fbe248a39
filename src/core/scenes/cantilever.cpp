// A bonded cantilever: n cubes in a row, the first clamped, a force F pulling the tip down.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/bonded_scene_helpers.hpp"

namespace stepwise {
namespace {

class Cantilever final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"cantilever",
                   "a row of bonded cubes clamped at one end with a tip load",
                   "Each bond bends by the moment it carries, F times its distance to the tip, and "
                   "shears by F: the deflections add up along the beam. Damping lets it settle "
                   "into the static shape.",
                   {{"n", 8.0, "number of cubes (the first is clamped)"},
                    {"F", 1.0, "tip force, downward"}}};
    add_bond_params(info.params, 1000.0, 0.3);
    return info;
  }

  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 2, 10000);
    SceneSetup s;
    add_bonded_cube_row(s.world, p, n, [](int k, BodySpec& cube) {
      if (k == 0) cube.flags = kFixed;  // clamped
    });
    ParamTable tip;
    tip.set("body", double(n - 1));
    tip.set("force", std::vector<double>{0, 0, -p.number("F")});
    s.world.add_force(ForceRegistry::instance().make("point-force", tip));
    s.integrator = "velocity-verlet";
    s.rotation = "buss2";
    s.dt = 2e-3;
    s.duration = 20;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("cantilever", Cantilever);
}  // namespace stepwise
