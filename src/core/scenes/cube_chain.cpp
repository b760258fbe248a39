// Wang (2008) section 5: seven bonded cubes, the first and the last driven slowly so the chain
// compresses, shears, bends, twists or bends and twists.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/bonded_scene_helpers.hpp"

namespace stepwise {
namespace {

class CubeChain final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"cube-chain",
                   "seven bonded cubes, ends driven (Wang 2008)",
                   "Each bond carries six interactions: stretch, two shears, twist and two bends. "
                   "Twist the ends and every bond takes the same share; bend and twist together "
                   "and the incremental bond drifts from the true torques while Wang's finite "
                   "decomposition stays exact. Compare their energy errors as dt grows.",
                   {{"loading", std::string("bend-twist"),
                     "compress, shear, bend, twist or bend-twist"},
                    {"rate", 0.01, "end speed (length/s) or spin (rad/s)"},
                    {"n", 7.0, "number of cubes"}}};
    add_bond_params(info.params, 1000.0, 0.0);
    return info;
  }

  SceneSetup build(const ParamTable& p) const override {
    const int n = static_cast<int>(positive(p, "n"));
    if (n < 2 || n > 10000) throw InputError(p.where() + ": 'n' must be in 2..10000");
    const double rate = p.number("rate");
    const std::string loading = p.text("loading", "bend-twist");
    Vec3 v_first = Vec3::Zero(), v_last = Vec3::Zero(), w_first = Vec3::Zero(), w_last = Vec3::Zero();
    if (loading == "compress") v_first = rate * Vec3::UnitX(), v_last = -rate * Vec3::UnitX();
    else if (loading == "shear") v_last = rate * Vec3::UnitY();
    else if (loading == "bend") w_first = -rate * Vec3::UnitZ(), w_last = rate * Vec3::UnitZ();
    else if (loading == "twist") w_first = -rate * Vec3::UnitX(), w_last = rate * Vec3::UnitX();
    else if (loading == "bend-twist")
      w_first = -rate * Vec3(1, 0, 1), w_last = rate * Vec3(1, 0, 1);
    else
      throw InputError(p.where() + ": 'loading' must be compress, shear, bend, twist or bend-twist");
    const bool spin_loading = loading != "compress" && loading != "shear";
    SceneSetup s;
    add_bonded_cube_row(s.world, p, n, [&](int k, BodySpec& cube) {
      if (k != 0 && k != n - 1) return;
      // The paper drives velocities (compress, shear) or angular velocities (bend, twist).
      cube.flags = spin_loading ? kDrivenSpin : kDriven;
      cube.velocity = k == 0 ? v_first : v_last;
      cube.angular_velocity = k == 0 ? w_first : w_last;
    });
    s.integrator = "leapfrog";
    s.rotation = "wang-leapfrog";
    s.dt = 1e-3;
    s.duration = 40;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("cube-chain", CubeChain);
}  // namespace stepwise
