#pragma once
// Granular contacts between spheres and with walls: normal spring-dashpot, Coulomb friction and a
// tangential spring with history (Cundall-Strack). A Law gives the stiffness and damping at an
// overlap: linear (hooke, the law of LAMMPS' gran/hooke/history) or Hertz-Mindlin.
//   F_n = kn delta - m_eff gamma_n v_n
//   xi turned onto the contact plane keeping its length, += v_t dt,
//   F_t = -(kt xi + m_eff gamma_t v_t),  |F_t| <= mu |F_n|
// Energy: the law's normal energy + 1/2 kt |xi|^2 stored. The dashpot forces go to the per-body
// drag sums, so Verlet's kicks book their work exactly; the friction cap's loss and the spring
// energy of contacts that open are booked when they happen.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/body_passes.hpp"
#include "core/contacts/body_loads.hpp"
#include "core/contacts/contact_candidates.hpp"
#include "core/contacts/contact_exclusions.hpp"
#include "core/contacts/contact_reports.hpp"
#include "core/contacts/granular_pairs.hpp"
#include "core/contacts/granular_walls.hpp"
#include "core/contacts/list_drift.hpp"
#include "core/contacts/neighbor_list.hpp"
#include "core/contacts/shape_contacts.hpp"
#include "core/contacts/wall_candidates.hpp"
#include "core/impulse/rigid_contact_finder.hpp"
#include "core/limits.hpp"
#include "core/parallel.hpp"
#include "core/world.hpp"
#include "core/zeroed_array.hpp"

namespace stepwise {

struct Wall {
  Vec3 point, normal, velocity;
};

// Stiffness and damping of one contact at overlap delta, from the law:
// F_n = kn delta - m_eff gamma_n v_n, F_t = -(kt xi + m_eff gamma_t v_t).
struct ContactCoefficients {
  double kn, kt, gamma_n, gamma_t;
};

template <class Law>
class GranularContacts final : public ForceModel {
 public:
  explicit GranularContacts(const ParamTable& p)
      : law_(p),
        mu_(p.number("mu", 0.5)),
        mu_roll_(p.number("mu_roll", 0.0)),
        mu_twist_(p.number("mu_twist", 0.0)),
        list_(p.number("skin", 0.1)),
        exclusions_(p) {
    for (double v : {mu_, list_.skin(), mu_roll_, mu_twist_})
      if (!(v >= 0) || !std::isfinite(v))
        throw InputError(p.where() + ": mu and skin must be finite and >= 0");
    coulomb_ =
        p.choice("coulomb", {"lammps", "exact"}) == "exact" ? Coulomb::Exact : Coulomb::Lammps;
    limit_force_ = p.flag("limit_force", coulomb_ == Coulomb::Exact);
    const std::string broad = p.choice("broad_phase", {"auto", "cells", "sweep"});
    if (broad != "auto")
      list_.set_broad_phase(broad == "cells" ? BroadPhase::Cells : BroadPhase::Sweep);
    // The ways to the same results, for comparisons (each for speed only; auto decides).
    motions_mode_ = p.choice("motions", {"auto", "packed", "columns"});
    prefetch_mode_ = p.choice("prefetch", {"auto", "on", "off"});
    displacements_mode_ = p.choice("displacements", {"auto", "bounded", "measured"});
    screen_every_body_ = p.choice("wall_screen", {"auto", "all"}) == "all";
    for (const ParamTable& t : p.tables("wall")) {
      Wall w{t.vec3("point", Vec3::Zero()), t.vec3("normal", Vec3::UnitZ()),
             t.vec3("velocity", Vec3::Zero())};
      if (!(w.normal.norm() > 0)) throw InputError(t.where() + ": wall normal must be non-zero");
      w.normal.normalize();
      wall_materials_.push_back({t.text("material", ""), t.flag("rigid", false)});
      t.reject_unused();
      walls_.push_back(w);
    }
  }
  std::string kind() const override { return Law::kName; }
  unsigned body_work() const override { return kDragWork; }
  bool marks_drag() const override { return true; }
  bool marks_torque() const override { return true; }  // (every load through BodyLoads' marks)
  bool names_bodies() const override {
    return list_.size() > 0 || !exclusions_.empty() || !pending_pairs_.empty() ||
           !pending_walls_.empty();
  }
  // Disks in the plane touch along in-plane normals with in-plane relative velocities, so their
  // forces lie in the plane and their torques (lever arms in the plane) along z; the relative
  // spin is along z, so rolling resistance is too and twisting resistance (spin . n) is 0. Kept
  // to the sphere kernels and walls at rest along z; the collision table's shapes leave it to
  // the clearing pass.
  bool keeps_plane(const World&) const override {
    return shapes_.empty() && std::all_of(walls_.begin(), walls_.end(), [](const Wall& w) {
             return w.normal.z() == 0 && w.velocity.z() == 0;
           });
  }
  std::unique_ptr<ForceModel> clone() const override {
    return std::make_unique<GranularContacts>(*this);
  }

