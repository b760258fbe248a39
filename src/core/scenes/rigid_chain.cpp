// n bobs on n rods hanging from a fixed point: the rod version of spring-chain. Released from
// `angle` as a straight chain it whips; with penalty springs the same chain needs a step set by
// the springs' stiffness, with rods only by the motion.
#include <cmath>

#include "core/scenes/constrained_scene_helpers.hpp"

namespace stepwise {
namespace {

class RigidChain final : public Scene {
 public:
  SceneInfo info() const override {
    std::vector<ParamSpec> params{{"n", 10.0, "number of links"},
                                  {"length", 0.2, "length of each rod"},
                                  {"m", 0.1, "mass of each bob"},
                                  {"angle", 60.0, "starting angle of the straight chain, degrees"},
                                  {"g", 9.81, "gravitational acceleration"}};
    for (const ParamSpec& c : constraint_params(true)) params.push_back(c);
    return {"rigid-chain", "a hanging chain of rods, released straight",
            "The multipliers of all links are solved together (a sparse J W Jt system, one row "
            "per rod). Compare the formulations: rods keep every link's length, springs stretch "
            "as the whip runs down the chain.",
            params};
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 10000);
    const double length = shape_length(p, "length", 0.15), m = positive(p, "m"),
                 g = positive(p, "g", true);
    const double angle = degrees(p, "angle", 180);
    const Formulation f = read_formulation(p);
    SceneSetup s;
    const double period = 2 * M_PI * std::sqrt(n * length / std::max(g, 1e-12));
    s.duration = 3 * period;
    if (f == Formulation::generalised) {
      if (n > 200)
        throw InputError(p.where("n") + ": generalised coordinates take at most 200 links");
      add_angle_chain(s.world, Vec3::Zero(), std::vector<double>(n, angle),
                      std::vector<double>(n, length), std::vector<double>(n, m), g, 0.15 * length);
      s.dt = period / (200.0 * n);
      return s;
    }
    const Vec3 step = length * Vec3(std::sin(angle), 0, -std::cos(angle));
    std::vector<Link> links;
    for (int i = 0; i < n; ++i) {
      BodySpec bob;
      bob.mass = m;
      bob.radius = 0.15 * length;
      bob.position = (i + 1) * step;
      s.world.add_body(bob);
      links.push_back({i, i - 1, Vec3::Zero(), length});
    }
    add_links(s.world, links, f, p);
    add_gravity(s.world, g);
    s.dt =
        f == Formulation::penalty ? 0.05 / std::sqrt(positive(p, "k") / m) : period / (200.0 * n);
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("rigid-chain", RigidChain);
}  // namespace stepwise
