#pragma once
// Shared by the rigid-body scenes: a box body from principal moments or sides, and the closed
// forms the tests and the classroom notes compare against.
#include "core/params.hpp"
#include "core/world.hpp"

namespace stepwise {

// A box of the given mass whose inertia is I1..I3 (or whose sides are a, b, c when given).
BodySpec rigid_body_from(const ParamTable& p, double mass);
// A symmetric body (I1 = I2) drawn as its equivalent uniform box; `where` names the scene.
BodySpec symmetric_body(const std::string& where, double mass, double I1, double I3);
// Complete elliptic integral of the first kind K(m), m = k^2, by the arithmetic-geometric mean.
double elliptic_k(double m);
// Time between successive sign changes of the intermediate-axis body rate of a free top.
double flip_half_period(const Vec3& inertia, const Vec3& body_rate);

}  // namespace stepwise
