#include "core/world.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {

World::World(const World& other)
    : x(other.x), v(other.v), q(other.q), L(other.L), w(other.w), mass(other.mass),
      inv_mass(other.inv_mass), inertia(other.inertia), shape(other.shape), radius(other.radius),
      half_extents(other.half_extents), flags(other.flags), pivot(other.pivot),
      pivot_arm(other.pivot_arm), clump(other.clump), local_damping(other.local_damping) {
  for (const auto& f : other.forces) forces.push_back(f->clone());
}

World& World::operator=(const World& other) {
  if (this != &other) {
    World copy(other);
    *this = std::move(copy);
  }
  return *this;
}

double sphere_inertia(double mass, double radius) { return 0.4 * mass * radius * radius; }

Vec3 box_inertia(double mass, const Vec3& h) {
  const Vec3 s = h.cwiseProduct(h);
  return mass / 3.0 * Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y());
}

namespace {
template <class M>
void append_column(M& m, const Vec3& value) {
  m.conservativeResize(3, m.cols() + 1);
  m.col(m.cols() - 1) = value;
}
void append(VecX& vec, double value) {
  vec.conservativeResize(vec.size() + 1);
  vec(vec.size() - 1) = value;
}
}  // namespace

int World::add_body(const BodySpec& s) {
  if (!(s.mass > 0) || !std::isfinite(s.mass))
    throw InputError("body " + std::to_string(size()) + ": mass must be positive and finite");
  if (s.shape == Shape::Sphere && !(s.radius > 0))
    throw InputError("body " + std::to_string(size()) + ": radius must be positive");
  if (s.shape == Shape::Clump && (s.clump.empty() || s.inertia.isZero()))
    throw InputError("body " + std::to_string(size()) + ": a clump needs spheres and inertia (use clump_body)");
  if (s.shape == Shape::Box && !(s.half_extents.minCoeff() > 0))
    throw InputError("body " + std::to_string(size()) + ": box sides must be positive");
  Vec3 principal = s.inertia;
  if (principal.isZero())
    principal = s.shape == Shape::Sphere ? Vec3::Constant(sphere_inertia(s.mass, s.radius))
                                         : box_inertia(s.mass, s.half_extents);
  if (!(principal.minCoeff() > 0))
    throw InputError("body " + std::to_string(size()) + ": inertia must be positive");
  const int i = size();
  double bounding_radius = s.radius;
  if (s.shape == Shape::Clump) {
    bounding_radius = 0;
    for (const ClumpSphere& c : s.clump)
      bounding_radius = std::max(bounding_radius, c.centre.norm() + c.radius);
  }
  const bool fixed = s.flags & kFixed;  // a fixed body never moves, whatever the input says
  append_column(x, s.position);
  append_column(v, fixed ? Vec3::Zero() : s.velocity);
  // Unit quaternions are kept bit for bit (saved states reload exactly).
  q.push_back(std::abs(s.orientation.squaredNorm() - 1) < 1e-14 ? s.orientation
                                                                 : s.orientation.normalized());
  append_column(L, Vec3::Zero());
  append_column(w, Vec3::Zero());
  append(mass, s.mass);
  append(inv_mass, (s.flags & (kFixed | kDriven | kPivot)) ? 0.0 : 1.0 / s.mass);
  append_column(inertia, principal);
  shape.push_back(s.shape);
  append(radius, bounding_radius);
  append_column(half_extents, s.half_extents);
  flags.push_back(s.flags);
  append_column(pivot, s.pivot);
  append_column(pivot_arm, s.pivot_arm.allFinite() ? s.pivot_arm
                                                   : Vec3(q[i].conjugate() * (s.position - s.pivot)));
  clump.push_back(s.shape == Shape::Clump ? s.clump : std::vector<ClumpSphere>{});
  set_angular_velocity(i, fixed ? Vec3::Zero() : s.angular_velocity);
  return i;
}

BodySpec World::body_spec(int i) const {
  BodySpec s;
  s.position = x.col(i);
  s.velocity = v.col(i);
  s.orientation = q[i];
  s.angular_velocity = w.col(i);
  s.mass = mass(i);
  s.shape = shape[i];
  s.radius = radius(i);
  s.half_extents = half_extents.col(i);
  s.inertia = inertia.col(i);
  s.flags = flags[i];
  s.pivot = pivot.col(i);
  s.pivot_arm = pivot_arm.col(i);
  s.clump = clump[i];
  return s;
}

BodySpec clump_body(const std::vector<ClumpSphere>& spheres, double mass, const Vec3& origin,
                    const Quat& orientation) {
  const MassProperties p = clump_mass_properties(spheres);
  BodySpec b;
  b.shape = Shape::Clump;
  b.mass = mass;
  b.inertia = p.principal * (mass / p.volume);
  b.position = origin + orientation * p.centre;
  b.orientation = (orientation * p.axes).normalized();
  for (const ClumpSphere& s : spheres)
    b.clump.push_back({p.axes.conjugate() * (s.centre - p.centre), s.radius});
  return b;
}

ForceModel& World::add_force(std::unique_ptr<ForceModel> model) {
  forces.push_back(std::move(model));
  return *forces.back();
}

Vec3 World::rotational_inertia(int i) const {
  Vec3 moments = inertia.col(i);
  if (flags[i] & kPivot) {
    // Parallel-axis theorem, valid when the arm lies along a principal axis (checked in add_body
    // callers: the heavy top's arm is its symmetry axis).
    const Vec3 r = pivot_arm.col(i);
    const double r2 = r.squaredNorm();
    moments += mass(i) * (Vec3::Constant(r2) - r.cwiseProduct(r));
  }
  return moments;
}

void World::sync_angular_velocity(int i) {
  if (flags[i] & kFixed) {  // however it was set, a fixed body does not turn
    L.col(i).setZero();
    w.col(i).setZero();
    return;
  }
  if (isotropic(i)) {
    w.col(i) = L.col(i) / inertia(0, i);
    return;
  }
  const Mat3 R = q[i].toRotationMatrix();
  const Vec3 body_L = R.transpose() * L.col(i);
  w.col(i) = R * body_L.cwiseQuotient(rotational_inertia(i));
  if (flags[i] & kPivot) {
    // A pivoted body has no free translation: its kinetic energy is all in ½ ω·L about the pivot.
    x.col(i) = pivot.col(i) + R * pivot_arm.col(i);
    v.col(i).setZero();
  }
}

void World::sync_all_angular_velocities() {
  for (int i = 0; i < size(); ++i) sync_angular_velocity(i);
}

void World::set_angular_velocity(int i, const Vec3& omega_world) {
  const Mat3 R = q[i].toRotationMatrix();
  L.col(i) = R * (R.transpose() * omega_world).cwiseProduct(rotational_inertia(i));
  sync_angular_velocity(i);
}

}  // namespace stepwise