  void apply(const StateView& s, ForceSums& out, const EvalContext& ctx) override {
    if (s.world.contact.impulse()) return;  // rigid: the impulse solver acts instead
    // Two instantiations, so the hot loop never tests whether this evaluation commits.
    if (ctx.commit)
      apply_as<true>(s, out, ctx);
    else
      apply_as<false>(s, out, ctx);
  }

  // The list's pairs whose bounding spheres touch at `s` or nearly (a wall acts on one body):
  // bodies near each other but apart may then be perturbed together, in fewer groups (a settled
  // packing's 22 groups of the list's pairs are 14). Under impulse this model adds nothing.
  bool coupled_pairs(const StateView& s, std::vector<std::pair<int, int>>& out) const override {
    if (s.world.contact.impulse()) return true;
    if (list_.stale(s.world.size())) return false;
    list_.append_near_pairs(s.x, s.world.radius, kCoupledReach, out);
    return true;
  }

  // Packing the motions (when the kernels read them packed) and measuring how far each body
  // moved since the list was built, fused with the step's passes.
  void prepare(const StateView& s, ForceSums&, const EvalContext& ctx,
               BodyPasses& passes) override {
    if (s.world.contact.impulse()) return;
    decide_packing(s.world.size());
    resize_packed(s.world.size());
    const bool stale = list_.stale(s.world.size());
    if (ctx.sweep && ctx.sweep->field_taken) field_seen_ = ctx.sweep->field;
    const Vec3 drift = drift_.at(ctx.time);
    // The step's sweep, where it runs, measures the displacements as it moves the bodies.
    const bool watched = !stale && ctx.sweep && !ctx.sweep->most2;
    if (watched) {
      ctx.sweep->reference = list_.built_at().data();
      ctx.sweep->most2 = candidates_.most2();
      ctx.sweep->run = ContactCandidates::kBlock;
      // (the rate read only where the last sweep kept the bounds: it measured from drift_swept_)
      ctx.sweep->drift = drift;
      ctx.sweep->drift_rate = (drift - drift_swept_) / ctx.dt;
      // The bounds hold if every step since the list's build was watched by the sweep (and
      // nothing else moved the bodies); from this sweep on they do again.
      if (bounds_displacements(s.world.size())) ctx.sweep->bound = candidates_.bounds();
      ctx.sweep->bound_known = bounds_kept_ && ctx.sweep->only_swept;
      ctx.sweep->limit = candidates_.limits();
      ctx.sweep->cap = std::sqrt(list_.rebuild_at()) * (1 - 1e-9);
      // (within the bounds, no coordinate is further out than the references and the cap)
      ctx.sweep->rounding = 1e-15 * (1 + reference_extent_ + ctx.sweep->cap + 2 * drift.norm() +
                                     (drift - drift_swept_).norm());
      drift_swept_ = drift;
    }
    bounds_kept_ = watched && ctx.sweep->bound;        // (this sweep keeps them)
    if (!pack_motions_ && (stale || watched)) return;  // nothing left to do body by body
    passes.add([this, s, stale, watched, drift](int, int begin, int end) {
      pack(s, begin, end);
      if (!stale && !watched)
        list_.displacements2(s.x, begin, end, ContactCandidates::kBlock, candidates_.most2(),
                             drift);
    });
  }

