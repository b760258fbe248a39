// A stiff spring pendulum under gravity: a fast stretching mode beside a slow swing, the classic
// stiff problem where explicit methods need tiny steps and implicit ones do not.
#include <cmath>

#include "core/scene.hpp"

namespace stepwise {
namespace {

class SpringPendulum final : public Scene {
 public:
  SceneInfo info() const override {
    return {"spring-pendulum",
            "a stiff elastic pendulum under gravity",
            "Two time scales: the spring vibrates sqrt(k/m) fast while the pendulum swings "
            "sqrt(g/l) slowly. Explicit methods must resolve the fast one; implicit Euler can "
            "step over it but damps it away.",
            {{"k", 500.0, "spring stiffness"},
             {"m", 1.0, "bob mass"},
             {"length", 1.0, "rest length of the spring"},
             {"angle", 30.0, "initial angle from the vertical, degrees"},
             {"g", 9.81, "gravitational acceleration"}}};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double k = positive(p, "k"), m = positive(p, "m"), length = positive(p, "length");
    const double angle = p.number("angle") * M_PI / 180.0, g = positive(p, "g", true);
    SceneSetup s;
    BodySpec bob;
    bob.mass = m;
    bob.radius = 0.08;
    bob.position = length * Vec3(std::sin(angle), 0, -std::cos(angle));
    s.world.add_body(bob);
    ParamTable link, spring;
    link.set("a", 0.0);
    link.set("k", k);
    link.set("rest", length);
    spring.set("link", std::vector<ParamTable>{link});
    s.world.add_force(ForceRegistry::instance().make("spring", spring));
    add_gravity(s.world, g);
    s.dt = 0.05 / std::sqrt(k / m);
    s.duration = 10;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("spring-pendulum", SpringPendulum);
}  // namespace stepwise
