// A bead on a vertical hoop spun about its vertical diameter at omega. Below omega² R = g the
// bottom is stable; above it the bead rises to cos θ* = g / (omega² R), a pitchfork bifurcation.
// The hoop is a moving constraint (rows with ∂C/∂t): its motor does work, booked as such.
#include <cmath>

#include "core/scenes/constrained_scene_helpers.hpp"

namespace stepwise {
namespace {

class BeadOnHoop final : public Scene {
 public:
  SceneInfo info() const override {
    std::vector<ParamSpec> params{
        {"R", 1.0, "hoop radius"},
        {"omega", 5.0, "spin of the hoop about its vertical diameter (rad/s)"},
        {"g", 9.81, "gravitational acceleration"},
        {"m", 1.0, "bead mass"},
        {"angle", 10.0, "starting angle from the bottom, degrees"},
        {"damping", 0.5, "linear drag on the bead"}};
    for (const ParamSpec& c : constraint_params(false)) params.push_back(c);
    return {"bead-on-hoop",
            "a bead on a spinning hoop: the bottom, or a ring at cos theta = g/(omega^2 R)",
            "Spin the hoop faster than sqrt(g/R) and the bottom stops being stable: the bead "
            "settles where gravity and the centrifugal pull balance, cos theta = g/(omega^2 R). "
            "The hoop's motor works on the bead; the ledger books it as external work.",
            params};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double R = shape_length(p, "R", 0.1), omega = p.number("omega"),
                 g = positive(p, "g", true);
    const double m = positive(p, "m"), damping = positive(p, "damping", true);
    const double angle = degrees(p, "angle", 180);
    if (!(std::abs(omega) <= 1e4))
      throw InputError(p.where("omega") + ": omega must be within +-1e4");
    SceneSetup s;
    BodySpec bead;
    bead.mass = m;
    bead.radius = 0.1 * R;
    bead.position = R * Vec3(std::sin(angle), 0, -std::cos(angle));
    bead.velocity = omega * Vec3::UnitZ().cross(bead.position);  // turning with the hoop
    s.world.add_body(bead);
    ParamTable hoop;
    hoop.set("kind", std::string("hoop"));
    hoop.set("a", 0.0);
    hoop.set("R", R);
    hoop.set("omega", omega);
    hoop.set("normal", std::vector<double>{0, 1, 0});
    add_constraints(s.world, {hoop}, p);
    add_gravity(s.world, g);
    if (damping > 0) {
      ParamTable drag;
      drag.set("c", damping);
      s.world.add_force(ForceRegistry::instance().make("linear-drag", drag));
    }
    const double fast = std::max({std::abs(omega), std::sqrt(std::max(g, 1e-12) / R), 1e-6});
    s.dt = 2 * M_PI / fast / 1000;
    s.duration = 30;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("bead-on-hoop", BeadOnHoop);
}  // namespace stepwise