  template <bool Commit>
  void apply_as(const StateView& s, ForceSums& out, const EvalContext& ctx) {
    const World& world = s.world;
    const int n = world.size();
    const bool stale = list_.stale(n);
    if (!ctx.prepared) {  // what prepare() would have done
      decide_packing(n);
      resize_packed(n);
      const Vec3 drift = drift_.at(ctx.time);
      for_each_range(ctx.parallel, n, [&](int, int begin, int end) {
        pack(s, begin, end);
        if (!stale)
          list_.displacements2(s.x, begin, end, ContactCandidates::kBlock, candidates_.most2(),
                               drift);
      });
    }
    if (laws_.stale(world, own_version_)) laws_.build(world, own(), wall_materials_, own_version_);
    material_ = world.material.data();
    state_ = {s.x.data(), world.radius.data(), s.v.data(),
              s.w.data(), world.mass.data(),   world.inv_mass.data()};
    if (stale || !candidates_.track(n, list_.rebuild_at())) {
      rebuild(world, s.x, ctx.parallel, Commit ? ctx.dt : -1.0);
      drift_.restart(s.v, n, field_seen_, ctx.time, ctx.dt);
      drift_swept_.setZero();  // (where the drift is at the build)
      drift_most_ = 0;
      candidates_.restart(n);
      bounds_kept_ = true;  // (from the positions the list was built at)
      if (bounds_displacements(n))  // (a pass over the references only where it is read)
        reference_extent_ = n > 0 ? list_.built_at().cwiseAbs().maxCoeff() : 0.0;
      wall_candidates_.invalidate();
    }
    ask_ahead_ = decide_ask_ahead(n);  // (after a rebuild: the springs' array is the list's size)
    // Bodies that are not spheres go through the collision table (shape_contacts.hpp); read
    // with radius -inf, the sphere kernels' wall screen never finds them touching a wall.
    if (!shapes_.bodies().empty()) {
      shape_radii_.assign(world.radius.data(), world.radius.data() + n);
      for (int b : shapes_.bodies()) shape_radii_[b] = -std::numeric_limits<double>::infinity();
      state_.radius = shape_radii_.data();
    }
    candidates_.update_limits(list_.skin());
    if (static_cast<int>(wall_history_.size()) != n * static_cast<int>(walls_.size()))
      size_wall_history(n);
    wall_offset_.resize(walls_.size());
    planes_.resize(walls_.size());
    for (size_t w = 0; w < walls_.size(); ++w) {
      wall_offset_[w] = (walls_[w].point + ctx.time * walls_[w].velocity).dot(walls_[w].normal);
      planes_[w] = {walls_[w].normal, walls_[w].velocity, wall_offset_[w]};
    }
    // A body is at most its block's displacement from the drift plus the drift's length from
    // the build; both kept as running maxima, so that a block's bound only shrinks between
    // builds (the drift may come back: a block that touched a wall must not be far again).
    drift_most_ = std::max(drift_most_, drift_.at(ctx.time).norm() * (1 + 1e-12));
    if (screen_blocks())
      wall_candidates_.update(list_.built_at(), state_.radius, wall_engaged_.data(), planes_,
                              candidates_, drift_most_);
    // Tasks own disjoint ranges of bodies (so the history they write), with about equal numbers
    // of neighbour pairs; each adds into its own loads, combined in task order. From a quarter of
    // the passes' threshold (512 bodies): a body's pairs cost more than its pass.
    Parallel* parallel = ctx.parallel;
    const int tasks = !parallel || parallel->threads() <= 1 || n < parallel->min_bodies() / 4
                          ? 1
                          : parallel->threads();
    if (int(tasks_.size()) != tasks) tasks_.resize(tasks);
    std::vector<int>& bounds = task_bounds_;  // kept, so no allocation per evaluation
    bounds.assign(tasks + 1, n);
    bounds[0] = 0;
    const double per_task = double(list_.offsets()[n]) / tasks;
    for (int t = 1, i = 0; t < tasks; ++t) {
      while (i < n && list_.offsets()[i] < per_task * t) ++i;
      bounds[t] = i;
    }
    auto run_task = [&](int t) {
      Task& task = tasks_[t];
      // A task touches its own bodies and their partners (a half list: later indices), so only
      // that window of its loads is cleared and added up.
      task.low = bounds[t];
      int high = bounds[t + 1];  // a local: the loop must not store it at every body
      const int* offsets = list_.offsets().data();
      const int* neighbors = list_.neighbors().data();
      for (int i = bounds[t]; i < bounds[t + 1] && high < n; ++i)
        if (offsets[i + 1] > offsets[i]) high = std::max(high, neighbors[offsets[i + 1] - 1] + 1);
      task.high = high;
      task.loads.prepare(n);
      task.sums = Sums{};
      pair_range<Commit>(s, ctx, bounds[t], bounds[t + 1], task);
    };
    if (tasks == 1)
      run_task(0);
    else
      parallel->run(tasks, run_task);
    // Each body's loads added in task order, whichever thread adds them; later, with the step's
    // other passes, if the caller lets us.
    const BodyLoads::Sums into{out.force.data(), out.torque.data(), out.drag_force.data(),
                               out.drag_torque.data(), out.drag_marks.body.data()};
    auto combine = [this, into, far = ask_ahead_](int, int begin, int end) {
      for (Task& task : tasks_)
        task.loads.add_to(into, std::max(begin, task.low), std::min(end, task.high), far);
    };
    auto combined = [this] {
      for (Task& task : tasks_) task.loads.taken();
    };
    if (ctx.after) {
      ctx.after->add(combine, combined);
    } else {
      for_each_range(parallel, n, combine);
      combined();
    }
    Sums sums;
    for (const Task& task : tasks_) sums += task.sums;
    if (!shapes_.empty())
      shapes_.apply<Law, Commit>(s, laws_, params(ctx.dt), planes_, parallel, out, sums);
    out.potential += sums.potential;
    out.dissipation_power += sums.dissipation;
    out.external_power += sums.external;
    out.contacts += sums.contacts;
    out.wall_contacts += sums.walls;
    touching_ = sums.contacts;
    if constexpr (Commit) committed_dissipation_ += sums.capped, committed_made_ += sums.made;
  }

