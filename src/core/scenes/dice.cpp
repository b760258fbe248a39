// Dice thrown onto a walled table: boxes tumbling, bouncing off each other and the walls, and
// coming to rest on a face. Every contact goes through the collision table (box-box by the
// separating-axis test, box-wall by corners), with the hooke law at each manifold point.
#include <cmath>

#include "core/random.hpp"
#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class Dice final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"dice",
                   "dice thrown onto a walled table",
                   "Each die lands on a corner, an edge or a face. Corners and edges give one or "
                   "two contact points and the die rocks over; a face gives four and it rests, "
                   "sunk m g / (4 kn) into the table. Watch friction stop the sliding dice first "
                   "and the rocking ones last.",
                   {{"n", 20.0, "number of dice"},
                    {"a", 1.0, "side of a die"},
                    {"m", 1.0, "mass of a die"},
                    {"g", 9.81, "gravitational acceleration"},
                    {"throw", 3.0, "speed the dice are thrown with"}}};
    // lammps until the shape path books exact friction to second order (README, friction).
    add_contact_params(info.params, 1e5, 20.0, 0.4, "lammps");
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 200000);
    const double a = shape_length(p, "a", 0.5), m = positive(p, "m"),
                 speed = positive(p, "throw", true);
    SceneSetup s;
    Random random(7);
    const ShapePtr die = box_shape(Vec3::Constant(0.5 * a));
    // Dropped from a square lattice of columns over the table, a few layers high.
    const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(n / 4.0))));
    const double spacing = 1.9 * a, half = 0.5 * side * spacing + a;
    for (int k = 0; k < n; ++k) {
      const Quat turn = random_orientation(random);
      BodySpec b = shaped_body(die, m, column_lattice(k, side, spacing, a), turn);
      b.velocity = speed * Vec3(random.normal(), random.normal(), -std::abs(random.normal()));
      b.angular_velocity = 2 * speed / a * Vec3(random.normal(), random.normal(), random.normal());
      s.world.add_body(b);
    }
    add_gravity(s.world, positive(p, "g", true));
    add_contacts(s.world, p, walled_box(half), 0.2 * a);
    s.dt = contact_step(p, 0.5 * m, 30.0);
    s.duration = 5;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("dice", Dice);
}  // namespace stepwise
