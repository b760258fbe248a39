#pragma once
// The bodies of a simulation, stored as arrays (one column or entry per body), and the force
// models acting on them. The World holds state only; Simulation advances it.
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "core/force_model.hpp"
#include "core/impulse/contact_treatment.hpp"
#include "core/materials.hpp"
#include "core/shapes/shape.hpp"
#include "core/types.hpp"

namespace stepwise {

enum BodyFlags : std::uint8_t {
  kFixed = 1,   // never moves
  kDriven = 2,  // moves with a prescribed velocity / angular velocity; its reaction work is counted
  kPivot = 4,   // rotates about a fixed point; its position follows its orientation
  kDrivenSpin = 8,  // only its angular velocity is prescribed; it translates freely
};

// An input error about one body (World::add_bodies): its index in the World.
struct BodyError : InputError {
  BodyError(int index, const std::string& message) : InputError(message), body(index) {}
  int body;
};

struct BodySpec {
  Vec3 position = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 angular_velocity = Vec3::Zero();  // world frame
  // Given (finite): the angular momentum itself, world frame, in place of the one angular_velocity
  // gives (a saved state's, so it reloads bit for bit); w then follows from it.
  Vec3 angular_momentum = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
  double mass = 1.0;
  ShapePtr shape;       // null: a sphere of `radius`
  double radius = 0.1;  // the sphere's radius (unused when `shape` is set)
  // Principal moments in the body frame; zero means "from the shape (uniform density)".
  Vec3 inertia = Vec3::Zero();
  std::uint8_t flags = 0;
  int material = 0;  // World::materials id; 0: none (the contact laws' own coefficients)
  Vec3 pivot = Vec3::Zero();  // kPivot: the fixed point, world frame
  // kPivot: centre of mass from the pivot in the body frame; NaN means "from position".
  Vec3 pivot_arm = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
};

// A body of this shape whose template frame is placed at `origin` with `orientation`: the body
// sits at the shape's centroid in its principal frame (Shape::frame()).
BodySpec shaped_body(ShapePtr shape, double mass, const Vec3& origin = Vec3::Zero(),
                     const Quat& orientation = Quat::Identity());
// A clump body from spheres given in a template frame (mass properties integrated).
BodySpec clump_body(const std::vector<ClumpSphere>& template_spheres, double mass,
                    const Vec3& origin = Vec3::Zero(), const Quat& orientation = Quat::Identity());

class World {
 public:
  World() = default;
  World(const World& other);
  // Member by member: arrays of the same size keep their storage (HistoryRing writes a new
  // checkpoint into its oldest). If a model's clone throws, this World is left partly assigned.
  World& operator=(const World& other);
  World(World&&) noexcept = default;
  World& operator=(World&&) noexcept = default;

  int add_body(const BodySpec& spec);
  // Adds `count` bodies at once: every check before the first append (a refused body leaves the
  // World as it was; its message names it, and BodyError::body says which), each array grown
  // once. (For speed only: grown body by body, a million bodies' arrays were copied on most
  // appends once the heap was fragmented, 4 of a saved state's 12 s of reading.)
  void add_bodies(const BodySpec* specs, int count);
  // The same for `count` bodies made one at a time: make(k, spec) fills body k's spec, k in
  // order, each spec fresh. For scenes of many bodies: no list of every body's spec is held
  // beside the World (a million spheres' specs took 240 MB, and their list grown by doubling
  // copied them). A refused body, or make throwing, leaves the World as it was.
  void add_bodies(int count, const std::function<void(int, BodySpec&)>& make);
  int size() const { return static_cast<int>(mass.size()); }
  ForceModel& add_force(std::unique_ptr<ForceModel> model);
  BodySpec body_spec(int i) const;

