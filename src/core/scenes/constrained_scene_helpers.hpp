#pragma once
// Shared by the constrained scenes (pendulums, chains, the bead on a hoop): their parameters and
// the rods, springs or joints that hold them, by the formulation the user picked.
#include <string>
#include <vector>

#include "core/scene.hpp"

namespace stepwise {

// The ways a scene may hold its bodies together (issue: multipliers beside penalty springs).
enum class Formulation { multipliers, penalty, generalised };
Formulation read_formulation(const ParamTable& p);
// An angle parameter in degrees, within ±limit, in radians.
double degrees(const ParamTable& p, const std::string& key, double limit = 360);

// A rigid rod (multipliers) or a stiff spring of that rest length (penalty) between bodies a and
// b, or (b < 0) from a to a fixed anchor.
struct Link {
  int a, b;
  Vec3 anchor;
  double length;
};
// Adds the links as the formulation holds them: a `constraints` model with `drift`, or a
// `spring` model of stiffness k.
void add_links(World& world, const std::vector<Link>& links, Formulation f, const ParamTable& p);
// The `constraints` model with these [[constraint]] tables and the scene's drift control.
void add_constraints(World& world, const std::vector<ParamTable>& constraints, const ParamTable& p);
// A planar chain of pendulum links from `anchor` in the x-z plane by its angles from the
// vertical (generalised coordinates): one unit-mass body per angle and the `pendulum-angles`
// model, which carries gravity itself.
void add_angle_chain(World& world, const Vec3& anchor, const std::vector<double>& angles,
                     const std::vector<double>& lengths, const std::vector<double>& masses,
                     double g, double radius);
// The scene parameters every constrained scene has: drift control, and (with penalty) k.
std::vector<ParamSpec> constraint_params(bool penalty);

}  // namespace stepwise
