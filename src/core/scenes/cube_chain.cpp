// Wang (2008) section 5: seven bonded cubes, the first and the last driven slowly so the chain
// compresses, shears, bends, twists or bends and twists. With collide = 1 cubes that are not bonded
// to each other touch (hooke contacts, the bonded neighbours excluded) and a floor holds them.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/bonded_scene_helpers.hpp"

namespace stepwise {
namespace {

// hooke contacts between the cubes (bonded neighbours excluded) and with a floor under them.
void add_chain_contacts(World& world, const ParamTable& p, int n) {
  const double kn = positive(p, "contact.kn"), floor = p.number("floor");
  if (!std::isfinite(floor)) throw InputError(p.where() + ": 'floor' must be finite");
  ParamTable table(p.where());
  table.set("kn", kn);
  table.set("kt", 2.0 / 7.0 * kn);
  table.set("gamma_n", 20.0);
  table.set("gamma_t", 10.0);
  table.set("mu", positive(p, "contact.mu", true));
  table.set("skin", 0.1);
  std::vector<double> exclude;
  for (int k = 1; k < n; ++k) exclude.insert(exclude.end(), {double(k - 1), double(k)});
  table.set("exclude", exclude);
  ParamTable wall;
  wall.set("point", std::vector<double>{0, 0, floor});
  wall.set("normal", std::vector<double>{0, 0, 1});
  table.set("wall", std::vector<ParamTable>{wall});
  world.add_force(ForceRegistry::instance().make("hooke", table));
}

class CubeChain final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{
        "cube-chain",
        "seven bonded cubes, ends driven (Wang 2008)",
        "Each bond carries six interactions: stretch, two shears, twist and two bends. "
        "Twist the ends and every bond takes the same share; bend and twist together "
        "and the incremental bond drifts from the true torques while Wang's finite "
        "decomposition stays exact. Compare their energy errors as dt grows. Set "
        "collide = 1 and g = 9.81: the chain sags between its held ends onto a floor, "
        "and bent far enough its cubes strike each other.",
        {{"loading", std::string("bend-twist"), "compress, shear, bend, twist or bend-twist"},
         {"rate", 0.01, "end speed (length/s) or spin (rad/s)"},
         {"n", 7.0, "number of cubes"},
         {"collide", 0.0, "1: cubes not bonded together collide, and with a floor"},
         {"g", 0.0, "gravitational acceleration (downwards, -z)"},
         {"floor", -0.6, "height of the floor when collide = 1 (cube centres at 0)"},
         {"contact.kn", 1e4, "contact stiffness when collide = 1"},
         {"contact.mu", 0.5, "contact friction coefficient when collide = 1"}}};
    add_bond_params(info.params, 1000.0, 0.0);
    return info;
  }

  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 2, 10000);
    const double rate = p.number("rate");
    const std::string loading = p.text("loading", "bend-twist");
    Vec3 v_first = Vec3::Zero(), v_last = Vec3::Zero(), w_first = Vec3::Zero(),
         w_last = Vec3::Zero();
    if (loading == "compress")
      v_first = rate * Vec3::UnitX(), v_last = -rate * Vec3::UnitX();
    else if (loading == "shear")
      v_last = rate * Vec3::UnitY();
    else if (loading == "bend")
      w_first = -rate * Vec3::UnitZ(), w_last = rate * Vec3::UnitZ();
    else if (loading == "twist")
      w_first = -rate * Vec3::UnitX(), w_last = rate * Vec3::UnitX();
    else if (loading == "bend-twist")
      w_first = -rate * Vec3(1, 0, 1), w_last = rate * Vec3(1, 0, 1);
    else
      throw InputError(p.where() +
                       ": 'loading' must be compress, shear, bend, twist or bend-twist");
    const bool spin_loading = loading != "compress" && loading != "shear";
    SceneSetup s;
    add_bonded_cube_row(s.world, p, n, [&](int k, BodySpec& cube) {
      if (k != 0 && k != n - 1) return;
      // The paper drives velocities (compress, shear) or angular velocities (bend, twist).
      cube.flags = spin_loading ? kDrivenSpin : kDriven;
      cube.velocity = k == 0 ? v_first : v_last;
      cube.angular_velocity = k == 0 ? w_first : w_last;
    });
    const double g = positive(p, "g", true);
    if (g > 0) add_gravity(s.world, g);
    if (p.number("collide") != 0) add_chain_contacts(s.world, p, n);
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
