#include "core/scenes/rigid_scene_helpers.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/limits.hpp"
#include "core/scene.hpp"

namespace stepwise {
namespace {

// A principal moment the drawn box can have: its sides within the shapes' length range.
double moment(const ParamTable& p, const std::string& key, double mass) {
  positive(p, key);
  return within(p, key, mass * limits::kMinLength * limits::kMinLength,
                mass * limits::kMaxLength * limits::kMaxLength / 4,
                " for a mass of " + format_double(mass));
}

}  // namespace

BodySpec rigid_body_from(const ParamTable& p, double mass) {
  BodySpec body;
  body.mass = mass;
  const double a = p.number("a"), b = p.number("b"), c = p.number("c");
  if (a > 0 || b > 0 || c > 0) {
    if (!(a > 0 && b > 0 && c > 0))
      throw InputError(p.where() + ": give all three box sides a, b, c (positive)");
    body.shape = box_shape(0.5 * Vec3(shape_length(p, "a", 0.5), shape_length(p, "b", 0.5),
                                      shape_length(p, "c", 0.5)));
    return body;  // inertia from the box
  }
  const Vec3 I(moment(p, "I1", mass), moment(p, "I2", mass), moment(p, "I3", mass));
  if (I(0) + I(1) < I(2) || I(1) + I(2) < I(0) || I(0) + I(2) < I(1))
    throw InputError(p.where() + ": principal moments must satisfy the triangle inequality");
  body.inertia = I;
  // Draw it as the uniform box with these moments: h_x^2 = 3/(2m) (I2 + I3 - I1), etc.
  const double s = 1.5 / mass;
  body.shape = box_shape(Vec3(std::sqrt(std::max(1e-6, s * (I(1) + I(2) - I(0)))),
                              std::sqrt(std::max(1e-6, s * (I(0) + I(2) - I(1)))),
                              std::sqrt(std::max(1e-6, s * (I(0) + I(1) - I(2))))));
  return body;
}

BodySpec symmetric_body(const std::string& where, double mass, double I1, double I3) {
  ParamTable shape(where);
  for (const char* side : {"a", "b", "c"}) shape.set(side, 0.0);
  shape.set("I1", I1);
  shape.set("I2", I1);
  shape.set("I3", I3);
  // Each moment in range before their relation is judged (I1 = 1e-300 is too small, not I3 too
  // large).
  moment(shape, "I1", mass);
  moment(shape, "I3", mass);
  if (I3 > 2 * I1) throw InputError(where + ": I3 must not exceed 2 I1 (a real body)");
  return rigid_body_from(shape, mass);
}

double elliptic_k(double m) {
  double a = 1.0, g = std::sqrt(1.0 - m);
  for (int i = 0; i < 60 && std::abs(a - g) > 1e-16 * a; ++i) {
    const double next = 0.5 * (a + g);
    g = std::sqrt(a * g);
    a = next;
  }
  return M_PI / (2.0 * a);
}

// Landau & Lifshitz, Mechanics, section 37: with axes ordered I_a < I_b < I_c, the body rates are
// Jacobi elliptic functions of tau = t sqrt((I_c - I_b)(L^2 - 2 E I_a) / (I_a I_b I_c)) with
// k^2 = (I_b - I_a)(2 E I_c - L^2) / ((I_c - I_b)(L^2 - 2 E I_a)) when L^2 > 2 E I_b (roles of a
// and c swapped otherwise). sn has period 4K, so the intermediate rate changes sign every 2K.
double flip_half_period(const Vec3& inertia, const Vec3& rate) {
  std::array<int, 3> order = {0, 1, 2};
  std::sort(order.begin(), order.end(), [&](int i, int j) { return inertia(i) < inertia(j); });
  double Ia = inertia(order[0]), Ib = inertia(order[1]), Ic = inertia(order[2]);
  const double E = 0.5 * inertia.dot(rate.cwiseProduct(rate));
  const double L2 = inertia.cwiseProduct(rate).squaredNorm();
  if (L2 < 2 * E * Ib) std::swap(Ia, Ic);
  const double speed = std::sqrt(std::abs((Ic - Ib) * (L2 - 2 * E * Ia)) / (Ia * Ib * Ic));
  const double m = (Ib - Ia) * (2 * E * Ic - L2) / ((Ic - Ib) * (L2 - 2 * E * Ia));
  return 2.0 * elliptic_k(m) / speed;
}

}  // namespace stepwise
