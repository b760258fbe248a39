// A box swinging on a hinge along y through the middle of its top face: a compound pendulum,
// small-swing period 2π sqrt(I_p / (m g d)) with d = c/2 and I_p = m (a² + c²)/12 + m d². The
// hinge's five rows act on the box's spin as well as its centre, so the rotation scheme and the
// translational integrator are coupled through the multipliers.
#include <cmath>

#include "core/scenes/constrained_scene_helpers.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise {
namespace {

class CompoundPendulum final : public Scene {
 public:
  SceneInfo info() const override {
    std::vector<ParamSpec> params{{"a", 0.4, "box side along x (across the swing)"},
                                  {"b", 0.1, "box side along y (the hinge axis)"},
                                  {"c", 1.0, "box side along z (hanging down)"},
                                  {"m", 1.0, "box mass"},
                                  {"angle", 30.0, "release angle from the vertical, degrees"},
                                  {"g", 9.81, "gravitational acceleration"}};
    for (const ParamSpec& c : constraint_params(false)) params.push_back(c);
    return {"compound-pendulum", "a box on a hinge: a compound pendulum",
            "A rigid body held by a hinge (a ball joint plus two aligned axes: five multipliers). "
            "Its small-swing period is 2 pi sqrt(I_p/(m g d)) about the hinge, longer than a "
            "simple pendulum's of the same length because the box's own inertia swings too.",
            params};
  }
  SceneSetup build(const ParamTable& p) const override {
    const double a = shape_length(p, "a", 0.5), b = shape_length(p, "b", 0.5),
                 c = shape_length(p, "c", 0.5);
    const double m = positive(p, "m"), g = positive(p, "g", true), angle = degrees(p, "angle", 180);
    SceneSetup s;
    const Quat turn(Eigen::AngleAxisd(angle, Vec3::UnitY()));
    const Vec3 hinge = Vec3::Zero(), top = Vec3(0, 0, 0.5 * c);  // the hinge in the box's frame
    s.world.add_body(shaped_body(box_shape(0.5 * Vec3(a, b, c)), m, hinge - turn * top, turn));
    ParamTable joint;
    joint.set("kind", std::string("hinge"));
    joint.set("a", 0.0);
    joint.set("point_a", std::vector<double>{top.x(), top.y(), top.z()});
    joint.set("anchor", std::vector<double>{hinge.x(), hinge.y(), hinge.z()});
    joint.set("axis_a", std::vector<double>{0, 1, 0});
    joint.set("axis_b", std::vector<double>{0, 1, 0});
    add_constraints(s.world, {joint}, p);
    add_gravity(s.world, g);
    const double d = 0.5 * c, inertia = m * (a * a + c * c) / 12 + m * d * d;
    const double period = 2 * M_PI * std::sqrt(inertia / (m * std::max(g, 1e-12) * d));
    s.dt = period / 1000;
    s.duration = 5 * period;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("compound-pendulum", CompoundPendulum);
}  // namespace stepwise
