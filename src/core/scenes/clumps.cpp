// Clumps poured into a box (PFC's clumps): rigid unions of two to four overlapping pebbles that
// touch each other, the floor and the walls only through their pebbles, so they interlock and
// pile steeper than spheres would.
#include <cmath>

#include "core/random.hpp"
#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

std::vector<ClumpSphere> pebbles(const std::string& shape, double r, const std::string& where) {
  const double d = 0.7 * r;  // centres this far from the clump's middle: the pebbles overlap
  if (shape == "pair") return {{Vec3(-d, 0, 0), r}, {Vec3(d, 0, 0), r}};
  if (shape == "triangle") {
    std::vector<ClumpSphere> out;
    for (int k = 0; k < 3; ++k)
      out.push_back({d * Vec3(std::cos(2 * M_PI * k / 3), std::sin(2 * M_PI * k / 3), 0), r});
    return out;
  }
  if (shape == "tetra") {
    const double c = d / std::sqrt(3.0);
    return {{c * Vec3(1, 1, 1), r}, {c * Vec3(1, -1, -1), r}, {c * Vec3(-1, 1, -1), r},
            {c * Vec3(-1, -1, 1), r}};
  }
  throw InputError(where + ": 'shape' must be 'pair', 'triangle' or 'tetra'");
}

class Clumps final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"clumps",
                   "clumps of two to four pebbles poured into a box",
                   "Every clump is one rigid body; its pebbles give it a bumpy surface. Where "
                   "spheres would roll away, clumps lock into each other and the pile stands "
                   "steeper. Compare shape = pair, triangle and tetra.",
                   {{"n", 200.0, "number of clumps"},
                    {"shape", std::string("tetra"), "pair, triangle or tetra"},
                    {"radius", 0.5, "pebble radius"},
                    {"m", 1.0, "mass of a clump"},
                    {"g", 9.81, "gravitational acceleration"}}};
    // lammps until the shape path books exact friction to second order (README, friction).
    add_contact_params(info.params, 1e4, 20.0, 0.5, "lammps");
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 200000);
    const double r = shape_length(p, "radius", 1), m = positive(p, "m");
    const ShapePtr shape = clump_shape(pebbles(p.text("shape", "tetra"), r, p.where()));
    SceneSetup s;
    Random random(19);
    const double spacing = 2 * shape->bounding_radius() * 1.05;
    const int side = std::max(2, static_cast<int>(std::ceil(std::cbrt(n / 4.0))));
    const double half = 0.5 * side * spacing + 2 * r;
    for (int k = 0; k < n; ++k) {
      const Quat turn = random_orientation(random);
      s.world.add_body(shaped_body(shape, m, column_lattice(k, side, spacing, 0.5 * spacing + r), turn));
    }
    add_gravity(s.world, positive(p, "g", true));
    add_contacts(s.world, p, walled_box(half), 0.2 * r);
    s.dt = contact_step(p, 0.5 * m, 30.0);
    s.duration = 5;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("clumps", Clumps);
}  // namespace stepwise
