#include "core/world.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/limits.hpp"

namespace stepwise {

World::World(const World& other) {
  *this = other;
}

World& World::operator=(const World& other) {
  if (this == &other) return *this;
  x = other.x, v = other.v, q = other.q, L = other.L, w = other.w;
  mass = other.mass, inv_mass = other.inv_mass, inertia = other.inertia;
  sphere_moment = other.sphere_moment, shape = other.shape, radius = other.radius;
  flags = other.flags, material = other.material, pivot = other.pivot;
  pivot_arm = other.pivot_arm, ids = other.ids;
  forces.clear();
  for (const auto& f : other.forces) forces.push_back(f->clone());
  materials = other.materials, local_damping = other.local_damping, contact = other.contact;
  dimensions = other.dimensions;
  return *this;
}

int sphere_type() {
  static const int type = shape_type("sphere");
  return type;
}

int World::add_body(const BodySpec& s) {
  add_bodies(&s, 1);
  return size() - 1;
}

void World::add_bodies(const BodySpec* specs, int count) {
  add_bodies(count, [specs](int k, BodySpec& spec) { spec = specs[k]; });
}

namespace {
// A body's checked spec: its shape (shared with the body before it where they are alike), its
// principal moments and the radius column's number.
struct Prepared {
  ShapePtr shape;
  Vec3 principal;
  double r = 0;
};

// Body `index`'s spec checked (BodyError if refused); `previous`: the body before it, prepared
// in the same chunk, or null to take it from the World.
Prepared check_body(const World& world, const BodySpec& s, int index, const Prepared* previous) {
  auto refuse = [&](const std::string& why) {
    throw BodyError(index, "body " + std::to_string(index) + ": " + why);
  };
  if (!(s.mass > 0) || !std::isfinite(s.mass)) refuse("mass must be positive and finite");
  if (!s.shape && !(s.radius > 0 && std::isfinite(s.radius)))
    refuse("radius must be positive and finite");
  if (s.material < 0 || s.material > world.materials.size())
    refuse("no material " + std::to_string(s.material));
  // Spheres of one radius in a row share one shape (a packing has a handful), however given;
  // disks too (they collide as spheres), never with a sphere.
  const double r = s.shape ? s.shape->bounding_radius() : s.radius;  // the radius column
  const bool round = !s.shape || s.shape->type() == sphere_type();
  const ShapePtr* before = previous    ? &previous->shape
                           : index > 0 ? &world.shape[size_t(index) - 1]
                                       : nullptr;
  const double before_r = previous ? previous->r : index > 0 ? world.radius(index - 1) : 0;
  const bool same = round && before && (*before)->type() == sphere_type() &&
                    (*before)->planar() == (s.shape && s.shape->planar()) && before_r == r;
  Prepared p;
  p.shape = same ? *before : s.shape ? s.shape : sphere_shape(s.radius);
  p.r = r;
  p.principal = s.inertia;
  if (p.principal.isZero()) p.principal = s.mass * p.shape->unit_inertia();
  if (!(p.principal.minCoeff() > 0) || !p.principal.allFinite())
    refuse("inertia must be positive (a " + p.shape->kind() +
           " read in its body frame needs `inertia`)");
  return p;
}

// Body i's columns from its checked spec (the arrays already hold it).
void write_body(World& world, int i, const BodySpec& s, Prepared& p) {
  const bool fixed = s.flags & kFixed;  // a fixed body never moves, whatever the input says
  world.x.col(i) = s.position;
  world.v.col(i) = fixed ? Vec3::Zero() : s.velocity;
  // Unit quaternions are kept bit for bit (saved states reload exactly).
  world.q[size_t(i)] = std::abs(s.orientation.squaredNorm() - 1) < 1e-14
                           ? s.orientation
                           : s.orientation.normalized();
  world.L.col(i).setZero();
  world.w.col(i).setZero();
  world.mass(i) = s.mass;
  world.inv_mass(i) = (s.flags & (kFixed | kDriven | kPivot)) ? 0.0 : 1.0 / s.mass;
  world.set_inertia(i, p.principal);
  world.shape[size_t(i)] = std::move(p.shape);
  world.radius(i) = p.r;
  world.flags[size_t(i)] = s.flags;
  world.material[size_t(i)] = static_cast<std::uint16_t>(s.material);
  world.pivot.col(i) = s.pivot;
  world.pivot_arm.col(i) = s.pivot_arm.allFinite()
                               ? s.pivot_arm
                               : Vec3(world.q[size_t(i)].conjugate() * (s.position - s.pivot));
  world.set_angular_velocity(i, fixed ? Vec3::Zero() : s.angular_velocity);
  if (s.angular_momentum.allFinite()) {
    world.L.col(i) = s.angular_momentum;
    world.sync_angular_velocity(i);
  }
}
}  // namespace

void World::add_bodies(int count, const std::function<void(int, BodySpec&)>& make) {
  if (count <= 0) return;
  if (count > limits::max_bodies() - size())
    throw BodyError(std::max(size(), limits::max_bodies()),
                    "at most " + std::to_string(limits::max_bodies()) + " bodies in a scene");
  const int first = size(), n = first + count;
  const bool had_ids = !ids.empty();
  // Each array grown once, then filled a chunk of specs at a time: the chunk's checks before
  // its first body is written; a refused body, or make throwing, takes the arrays back.
  auto resize = [this](int to) {
    for (Positions* m : {&x, &v, &L, &w, &inertia, &pivot, &pivot_arm})
      m->conservativeResize(3, to);
    for (VecX* m : {&mass, &inv_mass, &sphere_moment, &radius}) m->conservativeResize(to);
    q.resize(size_t(to));
    shape.resize(size_t(to));
    flags.resize(size_t(to));
    material.resize(size_t(to));
  };
  resize(n);
  for (int i = first; had_ids && i < n; ++i) ids.push_back(i);  // a new body's id: its place
  try {
    constexpr int kChunk = 4096;
    std::vector<BodySpec> chunk(size_t(std::min(count, kChunk)));
    std::vector<Prepared> prepared(chunk.size());
    for (int from = 0; from < count; from += kChunk) {
      const int m = std::min(kChunk, count - from);
      for (int k = 0; k < m; ++k) {
        chunk[size_t(k)] = BodySpec{};
        make(from + k, chunk[size_t(k)]);
      }
      for (int k = 0; k < m; ++k)
        prepared[size_t(k)] = check_body(*this, chunk[size_t(k)], first + from + k,
                                         k > 0 ? &prepared[size_t(k) - 1] : nullptr);
      for (int k = 0; k < m; ++k)
        write_body(*this, first + from + k, chunk[size_t(k)], prepared[size_t(k)]);
    }
  } catch (...) {
    resize(first);
    if (had_ids) ids.resize(size_t(first));
    throw;
  }
}

void World::reorder(const std::vector<int>& order) {
  if (int(order.size()) != size()) throw std::logic_error("World::reorder: not one entry a body");
  std::vector<int> seen(order.size(), 0);
  for (int from : order)
    if (from < 0 || from >= size() || seen[size_t(from)]++)
      throw std::logic_error("World::reorder: not a permutation");
  for (Positions* m : {&x, &v, &L, &w, &inertia, &pivot, &pivot_arm}) {
    Positions moved(3, size());
    for (int k = 0; k < size(); ++k) moved.col(k) = m->col(order[size_t(k)]);
    m->swap(moved);
  }
  for (VecX* m : {&mass, &inv_mass, &sphere_moment, &radius}) {
    VecX moved(size());
    for (int k = 0; k < size(); ++k) moved(k) = (*m)(order[size_t(k)]);
    m->swap(moved);
  }
  auto move = [&](auto& column) {
    std::remove_reference_t<decltype(column)> moved(column.size());
    for (size_t k = 0; k < column.size(); ++k) moved[k] = std::move(column[size_t(order[k])]);
    column.swap(moved);
  };
  move(q), move(shape), move(flags), move(material);
  std::vector<int> moved_ids(order.size());
  bool identity = true;
  for (size_t k = 0; k < order.size(); ++k)
    moved_ids[k] = id(order[k]), identity = identity && moved_ids[k] == int(k);
  ids.swap(moved_ids);
  if (identity) ids.clear();
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
  s.inertia = inertia.col(i);
  s.flags = flags[i];
  s.material = material[i];
  s.pivot = pivot.col(i);
  s.pivot_arm = pivot_arm.col(i);
  return s;
}

BodySpec shaped_body(ShapePtr shape, double mass, const Vec3& origin, const Quat& orientation) {
  BodySpec b;
  b.mass = mass;
  b.position = origin + orientation * shape->frame().centre;
  b.orientation = (orientation * shape->frame().axes).normalized();
  b.shape = std::move(shape);
  return b;
}

BodySpec clump_body(const std::vector<ClumpSphere>& spheres, double mass, const Vec3& origin,
                    const Quat& orientation) {
  return shaped_body(clump_shape(spheres), mass, origin, orientation);
}

ForceModel& World::add_force(std::unique_ptr<ForceModel> model) {
  // Models that read the others' forces stay after every model that adds some.
  auto at = forces.end();
  if (!model->reads_other_forces())
    at = std::find_if(forces.begin(), forces.end(),
                      [](const auto& f) { return f->reads_other_forces(); });
  return **forces.insert(at, std::move(model));
}

std::string World::plane_problem(int i) const {
  const std::string body = "body " + std::to_string(id(i)) + " (" + shape[i]->kind() + ")";
  if (dimensions == 3)
    return shape[i]->planar() ? body + ": a " + shape[i]->kind() +
                                    " lives in the plane: give the scene dimensions = 2"
                              : "";
  if (x(2, i) != 0 || v(2, i) != 0)
    return body +
           ": a 2-D scene keeps bodies in the plane z = 0 (position and velocity need z = 0)";
  if (w(0, i) != 0 || w(1, i) != 0 || q[i].x() != 0 || q[i].y() != 0)
    return body + ": a 2-D body turns about z only (angular_velocity [0, 0, w], orientation " +
           "[cos(a/2), 0, 0, sin(a/2)])";
  if ((flags[i] & kPivot) && pivot(2, i) != 0)
    return body + ": a 2-D body's pivot lies in the plane (pivot z = 0)";
  return "";
}

bool World::lists_contacts() const {
  return std::any_of(forces.begin(), forces.end(),
                     [](const auto& f) { return f->lists_rigid_contacts(); });
}

void World::check_plane() const {
  if (dimensions != 2 && dimensions != 3)
    throw InputError("dimensions must be 2 or 3 (not " + std::to_string(dimensions) + ")");
  for (int i = 0; i < size(); ++i)
    if (const std::string problem = plane_problem(i); !problem.empty()) throw InputError(problem);
}

void World::set_inertia(int i, const Vec3& principal) {
  inertia.col(i) = principal;
  const bool equal = principal(0) == principal(1) && principal(1) == principal(2);
  sphere_moment(i) = equal ? principal(0) : std::numeric_limits<double>::quiet_NaN();
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

double World::kinetic_energy() const {
  double e = 0;
  for (int i = 0; i < size(); ++i) e += kinetic_energy(i);
  return e;
}

void World::set_angular_velocity(int i, const Vec3& omega_world) {
  const Mat3 R = q[i].toRotationMatrix();
  L.col(i) = R * (R.transpose() * omega_world).cwiseProduct(rotational_inertia(i));
  sync_angular_velocity(i);
}

}  // namespace stepwise
