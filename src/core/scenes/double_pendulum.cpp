// Two equal bobs on two rods: chaotic from large angles; at small ones two normal modes,
// ω² = (2 ∓ √2) g/L.
#include <cmath>

#include "core/scenes/constrained_scene_helpers.hpp"

namespace stepwise {
namespace {

class DoublePendulum final : public Scene {
 public:
  SceneInfo info() const override {
    std::vector<ParamSpec> params{{"length", 1.0, "length of each rod"},
                                  {"m", 1.0, "mass of each bob"},
                                  {"angle1", 120.0, "upper rod's angle from the vertical, degrees"},
                                  {"angle2", 150.0, "lower rod's angle from the vertical, degrees"},
                                  {"g", 9.81, "gravitational acceleration"}};
    for (const ParamSpec& c : constraint_params(true)) params.push_back(c);
    return {"double-pendulum", "two bobs on two rods: chaos from large angles",
            "From large angles two nearby starts part exponentially fast (try the Compare "
            "panel). From small ones it swings in two normal modes, omega^2 = (2 -+ sqrt 2) g/L: "
            "both bobs together, or against each other.",
            params};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double length = shape_length(p, "length", 0.05), m = positive(p, "m"),
                 g = positive(p, "g", true);
    const double a1 = degrees(p, "angle1"), a2 = degrees(p, "angle2");
    const Formulation f = read_formulation(p);
    SceneSetup s;
    const double period = 2 * M_PI * std::sqrt(length / std::max(g, 1e-12));
    s.duration = 10 * period;
    if (f == Formulation::generalised) {
      add_angle_chain(s.world, Vec3::Zero(), {a1, a2}, {length, length}, {m, m}, g, 0.05 * length);
      s.dt = period / 2000;
      return s;
    }
    BodySpec bob;
    bob.mass = m;
    bob.radius = 0.05 * length;
    const Vec3 first = length * Vec3(std::sin(a1), 0, -std::cos(a1));
    bob.position = first;
    s.world.add_body(bob);
    bob.position = first + length * Vec3(std::sin(a2), 0, -std::cos(a2));
    s.world.add_body(bob);
    add_links(s.world, {{0, -1, Vec3::Zero(), length}, {1, 0, Vec3::Zero(), length}}, f, p);
    add_gravity(s.world, g);
    s.dt = f == Formulation::penalty ? 0.05 / std::sqrt(positive(p, "k") / m) : period / 2000;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("double-pendulum", DoublePendulum);
}  // namespace stepwise
