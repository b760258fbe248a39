#pragma once
// Unit-quaternion helpers in the PFC/Wang notation (scalar first, Hamilton product). Orientations
// map body to world: v_world = q v_body q*.
#include <cmath>

#include "core/types.hpp"

namespace stepwise::quat {

// Hamilton product qp = (q0 p0 - q.p, q0 p + p0 q + q x p)  (PFC eq 14)
inline Quat product(const Quat& q, const Quat& p) {
  const Vec3 qv = q.vec(), pv = p.vec();
  Quat out;
  out.w() = q.w() * p.w() - qv.dot(pv);
  out.vec() = q.w() * pv + p.w() * qv + qv.cross(pv);
  return out;
}

inline Quat conjugate(const Quat& q) { return Quat(q.w(), -q.x(), -q.y(), -q.z()); }

// q v q* with v as a pure quaternion (PFC eq 17).
inline Vec3 rotate(const Quat& q, const Vec3& v) {
  return product(product(q, Quat(0, v.x(), v.y(), v.z())), conjugate(q)).vec();
}

// The rotation "first, then second" is second * first.
inline Quat compose(const Quat& first, const Quat& second) { return product(second, first); }

inline Quat from_axis_angle(const Vec3& axis, double angle) {
  const Vec3 n = axis.normalized();
  const double s = std::sin(0.5 * angle);
  return Quat(std::cos(0.5 * angle), s * n.x(), s * n.y(), s * n.z());
}

// exp map: the rotation by |r| about r/|r| (exact and smooth through r = 0).
inline Quat exp_map(const Vec3& r) {
  const double angle = r.norm();
  const double s = angle < 1e-4 ? 0.5 - angle * angle / 48.0 : std::sin(0.5 * angle) / angle;
  return Quat(std::cos(0.5 * angle), s * r.x(), s * r.y(), s * r.z());
}

// log map: the rotation vector of q, angle in [0, pi].
inline Vec3 log_map(const Quat& q_in) {
  Quat q = q_in.normalized();
  if (q.w() < 0) q.coeffs() = -q.coeffs();  // q and -q are the same rotation
  const double s = q.vec().norm();
  const double angle = 2.0 * std::atan2(s, q.w());
  return s < 1e-12 ? Vec3(2.0 * q.vec()) : Vec3(q.vec() * (angle / s));
}

inline Quat renormalised(const Quat& q) { return q.normalized(); }

}  // namespace stepwise::quat
