// A simple pendulum: a bob on a massless rod (Lagrange multipliers) or on a stiff spring
// (penalty). Released from `angle` its period is 4 sqrt(L/g) K(sin²(angle/2)): 7.416299 sqrt(L/g)
// from 90°. The two formulations side by side show |C| drifting, the energy error, and the step
// the spring's stiffness demands.
#include <cmath>

#include "core/scenes/constrained_scene_helpers.hpp"

namespace stepwise {
namespace {

class Pendulum final : public Scene {
 public:
  SceneInfo info() const override {
    std::vector<ParamSpec> params{{"length", 1.0, "rod length"},
                                  {"angle", 90.0, "release angle from the vertical, degrees"},
                                  {"m", 1.0, "bob mass"},
                                  {"g", 9.81, "gravitational acceleration"}};
    for (const ParamSpec& c : constraint_params(true)) params.push_back(c);
    return {"pendulum",
            "a bob on a rigid rod (multipliers), a stiff spring (penalty), or its angle",
            "The rod's tension is a Lagrange multiplier: it does no work, and no step size is "
            "set by it. A penalty spring needs dt below 2/sqrt(k/m) and lets the rod stretch. "
            "Watch max |C| (Stats) drift without drift control, and the period: 7.4163 "
            "sqrt(L/g) from 90 degrees, against 2 pi sqrt(L/g) for small swings.",
            params};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double length = shape_length(p, "length", 0.05), m = positive(p, "m"),
                 g = positive(p, "g", true);
    const double angle = degrees(p, "angle", 180);
    const Formulation f = read_formulation(p);
    SceneSetup s;
    const double period = 2 * M_PI * std::sqrt(length / std::max(g, 1e-12));
    s.duration = 5 * period;
    if (f == Formulation::generalised) {
      add_angle_chain(s.world, Vec3(0, 0, length), {angle}, {length}, {m}, g, 0.05 * length);
      s.dt = period / 1000;
      return s;
    }
    BodySpec bob;
    bob.mass = m;
    bob.radius = 0.05 * length;
    const Vec3 pivot(0, 0, length);  // the lowest point at z = 0, so E > 0
    bob.position = pivot + length * Vec3(std::sin(angle), 0, -std::cos(angle));
    s.world.add_body(bob);
    add_links(s.world, {{0, -1, pivot, length}}, f, p);
    add_gravity(s.world, g);
    s.dt = f == Formulation::penalty ? 0.05 / std::sqrt(positive(p, "k") / m) : period / 1000;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("pendulum", Pendulum);
}  // namespace stepwise
