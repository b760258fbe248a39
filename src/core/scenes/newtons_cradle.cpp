// Newton's cradle: balls hanging from stiff strings (springs) in a touching row, Hertzian contacts
// between them. Pull the first ball back and let go: the last one flies off.
#include <cmath>

#include "core/scene.hpp"

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
    const double r = positive(p, "radius"), length = positive(p, "length");
    const double angle = p.number("angle") * M_PI / 180.0, g = positive(p, "g", true);
    SceneSetup s;
    std::vector<ParamTable> strings;
    for (int i = 0; i < n; ++i) {
      const Vec3 anchor(2 * r * i, 0, length);
      BodySpec ball;
      ball.radius = r;
      ball.mass = 1.0;
      ball.position = anchor - length * Vec3::UnitZ();
      if (i == 0) ball.position = anchor + length * Vec3(-std::sin(angle), 0, -std::cos(angle));
      s.world.add_body(ball);
      ParamTable string;
      string.set("a", double(i));
      string.set("anchor", std::vector<double>{anchor.x(), anchor.y(), anchor.z()});
      string.set("k", 1e5);
      string.set("rest", length);
      strings.push_back(string);
    }
    ParamTable spring, hertz;
    spring.set("link", strings);
    s.world.add_force(ForceRegistry::instance().make("spring", spring));
    hertz.set("E", positive(p, "E"));
    hertz.set("e", positive(p, "e"));
    hertz.set("mu", 0.0);
    hertz.set("coulomb", std::string("exact"));  // frictionless, and no pull as balls part
    s.world.add_force(ForceRegistry::instance().make("hertz", hertz));
    add_gravity(s.world, g);
    s.dt = 2e-5;
    s.duration = 2;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("newtons-cradle", NewtonsCradle);
}  // namespace stepwise
