#pragma once
// One interface for every force: unary fields (gravity, drag), n-ary links (springs, bonds) and
// spatial interactions (contacts). Each model adds forces and torques at a given state and reports
// its potential energy and the power it dissipates or injects, so energy is booked exactly.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/SparseCore>

#include "core/params.hpp"
#include "core/registry.hpp"
#include "core/types.hpp"

namespace stepwise {

class World;

// The state a force is evaluated at. Trial states of multi-stage integrators differ from the
// World's stored one, so models read positions and velocities from here, not from the World.
struct StateView {
  const World& world;
  const Positions& x;
  const Positions& v;
  const Positions& w;  // angular velocity, world frame
};

class Parallel;
class BodyPasses;

// Per-body work a model's prepare() may hand to the loop that has just moved the bodies and
// cleared their loads (the free-sphere sweep, core/sphere_sweep.hpp) instead of queuing a pass
// of its own, so the bodies' arrays are read once for both. For speed only: the loop computes
// what the model's pass would, operation for operation (tests/test_sphere_sweep.cpp).
struct SweepShare {
  // A uniform field (gravity): each body's force m a, added to its cleared loads before any
  // other model's; its potential -m a.x, summed body by body into potential[task]. Offered only
  // to the first model, so the loads' sums keep the passes' order.
  bool field_open = false;
  bool field_taken = false;
  Vec3 field = Vec3::Zero();
  double* potential = nullptr;
  // A displacement watch (a neighbour list): per run of `run` bodies from 0, the largest squared
  // distance from reference (3 per body) to where the bodies now are, into most2[i / run].
  const double* reference = nullptr;
  double* most2 = nullptr;
  int run = 0;
  // Measured from reference + drift (the list's common drift, contact/list_drift.hpp); the
  // bounds below grow by dt |v - drift_rate|, drift_rate the drift's change since the sweep that
  // kept them, over dt.
  Vec3 drift = Vec3::Zero(), drift_rate = Vec3::Zero();
  // For speed only, a bound in place of the distance where that suffices: per run, bound[r] is
  // at least the largest distance from reference, kept up by each sweep adding the run's
  // largest move; while it stays below limit[r] (null: below cap) the sweep writes its square
  // (upward) into most2 instead of reading the reference positions, and otherwise measures and
  // starts the bound again from there. bound_known: the bounds hold for the bodies as this sweep
  // finds them (the model's say: kept by its sweeps since its reference was taken); null bound:
  // always measured. only_swept: set by the Simulation, nothing but sweeps has moved the bodies
  // since the last one (the model's bounds cannot see anything else).
  double* bound = nullptr;
  bool bound_known = false;
  const double* limit = nullptr;
  double cap = 0;
  double rounding = 0;  // at least a drift's rounding: 1e-15 (1 + the largest coordinate)
  bool only_swept = false;
};

struct EvalContext {
  double time = 0;      // time of the evaluated state
  double dt = 0;        // the step being taken
  bool commit = false;  // the step's final evaluation: models with history update it here only
  Parallel* parallel = nullptr;  // more cores, if the caller has them (see core/parallel.hpp)
  // Set by the Simulation: every model's prepare() ran and its passes are done.
  bool prepared = false;
  // Where apply() may queue per-body work on its own bodies' forces (adding up loads, say) to run
  // with the step's later passes; null: do it at once. Such a pass holds the arrays' data
  // pointers, not the ForceSums, which the caller hands on before the pass runs.
  BodyPasses* after = nullptr;
  // Set while prepare() runs when the step's sweep moves the bodies within this evaluation's
  // passes: a model may hand it a share of its per-body work (see SweepShare).
  SweepShare* sweep = nullptr;
};

// A free flight ahead (Simulation::fly): from the state now (x, v closed, at `time`), every body
// moves under `accel` alone (the field the sweep adds; 0 for one with no inverse mass) for the
// next `most` steps of dt. ForceModel::quiet_steps answers for how many of them it can prove
// its evaluations add nothing.
struct QuietQuery {
  const World& world;
  double time = 0, dt = 0;
  Vec3 accel = Vec3::Zero();
  long most = 0;
  Parallel* parallel = nullptr;
};

// Which per-body work arrays of ForceSums a model fills.
enum BodyWork : unsigned { kExternalWork = 1, kDragWork = 2 };

// Which bodies' drag loads may be non-zero, for speed only: when few bodies touch anything, the
// step clears the drag loads and books their work only for the marked bodies (the arrays are
// still whole and exact, so any reader may ignore the marks). Kept with the arrays it describes.
struct DragMarks {
  std::vector<std::uint8_t> body;  // per body: 0 means its drag force and torque are zero
  bool exact = false;  // false: any body's may be non-zero (a model that does not mark wrote)
  const std::uint8_t* known() const { return exact ? body.data() : nullptr; }
  // Whether marks (known(), or nullptr) leave most of bodies [begin, end) out: then a pass over
  // the marked ones pays; else one over all of them, which needs no branch per body.
  static bool few(const std::uint8_t* marks, int begin, int end) {
    return marks && 4 * std::count(marks + begin, marks + end, 1) < end - begin;
  }
  // fn(i) for each marked body of [begin, end) in order: eight marks at a time, a set bit per
  // marked body (marks are 0 or 1), so a word of unmarked bodies costs one test. (For speed.)
  template <class Fn>
  static void each(const std::uint8_t* marks, int begin, int end, Fn&& fn) {
    int i = begin;
    for (; i + 8 <= end; i += 8) {
      std::uint64_t word;
      std::memcpy(&word, marks + i, 8);
      for (; word != 0; word &= word - 1) fn(i + __builtin_ctzll(word) / 8);
    }
    for (; i < end; ++i)
      if (marks[i]) fn(i);
  }
  void swap(DragMarks& other) {
    body.swap(other.body);
    std::swap(exact, other.exact);
  }
};

struct ForceSums {
  Positions force, torque;
  double potential = 0;          // energy stored by this model at the state
  double dissipation_power = 0;  // rate of energy removed (>= 0 for passive damping)
  double external_power = 0;     // rate of work done on the system from outside
  int contacts = 0;              // touching pairs (contact models), walls included
  int wall_contacts = 0;         // of which body-wall
  // Per-body forces that do work from outside (point forces, drivers) or remove it (drag). They
  // are part of `force`/`torque` too; kept apart so a kick's work can be booked exactly as
  // h F.(v_before + v_after)/2. Each pair is sized only if `tracked` has its BodyWork bit.
  unsigned tracked = 0;
  Positions external_force, external_torque, drag_force, drag_torque;
  DragMarks drag_marks;
  // Body i holds drag loads (a model whose marks_drag() says so calls this for each it loads).
  void mark_drag(int i) {
    if (!drag_marks.body.empty()) drag_marks.body[i] = 1;
  }
  void reset(int n) {
    resize(n);
    clear(0, n);
  }
  // Sizes the arrays (contents undefined) and zeroes the totals; clear() zeroes bodies' columns,
  // so the two can be split over threads.
  void resize(int n) {
    force.resize(3, n);
    torque.resize(3, n);
    if (tracked & kExternalWork) external_force.resize(3, n), external_torque.resize(3, n);
    if (tracked & kDragWork) {
      if (drag_force.cols() != n || int(drag_marks.body.size()) != n)
        drag_marks = {std::vector<std::uint8_t>(n, 0), false};  // new arrays: nothing known
      drag_force.resize(3, n), drag_torque.resize(3, n);
    }
    potential = dissipation_power = external_power = 0;
    contacts = wall_contacts = 0;
  }
  void clear(int begin, int end) {
    const int count = end - begin;
    force.middleCols(begin, count).setZero();
    torque.middleCols(begin, count).setZero();
    clear_tracked(begin, end);
  }
  // The tracked external and drag loads alone (the free-sphere sweep clears the rest itself).
  void clear_tracked(int begin, int end) {
    const int count = end - begin;
    if (tracked & kExternalWork) {
      external_force.middleCols(begin, count).setZero();
      external_torque.middleCols(begin, count).setZero();
    }
    if (!(tracked & kDragWork)) return;
    std::uint8_t* marks = drag_marks.body.data();
    if (!DragMarks::few(drag_marks.known(), begin, end)) {
      drag_force.middleCols(begin, count).setZero();
      drag_torque.middleCols(begin, count).setZero();
      std::fill(marks + begin, marks + end, std::uint8_t{0});
      return;
    }
    DragMarks::each(marks, begin, end, [&](int k) {
      drag_force.col(k).setZero(), drag_torque.col(k).setZero(), marks[k] = 0;
    });
  }
};

using Triplets = std::vector<Eigen::Triplet<double>>;

class ForceModel {
 public:
  static constexpr const char* kRegistryKind = "force model";
  virtual ~ForceModel() = default;
  virtual std::string kind() const = 0;  // registry name
  virtual std::unique_ptr<ForceModel> clone() const = 0;
  virtual void apply(const StateView& s, ForceSums& out, const EvalContext& ctx) = 0;
  // The per-body part of apply() that needs no other body (gravity's loop, packing bodies for a
  // pair kernel), queued so it runs fused with the step's other passes over the bodies
  // (core/body_passes.hpp). apply() skips it when ctx.prepared. Most models do all in apply().
  virtual void prepare(const StateView& s, ForceSums& out, const EvalContext& ctx,
                       BodyPasses& passes) {}
  // Analytic ∂F/∂x and ∂F/∂v as triplets over 3N dofs; false means "use finite differences".
  virtual bool jacobian(const StateView& s, Triplets& dfdx, Triplets& dfdv) const { return false; }
  // A Jacobian by differences (core/difference_jacobian.hpp) moves each coordinate by
  // kDifferenceStep max(1, |coordinate|); two bodies perturbed together close their gap by at most
  // twice that, so a model coupling only overlapping pairs names those within kCoupledReach.
  static constexpr double kDifferenceStep = 1e-6;
  static constexpr double kCoupledReach = 4 * kDifferenceStep;
  // For such a Jacobian: the pairs of bodies whose loads here may depend on each other's state
  // within kCoupledReach max(1, |coordinate|) of the state `s`, last applied (a body's on its own
  // always). False: not known, any body's on any other's.
  virtual bool coupled_pairs(const StateView& s, std::vector<std::pair<int, int>>& out) const {
    return false;
  }
  // The per-body arrays of ForceSums it fills instead of the power scalars (BodyWork bits).
  virtual unsigned body_work() const { return 0; }
  // Whether it marks every body it adds drag loads to (ForceSums::mark_drag), for speed only.
  virtual bool marks_drag() const { return false; }
  // Whether every body it adds a torque to is marked as marks_drag() marks them (a model adding
  // no torque at all: true), for speed only: where every model does, a body left unmarked has a
  // torque of +0 and the free-sphere sweep need not read it.
  virtual bool marks_torque() const { return false; }
  // For speed only: whether, at a state in the plane z = 0 (a 2-D World: z, v_z, w_x, w_y all
  // 0), every force it added has z = +-0 and every torque x = y = +-0 (asked after apply(), at
  // the same state). Then the 2-D step need not clear them: +0 + -0 is +0, so the state stays
  // exactly in the plane. False (the default) costs a pass that clears them.
  virtual bool keeps_plane(const World& world) const { return false; }
  // Energy this model dissipated internally outside the power quadrature (e.g. friction slips).
  virtual double internal_dissipation() const { return 0; }
  // Energy the model changed without a force working for it (a contact manifold's points coming
  // or going with their springs' energy), so far: booked as a correction (EnergyReport).
  virtual double internal_correction() const { return 0; }
  // Largest natural angular frequency it introduces (for the critical time step), or 0.
  virtual double max_frequency(const World& world) const { return 0; }
  // The bodies that set max_frequency (j = -1 for one body), or {-1, -1} if not known.
  virtual std::pair<int, int> stiffest_pair(const World& world) const { return {-1, -1}; }
  // Whether it holds body indices (in its parameters, its history, a neighbour list built): a
  // World whose models hold none may be stored in another order (World::reorder) before its
  // first step. True unless a model says otherwise.
  virtual bool names_bodies() const { return true; }
  // Rewrites its saved history (save_state's table) for bodies stored anew, body i now at
  // slot[i] (Simulation::reorder_bodies); false if it cannot, leaving the run as it is. A model
  // holding no body numbers and no history can (the default).
  virtual bool renumber_state(ParamTable& state, const std::vector<int>& slot) const {
    return !names_bodies() && state.values().empty();
  }
  // The coming evaluations (steps 1 .. k of q, k <= q.most) at which, the bodies flying freely,
  // this model provably adds no load, potential or power, changes no history and asks for no
  // rebuild (its caches may lag; the step after catches them up). 0, the default: not known.
  // For speed only (Simulation::fly).
  virtual long quiet_steps(const QuietQuery& q) const { return 0; }
  // Throws InputError if the model refers to bodies the World does not have.
  virtual void validate(const World& world) const {}
  virtual void save(ParamTable& out) const = 0;
  virtual std::vector<Tunable> tunables() const { return {}; }
  // Called with a value inside the tunable's range (tune checks it).
  virtual void set_tunable(const std::string& name, double value) {}
  // A live edit: InputError naming the model, the tunable and its range unless the model has
  // that tunable and the value lies in it.
  void tune(const std::string& name, double value);
  // History that decides the future but is not a parameter (contact springs): saved with the
  // state so a reloaded run continues bit for bit.
  virtual void save_state(ParamTable& out) const {}
  virtual void load_state(const ParamTable& in) {}
  // Touching pairs and their normal force, for drawing the contact force network (j = -1 - w
  // for wall w). Models without contacts add nothing.
  struct ContactForce {
    int i, j;
    double normal_force;
  };
  virtual void contact_forces(const World& world, std::vector<ContactForce>& out) const {}
  // Every point where `body` touches something (other: a body, or -1 - w for wall w), with the
  // normal pushing `body` out, the overlap and the elastic normal force: the Inspector's list.
  struct ContactReport {
    int other;
    Vec3 position, normal;
    double depth, normal_force;
  };
  virtual void contact_points(const World& world, int body, std::vector<ContactReport>& out) const {
  }
  // A contact model's laws per pair of materials, each as its coefficients and "mu": pairs[a n +
  // b] between materials a and b (0: the model's own coefficients, as core/materials.hpp numbers
  // them; n = materials + 1), walls[w n + m] between wall w and material m. What an export to
  // another program writes per pair of atom types. False: the model has no such laws.
  virtual bool pair_laws(const World& world, std::vector<ParamTable>& pairs,
                         std::vector<ParamTable>& walls) const {
    return false;
  }
  // Constraints kept exactly (core/constraints). After each whole step, corrects() models move
  // the state back onto their constraints (projection; RATTLE's velocity half) and say whether it
  // changed; the Simulation re-evaluates and hands the energy that changed to book_correction.
  // shake() runs after velocity Verlet's drift (x0: the positions before it) where wants_shake().
  // Reads the forces the other models added (the multipliers need them): kept after them.
  virtual bool reads_other_forces() const { return false; }
  virtual bool corrects() const { return false; }
  virtual bool correct(World& world, double time) { return false; }
  virtual void book_correction(double energy) {}
  virtual bool wants_shake() const { return false; }
  virtual void shake(World& world, const Positions& x0, double h, double time) {}
  // Generalised coordinates: a model whose World bodies hold coordinates (an angle in x, its rate
  // in v, unit mass, so every integrator steps them) says where the bodies they stand for are.
  // The window draws and the ledger counts those (their kinetic energy is the system's T(u, u̇)).
  struct Shown {
    Vec3 position, velocity;
    double mass, radius;
  };
  virtual bool shown_bodies(const World& world, std::vector<Shown>& out) const { return false; }
  // Figures for the Stats panel and the energy plots (a constraint set's max |C|, its rank), at
  // the World's state.
  struct Figure {
    std::string name;
    double value;
  };
  virtual void figures(const World& world, std::vector<Figure>& out) const {}
  // The figures the energy panel plots beside the energy, where a model reports them.
  static constexpr const char* kMaxConstraintError = "max |C|";
  static constexpr const char* kMaxConstraintRate = "max |dC/dt|";
  // Segments to draw between bodies or fixed points (rods, a hoop), at the World's state.
  struct Segment {
    Vec3 from, to;
  };
  virtual void segments(const World& world, std::vector<Segment>& out) const {}
  // Rigid contact (World::contact impulse): contact models then add no force and list instead
  // every point where bodies touch at the World's state, for the impulse solver (core/impulse).
  // Returns whether this model is one that does.
  struct RigidContact {
    int i, j;            // bodies; j < 0: wall -1 - j
    Vec3 position;       // world
    Vec3 normal;         // unit, pushes i out of j
    double depth;        // overlap along the normal, >= 0
    std::uint64_t key;   // the touching features, stable while they touch (warm starts)
    double mu;           // Coulomb's coefficient of the pair
    Vec3 wall_velocity;  // j < 0: the wall's
    // Rolling and twisting resistance: the largest torque per unit normal impulse against the
    // relative rolling and twisting spin (mu_roll r_eff, mu_twist r_eff; 0: none).
    double roll_cap = 0, twist_cap = 0;
  };
  virtual bool rigid_contacts(const World& world, double time, std::vector<RigidContact>& out) {
    return false;
  }
  virtual bool lists_rigid_contacts() const { return false; }  // whether rigid_contacts does
};

using ForceRegistry = Registry<ForceModel, const ParamTable&>;

}  // namespace stepwise

#define STEPWISE_REGISTER_FORCE(NAME, CLASS)                                                \
  static const bool STEPWISE_CONCAT(registered_force_, __COUNTER__) =                       \
      ::stepwise::ForceRegistry::instance().add(NAME, [](const ::stepwise::ParamTable& p) { \
        return std::unique_ptr<::stepwise::ForceModel>(std::make_unique<CLASS>(p));         \
      })