  long quiet_steps(const QuietQuery& q) const override;  // granular_contact_quiet.hpp
  double internal_dissipation() const override { return committed_dissipation_; }
  double internal_correction() const override { return committed_made_; }
  void contact_forces(const World& world, std::vector<ContactForce>& out) const override {
    sphere_contact_forces(world, list_, shapes_, elastic(), out);
    shapes_.contact_forces(out);
  }
  void contact_points(const World& world, int body,
                      std::vector<ContactReport>& out) const override {
    sphere_contact_points(world, body, list_, planes_, shapes_, elastic(), out);
    shapes_.contact_points(body, out);
  }
  double max_frequency(const World& world) const override;
  // What the contact treatment `impulse` and the LAMMPS export read (granular_contact_rigid.hpp).
  bool rigid_contacts(const World& world, double time, std::vector<RigidContact>& out) override;
  bool lists_rigid_contacts() const override { return true; }
  bool pair_laws(const World& world, std::vector<ParamTable>& pairs,
                 std::vector<ParamTable>& walls) const override;
  void validate(const World& world) const override;
  std::pair<int, int> stiffest_pair(const World& world) const override {
    if (world.size() == 0) return {-1, -1};
    int lightest = 0;  // the estimate above is for the lightest, smallest body
    for (int i = 1; i < world.size(); ++i)
      if (world.mass(i) < world.mass(lightest)) lightest = i;
    return {lightest, -1};
  }
  void save(ParamTable& out) const override;
  // Contact history: the tangential spring of every touching pair and body-wall contact.
  void save_state(ParamTable& out) const override;
  void load_state(const ParamTable& in) override;
  bool renumber_state(ParamTable& state, const std::vector<int>& slot) const override;
  // The wall springs sized for n bodies, none stretched but those of a loaded state.
  void size_wall_history(int n);
  std::vector<Tunable> tunables() const override {
    std::vector<Tunable> out = law_.tunables();
    out.push_back({"mu", mu_, "friction coefficient", 0, 1e3});
    return out;
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "mu")
      mu_ = value;
    else
      law_.set(name, value);
    ++own_version_;  // the pair laws are rebuilt from it
  }
  const NeighborList& neighbor_list() const { return list_; }

