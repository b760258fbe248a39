// What the constraint kinds share: a row's rate and the kinematics of an attached point.
#include "core/constraints/constraint.hpp"

#include <array>
#include <cmath>
#include <vector>

#include "core/world.hpp"

namespace stepwise {

double constraint_velocity(const ConstraintRow& row, const Positions& v, const Positions& w) {
  double rate = 0;
  for (int k = 0; k < 2; ++k) {
    const int b = row.body[k];
    if (b < 0) continue;
    rate += row.lin[k].dot(v.col(b)) + row.ang[k].dot(w.col(b));
  }
  return rate;
}

namespace {

// Whether q p, the body-frame point p turned into the world frame, is +0 in every component
// without turning it: p is the centre (all +0 bits) and q finite, where the rotation's arithmetic
// gives exactly that (for speed only: most joints sit at centres, and every evaluation turns
// both ends).
inline bool turns_to_zero(const Quat& q, const Vec3& p) {
  return p.x() == 0 && p.y() == 0 && p.z() == 0 && !std::signbit(p.x()) && !std::signbit(p.y()) &&
         !std::signbit(p.z()) && std::isfinite(q.w() + q.x() + q.y() + q.z());
}

}  // namespace

Attachment attach(const ConstraintState& s, int body, const Vec3& point) {
  if (body < 0) return {point, Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  const Quat& q = s.world.q[body];
  const Vec3 arm = turns_to_zero(q, point) ? Vec3(Vec3::Zero()) : Vec3(q * point);
  const Vec3 w = s.w.col(body);
  return {s.x.col(body) + arm, s.v.col(body) + w.cross(arm), arm, w.cross(w.cross(arm))};
}

Vec3 attached_position(const ConstraintState& s, int body, const Vec3& point) {
  if (body < 0) return point;
  const Quat& q = s.world.q[body];
  const Vec3 arm = turns_to_zero(q, point) ? Vec3(Vec3::Zero()) : Vec3(q * point);
  return s.x.col(body) + arm;
}

void Constraint::positions_error(const ConstraintState& s, double* c) const {
  // On the stack (SHAKE calls this every sweep): no kind has more rows than a hinge's five.
  constexpr int kMostRows = 8;
  std::array<ConstraintRow, kMostRows> stack;
  std::vector<ConstraintRow> heap(rows() > kMostRows ? size_t(rows()) : 0);
  ConstraintRow* const rows_out = heap.empty() ? stack.data() : heap.data();
  evaluate(s, rows_out);
  for (int r = 0; r < rows(); ++r) c[r] = rows_out[r].c;
}

JointEnd read_end(const ParamTable& p, const std::string& body_key, const std::string& point_key,
                  int fallback_body) {
  JointEnd end;
  end.body = p.index(body_key, fallback_body);
  end.point = p.vec3(point_key, Vec3::Zero());
  if (!end.point.allFinite() || end.point.norm() > 1e12)
    throw InputError(p.where(point_key) + ": " + point_key + " must be finite, below 1e12");
  return end;
}

bool off_centre(const JointEnd& a, const JointEnd& b) {
  return a.point != Vec3::Zero() || (b.body >= 0 && b.point != Vec3::Zero());
}

Vec3 read_direction(const ParamTable& p, const std::string& key, const Vec3& fallback) {
  const Vec3 d = p.vec3(key, fallback);
  const double n = d.norm();
  if (!(n > 1e-9 && n < 1e12))
    throw InputError(p.where(key) + ": " + key + " must be a nonzero direction");
  return d / n;
}

void write_end(ParamTable& out, const JointEnd& end, const std::string& body_key,
               const std::string& point_key) {
  if (end.body >= 0) out.set(body_key, double(end.body));
  out.set(point_key, std::vector<double>{end.point.x(), end.point.y(), end.point.z()});
}

}  // namespace stepwise
