// Glass beads and steel balls poured into a glass-walled box on a rigid steel plate: two named
// materials under Hertz-Mindlin with exact Coulomb friction. Each pair of materials gets its own
// E*, restitution and friction (glass-steel from the two, or the pair's own e), so the heavier,
// stiffer steel bounces differently off the plate than the glass does.
#include <cmath>

#include "core/random.hpp"
#include "core/scene.hpp"

namespace stepwise {
namespace {

ParamTable material(const ParamTable& p, const std::string& name, double density) {
  ParamTable m(p.where() + " material " + name);
  m.set("density", density);
  m.set("E", positive(p, name + ".E"));
  m.set("nu", 0.25);
  m.set("e", positive(p, name + ".e"));
  m.set("mu", positive(p, name + ".mu", true));
  return m;
}

class TwoMaterials final : public Scene {
 public:
  SceneInfo info() const override {
    return {"two-materials",
            "glass beads and steel balls poured onto a rigid steel plate",
            "Two materials (Young's moduli softened a thousandfold, as DEM does, so steps stay "
            "affordable): each pair of them mixes its stiffness from both, restitution and "
            "friction from the smaller, and the glass-steel pair has a restitution of its own. "
            "The plate is rigid: only the ball deforms. Friction is exactly Coulomb while "
            "sliding.",
            {{"n", 216.0, "balls (half glass, half steel), poured from a lattice"},
             {"radius", 0.01, "ball radius (m)"},
             {"glass.E", 6e7, "glass Young's modulus (Pa, softened)"},
             {"glass.e", 0.9, "glass restitution"},
             {"glass.mu", 0.3, "glass friction coefficient"},
             {"steel.E", 2e8, "steel Young's modulus (Pa, softened)"},
             {"steel.e", 0.8, "steel restitution"},
             {"steel.mu", 0.2, "steel friction coefficient"},
             {"pair.e", 0.6, "glass-steel restitution (overrides the smaller of the two)"},
             {"g", 9.81, "gravitational acceleration"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 100000);
    const double r = shape_length(p, "radius", 1), g = positive(p, "g", true);
    SceneSetup s;
    World& world = s.world;
    const int glass = world.materials.add("glass", material(p, "glass", 2500), p.where());
    const int steel = world.materials.add("steel", material(p, "steel", 7800), p.where());
    ParamTable pair(p.where() + " glass-steel");
    pair.set("e", positive(p, "pair.e"));
    world.materials.add_pair("glass", "steel", pair, p.where());
    // A lattice of side^2 columns, glass and steel alternating, in a box 1.2 lattices wide.
    const int side = std::max(1, int(std::ceil(std::cbrt(double(n)))));
    const double spacing = 2.4 * r, half = 0.6 * side * spacing;
    Random random(11);
    for (int k = 0; k < n; ++k) {
      BodySpec b;
      b.material = k % 2 ? steel : glass;
      b.radius = r;
      b.mass = world.materials.at(b.material).keys.number("density") * 4.0 / 3.0 * M_PI * r * r * r;
      b.position =
          Vec3((k % side + 0.5 - 0.5 * side) * spacing + random.uniform(-0.1, 0.1) * r,
               (k / side % side + 0.5 - 0.5 * side) * spacing + random.uniform(-0.1, 0.1) * r,
               (2 + k / (side * side)) * spacing);
      world.add_body(b);
    }
    add_gravity(world, g);
    ParamTable hertz(p.where());
    hertz.set("coulomb", std::string("exact"));
    hertz.set("skin", 0.4 * r);
    std::vector<ParamTable> walls;
    auto wall = [&](const Vec3& point, const Vec3& normal, const std::string& of, bool rigid) {
      ParamTable w;
      w.set("point", std::vector<double>{point.x(), point.y(), point.z()});
      w.set("normal", std::vector<double>{normal.x(), normal.y(), normal.z()});
      w.set("material", of);
      if (rigid) w.set("rigid", true);
      walls.push_back(w);
    };
    wall(Vec3::Zero(), Vec3::UnitZ(), "steel", true);
    for (int axis = 0; axis < 2; ++axis)
      for (double sign : {-1.0, 1.0}) {
        Vec3 point = Vec3::Zero(), normal = Vec3::Zero();
        point(axis) = sign * half;
        normal(axis) = -sign;
        wall(point, normal, "glass", false);
      }
    hertz.set("wall", walls);
    world.add_force(ForceRegistry::instance().make("hertz", hertz));
    // A fortieth of the shortest Hertz contact: a ball of either material on the rigid plate
    // at the speed of a fall from the top layer.
    const double v = std::sqrt(2 * std::max(g, 1e-3) * (3 + n / (side * side)) * spacing);
    s.dt = 1e300;
    for (int m : {glass, steel}) {
      const ParamTable& keys = world.materials.at(m).keys;
      const double mass = keys.number("density") * 4.0 / 3.0 * M_PI * r * r * r;
      const double e_star = keys.number("E") / (1 - 0.25 * 0.25);
      s.dt = std::min(s.dt, 2.868 * std::pow(mass * mass / (r * e_star * e_star * v), 0.2) / 40);
    }
    s.duration = 2;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("two-materials", TwoMaterials);
}  // namespace stepwise