 private:
  using Sums = ContactSums;  // this evaluation's totals, kept local in the hot loop
  ContactParams params(double dt) const {
    return {mu_roll_, mu_twist_, dt, coulomb_, limit_force_};
  }
  PairLaw<Law> own() const { return {law_, mu_}; }
  static std::string key_list(const std::vector<std::string>& keys) {
    std::string out;
    for (const std::string& k : keys) out += (out.empty() ? "" : ", ") + k;
    return out;
  }
  struct Task {
    BodyLoads loads;                  // what this task's contacts add to each body (body_loads.hpp)
    // (These six are sized to every list slot of the task but filled only as far as the pairs
    // go: ZeroedArrays, so the rest takes no memory; 34 MB of 1,000,000 falling spheres' peak.)
    ZeroedArray<int> pair_i, pair_k;   // this evaluation's touching pairs (body, list slot)
    ZeroedArray<int> open_i, open_k;   // and the pairs that stopped touching
    std::vector<WallSlot> wall_slots;  // and the body-wall contacts
    // The pairs that may touch (body, list slot), padded to a multiple of four, for the bodies
    // [candidates_from, candidates_to); and how many touched at the last evaluation.
    ZeroedArray<int> candidate_i, candidate_k;
    int candidates = 0, candidates_from = -1, candidates_to = -1, touching = 0;
    Sums sums;
    int low = 0, high = 0;  // the bodies this task touched
  };
  std::vector<Task> tasks_;
  std::vector<int> task_bounds_;  // task t owns bodies [bounds[t], bounds[t + 1])
  std::vector<BodyMotion> motions_;
  // The radii the kernels read when some bodies are not spheres (-inf for those).
  std::vector<double> shape_radii_;
  // Where the kernels read the bodies (PackedBodies): the state's columns at this evaluation,
  // and packed motion rows when most bodies touch something (decide_packing).
  struct StateColumns {
    const double *x = nullptr, *radius = nullptr, *v = nullptr, *w = nullptr, *mass = nullptr,
                 *inv_mass = nullptr;
  } state_;
  bool pack_motions_ = true;
  std::string motions_mode_ = "auto";  // packed, columns, or auto: as decide_packing says
  int touching_ = 0;                   // contacts (pairs and walls) at the last evaluation
  bool bounds_kept_ = false;  // candidates_' bounds kept by every sweep since the list's build
  // 'displacements' auto bounds them (SweepShare::bound) from this many bodies, for speed only:
  // their arrays are then far beyond any cache, and the reference positions cost more to read
  // than the looser candidates the bounds give (1,000,000 falling: 0.8 of the time); below,
  // measured distances keep the candidates tighter (50,000 settle's first 3000 steps: 1.045x
  // the time with bounds, 2026-11-28).
  static constexpr int kBoundFrom = 1 << 18;
  std::string displacements_mode_ = "auto";  // bounded, measured, or auto (kBoundFrom)
  bool bounds_displacements(int n) const {
    return displacements_mode_ == "bounded" || (displacements_mode_ == "auto" && n >= kBoundFrom);
  }
  double reference_extent_ = 0;  // the largest coordinate's magnitude at the list's build
  PackedBodies packed() const {
    const BodyMotion* motion = pack_motions_ ? motions_.data() : nullptr;
    const StateColumns& c = state_;
    return {c.x, c.radius, motion, material_, c.v, c.w, c.mass, c.inv_mass, ask_ahead_};
  }
  // Whether the kernels ask for rows ahead (PackedBodies::ask_ahead): 'prefetch' on, or auto and
  // their arrays (springs, loads, motions, positions and radii) outgrow a cache's share, 8 MiB:
  // between the settling benchmark's 10k packing (about 4 MiB) and its 50k one.
  std::string prefetch_mode_ = "auto";
  bool ask_ahead_ = false;  // decided once per evaluation
  bool decide_ask_ahead(int n) const {
    if (prefetch_mode_ != "auto") return prefetch_mode_ == "on";
    const size_t per_body = 4 * sizeof(double) + sizeof(BodyMotion) + sizeof(BodyLoad);
    return history_.size() * sizeof(Spring) + size_t(n) * per_body > (size_t{8} << 20);
  }
  // Packing every body's motion row costs a pass writing 64 bytes per body; it pays only when
  // the kernels read most bodies' rows several times (a packing, not a falling cloud).
  void decide_packing(int n) {
    pack_motions_ = motions_mode_ == "packed" || (motions_mode_ == "auto" && 2 * touching_ >= n);
  }
  // The motion rows are made when first packed (a falling or landing cloud never packs them:
  // 64 MB at 1,000,000 bodies) and kept after, so a packing near the threshold does not make
  // them again and again.
  void resize_packed(int n) {
    if (pack_motions_ || !motions_.empty()) motions_.resize(n);
    candidates_.resize(n);
  }