  // Same moment about every axis and no pivot (spheres): w = L / I, no frames needed.
  // (sphere_moment(i) is not NaN exactly then, for a body without a pivot.)
  bool isotropic(int i) const {
    return !(flags[i] & kPivot) && inertia(0, i) == inertia(1, i) && inertia(1, i) == inertia(2, i);
  }
  // Inertia about the point the body rotates about: the centre, or the pivot for kPivot bodies.
  Vec3 rotational_inertia(int i) const;
  // Recomputes ω from L (and pivoted positions/velocities) after the orientation or L changed.
  void sync_angular_velocity(int i);
  void sync_all_angular_velocities();
  void set_angular_velocity(int i, const Vec3& omega_world);
  // 1/2 m v^2 + 1/2 w.L of body i as stored, and its sum over the bodies (what a correction of
  // the state changes; the energy report also counts generalised coordinates' bodies).
  double kinetic_energy(int i) const {
    return 0.5 * mass(i) * v.col(i).squaredNorm() + 0.5 * w.col(i).dot(L.col(i));
  }
  double kinetic_energy() const;

  // State, one column per body.
  Positions x, v;
  std::vector<Quat> q;
  Positions L, w;  // angular momentum and angular velocity, world frame
  VecX mass, inv_mass;  // inv_mass is 0 for fixed and driven bodies
  Positions inertia;    // principal moments, body frame, about the centre of mass
  // The three principal moments' common value where they are equal (spheres), NaN where not:
  // kept with `inertia` by add_body and set_inertia. For speed only: a sphere's step reads 8
  // bytes of moments instead of 24 (the step's passes are bound by the bytes they move).
  VecX sphere_moment;
  void set_inertia(int i, const Vec3& principal);  // both of the above
  std::vector<ShapePtr> shape;  // shared: bodies of one shape point at the same one
  VecX radius;                  // bounding radius about the centre (a sphere's radius)
  std::vector<std::uint8_t> flags;
  std::vector<std::uint16_t> material;  // per body: a materials id, 0 for none
  Positions pivot;      // kPivot bodies: fixed point (world)
  Positions pivot_arm;  // kPivot bodies: centre of mass relative to the pivot (body frame)
  // Each body's id, its place in the user's order (the scene file's), where the bodies are
  // stored in another (core/spatial_order.hpp: for speed); empty while every body is its own id.
  // Everything the user reads (CSV rows, saved states, messages, the window's labels) names ids.
  std::vector<int> ids;
  int id(int i) const { return ids.empty() ? i : ids[size_t(i)]; }
  // Where the body of this id is stored (a search: for the few a command names).
  int slot(int id) const {
    for (size_t i = 0; i < ids.size(); ++i)
      if (ids[i] == id) return int(i);
    return id;
  }
  // Stores the bodies in a new order: body k is the one that was body order[k] (a permutation
  // of 0..size()-1), its id going with it. The force models are not told: only for a World
  // whose models name no body (ForceModel::names_bodies).
  void reorder(const std::vector<int>& order);

  std::vector<std::unique_ptr<ForceModel>> forces;
  Materials materials;  // the scene's named materials
  // PFC local damping: each free body's unbalanced force and torque lose alpha |F| per component,
  // against its velocity, so slow loadings settle quasi-statically. 0 = off.
  double local_damping = 0;
  // Penalty springs or rigid contact by impulses (core/impulse/contact_treatment.hpp).
  ContactTreatment contact;
  // Whether a force model lists where bodies touch for contact treatment `impulse` (hooke,
  // hertz); check_contact refuses `impulse`, or its options (`asked`), without one
  // (ContactTreatment::check).
  bool lists_contacts() const;
  void check_contact(const std::string& where, bool asked = false) const {
    contact.check(lists_contacts(), where, asked);
  }
  // 3, or 2: every body lives in the x-y plane (seed 000's 2-D mode). Out-of-plane position,
  // velocity and spin start at 0 (check_plane) and stay exactly 0: the step takes the
  // out-of-plane force and torque away where the models' loads are summed, as LAMMPS' fix
  // enforce2d does, so no integrator ever moves a body off the plane.
  int dimensions = 3;
  // Why body i does not belong in a world of these dimensions (off the plane in 2-D, a planar
  // shape in 3-D), or empty; check_plane throws InputError naming the first such body.
  std::string plane_problem(int i) const;
  void check_plane() const;
};

// The collision-table index of spheres (Shape::type()).
int sphere_type();

}  // namespace stepwise
