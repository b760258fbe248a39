// Newton's cradle: balls hanging from stiff strings (springs) in a touching row, Hertzian contacts
// between them. Pull the first ball back and let go: the last one flies off.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class NewtonsCradle final : public Scene {
 public:
  SceneInfo info() const override {
    return {"newtons-cradle",
            "balls on strings in a row: momentum passes through",
            "The first ball hits the row and stops; a pulse runs through the touching balls and "
            "the last one swings out with almost all the momentum. Hertzian contacts make that "
            "transfer nearly perfect; softer, linear springs would not.",
            {{"n", 5.0, "number of balls"},
             {"radius", 0.1, "ball radius"},
             {"length", 1.0, "string length"},
             {"angle", 30.0, "release angle of the first ball, degrees"},
             {"E", 1e8, "Young's modulus of the balls"},
             {"e", 1.0, "coefficient of restitution"},
             {"g", 9.81, "gravitational acceleration"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 2, 100);
    const double r = shape_length(p, "radius", 1), length = positive(p, "length");
    const double angle = p.number("angle") * M_PI / 180.0, g = positive(p, "g", true);
    SceneSetup s;
    std::vector<Vec3> anchors;
    for (int i = 0; i < n; ++i) {
      const Vec3 anchor(2 * r * i, 0, length);
      BodySpec ball;
      ball.radius = r;
      ball.mass = 1.0;
      ball.position = anchor - length * Vec3::UnitZ();
      if (i == 0) ball.position = anchor + length * Vec3(-std::sin(angle), 0, -std::cos(angle));
      s.world.add_body(ball);
      anchors.push_back(anchor);
    }
    add_cradle_strings(s.world, p, anchors, length);
    add_gravity(s.world, g);
    s.dt = 2e-5;
    s.duration = 2;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("newtons-cradle", NewtonsCradle);
}  // namespace stepwise