  ContactCandidates candidates_;  // the pairs worth a distance test (contact_candidates.hpp)
  // Displacements are measured from the list's build positions plus its drift (list_drift.hpp);
  // the drift a watched sweep last measured from, and the field the last sweep was handed.
  ListDrift drift_;
  Vec3 drift_swept_ = Vec3::Zero(), field_seen_ = Vec3::Zero();
  double drift_most_ = 0;           // the drift's greatest length at an evaluation since the build
  WallCandidates wall_candidates_;  // the bodies worth a wall screen (wall_candidates.hpp)
  bool screen_every_body_ = false;  // wall_screen = "all": the reference path
  bool screen_blocks() const {
    return !screen_every_body_ && !walls_.empty() && walls_.size() <= 64;
  }

  void pack(const StateView& s, int begin, int end) {
    if (!pack_motions_) return;
    const World& world = s.world;
    for (int i = begin; i < end; ++i) {
      double* m = motions_[i].c;
      for (int k = 0; k < 3; ++k) m[k] = s.v(k, i), m[4 + k] = s.w(k, i);
      m[3] = world.mass(i);
      m[7] = world.inv_mass(i);
    }
  }

  // Bodies [begin, end) against their list partners and the walls (granular_contact_pairs.hpp).
  template <bool Commit>
  void pair_range(const StateView& s, const EvalContext& ctx, int begin, int end, Task& task);
  // The bodies of pairs the kernel may have loaded (body, list slot); Held: and their slots as
  // possibly holding a spring.
  template <bool Held>
  void mark_pairs(Task& task, const int* body, const int* slot, int count) {
    const int* neighbors = list_.neighbors().data();
    for (int p = 0; p < count; ++p) {
      task.loads.mark(body[p]), task.loads.mark(neighbors[slot[p]]);
      if constexpr (Held) held_[slot[p]] = 1;
    }
  }

  // Bodies [begin, end) against the walls, and body i alone (granular_contact_walls.hpp).
  template <bool Commit>
  void wall_range(const EvalContext& ctx, const ContactParams& params, int begin, int end,
                  Task& task);
  template <bool Commit>
  void collect_walls(int i, const EvalContext& ctx, Task& task, int& touching);
  Vec3 wall_slip(int i, const Wall& wall) const;
  Vec3 velocity(int i) const { return Eigen::Map<const Vec3>(state_.v + 3 * i); }
  Vec3 spin(int i) const { return Eigen::Map<const Vec3>(state_.w + 3 * i); }

  // A contact that opens lets go of its tangential spring: that energy is lost (dissipated),
  // with the opening half kick's share of it (the turn mismatch of spring_dashpot).
  // Its energy is at the stiffness it was booked at, or (laws of constant kt, which do not keep
  // it) the law's at zero overlap.
  void release(Spring& history, const Vec3& slip, double release_kt, double dt, Sums& out) const {
    const double kt = history.kt > 0 ? history.kt : release_kt;
    out.capped += 0.5 * kt * history.xi.squaredNorm() + 0.5 * dt * kt * history.xi.dot(slip);
    history = Spring{};
  }

  // release() for a pair of packed bodies.
  void release_pair(int i, int j, Spring& history, double dt, Sums& out) const {
    const Vec3 d =
        Eigen::Map<const Vec3>(state_.x + 3 * i) - Eigen::Map<const Vec3>(state_.x + 3 * j);
    const Vec3 normal = d / d.norm();
    const Vec3 spins = state_.radius[i] * spin(i) + state_.radius[j] * spin(j);
    const Vec3 slip = velocity(i) - velocity(j) - spins.cross(normal);
    release(history, slip, laws_.pair(material_[i], material_[j]).release_kt(), dt, out);
  }

  // A new list for the packed bodies at x. Springs of pairs that left the list (they moved
  // apart by more than the skin in one step) are let go, booked when commit_dt > 0
  // (granular_list_rebuild.hpp).
  void rebuild(const World& world, const Positions& x, Parallel* parallel, double commit_dt);

  ElasticForce elastic() const {
    return [this](double delta, double r_eff) { return law_.at(delta, r_eff, 1.0).kn * delta; };
  }

  // A pair's gap when the list is built, less a margin for rounding: while its two bodies have
  // not moved that much between them, it cannot touch (contact_candidates.hpp). A pair holding a
  // spring is always tested, so it is let go when it opens.
  static constexpr double kAlwaysTest = -std::numeric_limits<double>::infinity();
  double gap_at_build(const Positions& x, const VecX& radius, int i, int j) const {
    const double reach = radius(i) + radius(j);
    return (x.col(i) - x.col(j)).norm() - reach - 1e-9 * (reach + list_.skin());
  }
  // Whether a pair's tangential spring is stretched (its kt is zero when xi is).
  static bool engaged(const Spring& spring) {
    return lanes::mask_bits(lanes::load(spring.xi.data()) != 0) != 0;
  }

  Law law_;
  double mu_;
  Coulomb coulomb_;
  bool limit_force_;
  std::vector<WallMaterial> wall_materials_;  // per wall
  MaterialLaws<Law> laws_;                    // per pair of materials, and per wall and material
  std::uint64_t own_version_ = 0;             // counts live edits of law_ and mu_
  const std::uint16_t* material_ = nullptr;   // World::material, at this evaluation
  double mu_roll_, mu_twist_;  // rolling and twisting resistance coefficients (0: off)
  NeighborList list_;
  ContactExclusions exclusions_;
  RigidContactFinder finder_;  // contact treatment `impulse`
  std::vector<RigidWall> rigid_walls_;
  std::vector<Wall> walls_;
  ZeroedArray<Spring> history_;  // per list slot (pairs never touched: no memory)
  // Per list slot: 0 if its spring is surely zero (1: it may be stretched). For speed only: the
  // collection of touching pairs reads a byte per candidate instead of its 32-byte spring; for
  // memory, the rebuild and the saving read only held springs.
  std::vector<std::uint8_t> held_;
  std::vector<double> gaps_;          // per list slot: gap_at_build
  ZeroedArray<Spring> wall_history_;  // per body and wall (those of bodies away: no memory)
  std::vector<double> wall_offset_;   // each wall plane's n.x at this evaluation's time
  std::vector<WallPlane> planes_;     // the walls as the wall kernel reads them
  // Per body: bit w set if its spring with wall w may be stretched (walls 0 to 63).
  std::vector<std::uint64_t> wall_engaged_;
  // Pair history loaded with a state, until the next rebuild: sorted by pair, the file's later
  // word on a pair kept. Two arrays, not a map, for memory: a map's nodes took some 110 bytes a
  // spring while a state loads (a settled 50,000 packing holds 118,000 springs).
  std::vector<std::pair<int, int>> pending_pairs_;
  std::vector<Spring> pending_springs_;
  void drop_pending() {  // (their memory too: clear() would keep it)
    std::vector<std::pair<int, int>>().swap(pending_pairs_);
    std::vector<Spring>().swap(pending_springs_);
  }
  ShapeContacts shapes_;  // pairs and walls with a body that is not a sphere
  std::vector<double> pending_walls_, pending_wall_kt_;
  double committed_dissipation_ = 0;
  double committed_made_ = 0;  // by manifolds' points coming and going (ShapeContacts)
};

}  // namespace stepwise

#include "core/contacts/granular_contact_pairs.hpp"
#include "core/contacts/granular_contact_quiet.hpp"
#include "core/contacts/granular_contact_rigid.hpp"
#include "core/contacts/granular_contact_state.hpp"
#include "core/contacts/granular_contact_walls.hpp"
#include "core/contacts/granular_list_rebuild.hpp"
