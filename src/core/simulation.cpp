#include "core/simulation.hpp"

#include "core/lanes.hpp"
#include "core/limits.hpp"
#include "core/spatial_order.hpp"

#include "core/bonds/bond_common.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <tuple>
#include <utility>

namespace stepwise {

std::string StepFailure::message() const {
  if (body < 0)
    return "energy became non-finite at step " + std::to_string(step) +
           " (the state is finite, its kinetic or potential energy is not)";
  return "state became non-finite at step " + std::to_string(step) +
         " (first bad body: " + std::to_string(id) + ")";
}

double relative_energy_error(double total, double initial, double work, double dissipated) {
  const double scale = std::max({std::abs(initial), std::abs(work), 1e-30});
  return (total - initial - work + dissipated) / scale;
}

Simulation::Simulation(World world, double dt, const std::string& integrator,
                       const std::string& rotation)
    : world_(std::move(world)), dt_(0) {
  set_dt(dt);
  set_integrator(integrator);
  set_rotation(rotation);
}

namespace {

// Where an evaluation's load arrays keep their numbers. A queued pass holds this, not the
// Evaluation: a step's closing passes may run in the next step's first sweep (advance), when
// that step's evaluation in place has already handed the Evaluation's arrays to scratch_.
struct LoadArrays {
  using Map = Eigen::Map<Positions>;
  Map force, torque, external_force, external_torque, drag_force, drag_torque;
  explicit LoadArrays(Simulation::Evaluation& e)
      : force(map(e.force)),
        torque(map(e.torque)),
        external_force(map(e.external_force)),
        external_torque(map(e.external_torque)),
        drag_force(map(e.drag_force)),
        drag_torque(map(e.drag_torque)) {}
  static Map map(Positions& p) { return Map(p.data(), 3, p.cols()); }
};

// Sets the components c with keep[c] false of bodies [begin, end) in p (3 x n) to +0: four bodies
// at a time as stored, masked, instead of stores three apart (for speed only).
void clear_components(double* p, int begin, int end, const bool (&keep)[3]) {
  using namespace lanes;
  M4 mask[3];
  for (int e = 0; e < 12; ++e) mask[e / 4][e % 4] = keep[e % 3] ? -1 : 0;
  const D4 zero = splat(0.0);
  int i = begin;
  for (; i + 4 <= end; i += 4) {
    double* at = p + 3 * i;
    for (int q = 0; q < 3; ++q) store(at + 4 * q, select(mask[q], load(at + 4 * q), zero));
  }
  for (; i < end; ++i)
    for (int c = 0; c < 3; ++c)
      if (!keep[c]) p[3 * i + c] = 0.0;
}
constexpr bool kInPlane[3] = {true, true, false}, kAboutNormal[3] = {false, false, true};

// Body i's rate of external work and of dissipation by drag at velocity v, added to the sums
// (only the arrays the evaluation tracks).
void add_body_power(const LoadArrays& e, const Vec3& v, int i, double& work, double& loss) {
  if (e.external_force.cols() > 0) work += e.external_force.col(i).dot(v);
  if (e.drag_force.cols() > 0) loss -= e.drag_force.col(i).dot(v);
}

// Cundall's local damping of body i's loads at velocity v and the world's spin, booked as drag.
void apply_local_damping(const World& world, int i, const Vec3& v, LoadArrays& out) {
  const double alpha = world.local_damping;
  auto damp = [alpha](const Vec3& load, const Vec3& rate) {
    Vec3 d;
    for (int k = 0; k < 3; ++k)
      d(k) = rate(k) == 0 ? 0.0 : -alpha * std::abs(load(k)) * (rate(k) > 0 ? 1 : -1);
    return d;
  };
  if (world.inv_mass(i) > 0) {
    const Vec3 f = damp(out.force.col(i), v);
    out.force.col(i) += f;
    out.drag_force.col(i) += f;
  }
  if (rotates_freely(world, i)) {
    const Vec3 t = damp(out.torque.col(i), world.w.col(i));
    out.torque.col(i) += t;
    out.drag_torque.col(i) += t;
  }
}

}  // namespace

void Simulation::set_integrator(const std::string& name) {
  integrator_ = IntegratorRegistry::instance().make(name);
  integrator_name_ = name;
  // The committed evaluation may have left its body powers out: add them at the current state.
  if (cache_valid_ && integrator_->reads_committed_powers() && !cached_.body_powers) {
    cached_.body_powers = true;
    double work = 0, loss = 0;
    const LoadArrays loads(cached_);
    for (int i = 0; i < world_.size(); ++i) add_body_power(loads, world_.v.col(i), i, work, loss);
    cached_.powers.external += work;
    cached_.powers.dissipation += loss;
  }
}

void Simulation::set_rotation(const std::string& name) {
  rotation_ = RotationRegistry::instance().make(name);
  rotation_name_ = name;
}

void Simulation::set_dt(double dt) {
  dt_ = limits::dt("time step dt", dt);
}

void Simulation::set_seed(std::uint64_t seed) {
  seed_ = seed;
  random_.reseed(seed);
}

void Simulation::invalidate() {
  cache_valid_ = false;
  only_swept_ = false;
  if (integrator_) integrator_->reset();
  if (rotation_) rotation_->reset();
}

void Simulation::edit(const std::function<void(World&)>& change) {
  const double before = ledger_started_ ? energy().total : 0.0;
  change(world_);
  invalidate();
  if (ledger_started_) external_work_ += energy().total - before;
}

void Simulation::decide_tracking() {
  track_body_work_ = tracks_body_work();
  // Not with local damping, which damps every body.
  drag_marked_ = (track_body_work_ & kDragWork) && world_.local_damping == 0 &&
                 std::all_of(world_.forces.begin(), world_.forces.end(), [](const auto& f) {
                   return !(f->body_work() & kDragWork) || f->marks_drag();
                 });
  torque_marked_ = drag_marked_ && std::all_of(world_.forces.begin(), world_.forces.end(),
                                               [](const auto& f) { return f->marks_torque(); });
  special_bodies_ = std::any_of(world_.flags.begin(), world_.flags.end(),
                                [](auto f) { return (f & (kDriven | kDrivenSpin | kPivot)) != 0; });
}

unsigned Simulation::tracks_body_work() const {
  unsigned bits = world_.local_damping > 0 ? unsigned{kDragWork} : 0u;
  for (const auto& f : world_.forces) bits |= f->body_work();
  for (auto flag : world_.flags)
    if (flag & (kDriven | kDrivenSpin)) bits |= kExternalWork;
  return bits;
}

void Simulation::ensure_start_evaluation() {
  if (cache_valid_ && cached_.force.cols() == world_.size()) return;
  // The World may have changed since the last evaluation: decide once whether work is tracked.
  decide_tracking();
  evaluate(world_.x, world_.v, time_, true, cached_);
  cache_valid_ = true;
}

bool Simulation::clears_plane() const {
  return world_.dimensions == 2 &&
         !std::all_of(world_.forces.begin(), world_.forces.end(),
                      [this](const auto& f) { return f->keeps_plane(world_); });
}

void Simulation::evaluate(const Positions& x, const Positions& v, double t, bool commit,
                          Evaluation& out, bool defer) {
  const bool cleared = std::exchange(sweep_cleared_, false);  // by a queued sweep, in place
  swept_at_ = -1;  // (a swept step sets it again once this evaluation is its own)
  const int n = world_.size();
  const unsigned tracked = track_body_work_;
  const bool external = tracked & kExternalWork, drag = tracked & kDragWork;
  // In place: the arrays of `out` (the start evaluation's loads) become the ones written, each
  // block cleared by the queued passes after those queued before have read it (they hold its
  // storage, not the object). Their old contents are read by nothing after this flush.
  evaluating_in_place_ = in_place_ && &out == &cached_;
  // A model that throws leaves the start loads half cleared: the cache is then not valid.
  struct Unwind {
    Simulation* sim;
    bool in_place;
    const int exceptions = std::uncaught_exceptions();
    ~Unwind() {
      if (std::uncaught_exceptions() <= exceptions) return;
      sim->evaluating_in_place_ = false;
      if (in_place) sim->cache_valid_ = false;
    }
  } unwind{this, evaluating_in_place_};
  if (evaluating_in_place_) {
    scratch_.force.swap(out.force);
    scratch_.torque.swap(out.torque);
    scratch_.external_force.swap(out.external_force);
    scratch_.external_torque.swap(out.external_torque);
    scratch_.drag_force.swap(out.drag_force);
    scratch_.drag_torque.swap(out.drag_torque);
    scratch_.drag_marks.swap(out.drag_marks);
  }
  scratch_.tracked = tracked;
  scratch_.resize(n);
  const StateView view{world_, x, v, world_.w};
  EvalContext ctx{t, dt_, commit, parallel_};
  // The models' per-body starts run fused with whatever the step queued before (kicks, drift).
  if (!cleared) passes_.add([this](int, int begin, int end) { scratch_.clear(begin, end); });
  // A queued sweep that moves the bodies in these passes may take over some models' per-body
  // work (SweepShare); the loads' field only from the first model, which adds first.
  sweep_share_ = {};
  if (cleared) ctx.sweep = &sweep_share_;
  sweep_share_.only_swept = cleared && opening_only_swept_;
  for (size_t m = 0; m < world_.forces.size(); ++m) {
    sweep_share_.field_open = m == 0;
    world_.forces[m]->prepare(view, scratch_, ctx, passes_);
  }
  sweep_share_.field_open = false;
  ctx.sweep = nullptr;
  flush();
  evaluating_in_place_ = false;
  // Cleared: every drag load is zero and unmarked, so the marks stay exact if only models that
  // mark add drag loads.
  scratch_.drag_marks.exact = drag_marked_;
  ctx.prepared = true;
  ctx.after = &passes_;
  out.potentials.assign(world_.forces.size(), 0.0);
  for (size_t m = 0; m < world_.forces.size(); ++m) {
    const double before = scratch_.potential;
    world_.forces[m]->apply(view, scratch_, ctx);
    out.potentials[m] = scratch_.potential - before;
  }
  out.potential = scratch_.potential;
  out.contacts = scratch_.contacts;
  out.wall_contacts = scratch_.wall_contacts;
  out.pair_powers = {scratch_.dissipation_power, scratch_.external_power};
  out.powers = out.pair_powers;
  out.force.swap(scratch_.force);
  out.torque.swap(scratch_.torque);
  if (external) {
    out.external_force.swap(scratch_.external_force);
    out.external_torque.swap(scratch_.external_torque);
  } else {
    out.external_force.resize(3, 0);
    out.external_torque.resize(3, 0);
  }
  if (drag) {
    out.drag_force.swap(scratch_.drag_force);
    out.drag_torque.swap(scratch_.drag_torque);
    out.drag_marks.swap(scratch_.drag_marks);
  } else {
    out.drag_force.resize(3, 0);
    out.drag_torque.resize(3, 0);
    out.drag_marks = {};
  }
  // The plane holds 2-D bodies (LAMMPS' fix enforce2d): no load leaves it. Unless every model
  // keeps its loads there (ForceModel::keeps_plane), a pass clears what leaves it, queued after
  // the models' finishing passes, so it sees their complete loads.
  if (clears_plane()) {
    passes_.add([out = LoadArrays(out), external, drag, marks = out.drag_marks.known()](
                    int, int begin, int end) mutable {
      clear_components(out.force.data(), begin, end, kInPlane);
      clear_components(out.torque.data(), begin, end, kAboutNormal);
      if (external) clear_components(out.external_force.data(), begin, end, kInPlane);
      if (external) clear_components(out.external_torque.data(), begin, end, kAboutNormal);
      if (drag && DragMarks::few(marks, begin, end)) {  // the others' drag loads are zero
        DragMarks::each(marks, begin, end, [&out](int i) {
          out.drag_force(2, i) = 0, out.drag_torque(0, i) = out.drag_torque(1, i) = 0;
        });
      } else if (drag) {
        clear_components(out.drag_force.data(), begin, end, kInPlane);
        clear_components(out.drag_torque.data(), begin, end, kAboutNormal);
      }
    });
  }
  // Driven and pivoted bodies and local damping need the pass below; the body powers only when
  // something reads them (a trial evaluation, or an integrator that books with them).
  const bool powers_read = &out != &cached_ || integrator_->reads_committed_powers();
  const bool needed =
      special_bodies_ || world_.local_damping > 0 || (powers_read && (external || drag));
  out.body_powers = needed || !(external || drag);
  if (!needed) {
    if (!defer) flush();
    return;
  }
  // Queued after the models' own finishing passes, so it sees their complete loads.
  double* sums = passes_.slots(2);  // external power, then dissipated power, per range
  passes_.add(
      [this, &x, &v, out = LoadArrays(out), sums, external, drag](int task, int begin,
                                                                   int end) mutable {
        double work = sums[task], loss = sums[kMaxTasks + task];
        for (int i = begin; i < end; ++i) {
          const auto f = world_.flags[i];
          if (external && (f & (kDriven | kDrivenSpin))) {
            // The driver holds the prescribed motion against everything else acting on the body.
            if (f & kDriven) out.external_force.col(i) -= out.force.col(i);
            out.external_torque.col(i) -= out.torque.col(i);
          }
          if (f & kPivot) {
            // Forces on a pivoted body act as torques about the pivot.
            const Vec3 arm = x.col(i) - world_.pivot.col(i);
            out.torque.col(i) += arm.cross(out.force.col(i));
            if (external) {
              out.external_torque.col(i) += arm.cross(out.external_force.col(i));
              out.external_force.col(i).setZero();
            }
            if (drag) {
              out.drag_torque.col(i) += arm.cross(out.drag_force.col(i));
              out.drag_force.col(i).setZero();
            }
          }
          if (world_.local_damping > 0) apply_local_damping(world_, i, v.col(i), out);
          add_body_power(out, v.col(i), i, work, loss);
        }
        sums[task] = work, sums[kMaxTasks + task] = loss;
      },
      [this, &out, sums, n] {
        for (int task = 0; task < range_count(parallel_, n); ++task) {
          out.powers.external += sums[task];
          out.powers.dissipation += sums[kMaxTasks + task];
        }
      });
  if (!defer) flush();
}

// One step as a few fused passes over the bodies: the rotation's first half, the kick and the
// drift run with the evaluation's per-body start; the models' load combining, the closing kicks
// and the finiteness check run together at the end, or within advance() with the next step's
// opening passes. Schemes that cannot go by ranges, and integrators that read the state, flush
// the queue first (see Dynamics).
std::optional<StepFailure> Simulation::step() {
  keep_spatial_order();
  return step_once();
}

std::optional<StepFailure> Simulation::step_once() {
  return guarded([this] { return take_step(); });
}

std::optional<StepFailure> Simulation::guarded(
    const std::function<std::optional<StepFailure>()>& work) {
  try {
    return work();
  } catch (const Carried& carried) {  // the step before this one went non-finite
    passes_.discard();
    only_swept_ = false;
    return carried.failure;
  } catch (...) {
    passes_.discard();
    only_swept_ = false;
    carried_check_ = false;
    throw;
  }
}

std::optional<StepFailure> Simulation::take_step() {
  ensure_start_evaluation();
  if (!ledger_started_) reset_ledger();
  if (sweep_applies()) return take_swept_step();
  only_swept_ = false;
  drift_solved_ = spins_changed_ = false;
  if (world_.contact.impulse()) rigid_start_step();
  const bool kick_drift_kick = rotation_->needs_end_torque();
  // Work of external and drag torques over the rotation's kicks, exactly as the kicks apply it;
  // the cache still holds the start evaluation here.
  rotation_half(true, kick_drift_kick ? 0.5 * dt_ : dt_);
  end_evaluated_ = false;
  Dynamics dynamics(*this, time_, dt_);
  integrator_->step(dynamics, dt_);
  if (!end_evaluated_) {
    evaluate(world_.x, world_.v, time_ + dt_, true, cached_, true);
    end_evaluated_ = true;
  }
  if (kick_drift_kick) rotation_half(false, 0.5 * dt_);
  time_ += dt_;
  ++step_;
  correct_step();
  if (world_.contact.impulse()) rigid_contact_step();
  // One vectorised sum per block first; only a non-finite state searches for the culprit. The
  // velocities' squares also catch a kinetic energy that overflows while v is finite.
  std::fill(finite_, finite_ + kMaxTasks, true);
  passes_.add([this](int task, int begin, int end) {
    const int count = end - begin;
    finite_[task] = finite_[task] && std::isfinite(world_.x.middleCols(begin, count).sum() +
                                                   world_.v.middleCols(begin, count).squaredNorm() +
                                                   world_.L.middleCols(begin, count).sum());
  });
  return check_or_carry();
}

// The step's finiteness check, queued: run now, or left for the next step's first flush.
std::optional<StepFailure> Simulation::check_or_carry() {
  if (carry_ && std::isfinite(cached_.potential)) {  // looked at in the next step's first flush
    carried_check_ = true;
    carried_step_ = step_;
    return std::nullopt;
  }
  flush();
  return finite_verdict(step_, std::isfinite(cached_.potential));
}

std::optional<StepFailure> Simulation::finite_verdict(long step, bool potential_finite) const {
  if (std::all_of(finite_, finite_ + range_count(parallel_, world_.size()),
                  [](bool f) { return f; })) {
    if (potential_finite) return std::nullopt;
    return StepFailure{step, -1};  // a finite state whose energy is not (bodies at 1e308)
  }
  for (int i = 0; i < world_.size(); ++i) {
    if (!world_.x.col(i).allFinite() || !std::isfinite(world_.v.col(i).squaredNorm()) ||
        !world_.L.col(i).allFinite() || !world_.q[i].coeffs().allFinite())
      return StepFailure{step, i, world_.id(i)};
  }
  return StepFailure{step, -1};
}

void Simulation::flush() {
  passes_.run(parallel_, world_.size());
  if (!carried_check_) return;
  // A carried step's non-finite state stays so through the next step's opening passes (sums of
  // it stay non-finite), so the same body is found, unless a half kick brought a velocity back
  // under the limit (then the step is named without a body). The clock stays at that step.
  carried_check_ = false;
  if (auto failure = finite_verdict(carried_step_, true)) throw Carried{*failure};
}

void Simulation::correct_step() {
  if (std::none_of(world_.forces.begin(), world_.forces.end(),
                   [](const auto& f) { return f->corrects(); }))
    return;
  flush();
  auto total = [this] { return world_.kinetic_energy() + cached_.potential; };
  const double before = total();
  const Positions spins = world_.w;  // to know whether the rotation's carried state went stale
  ForceModel* changed = nullptr;
  for (const auto& f : world_.forces)
    if (f->corrects() && f->correct(world_, time_) && !changed) changed = f.get();
  if (!changed) return;
  only_swept_ = false;
  // Carried state (leapfrog's half-step velocities, Wang's half-step spins) describes the state
  // before the correction: the methods restart from the corrected one, as after any edit.
  integrator_->reset();
  if (world_.w != spins) rotation_->reset();
  // The step's histories were committed at its end; the cache only needs the corrected forces.
  evaluate(world_.x, world_.v, time_, false, cached_);
  changed->book_correction(total() - before);
}

std::optional<StepFailure> Simulation::advance(long steps) {
  struct Uncarry {
    bool& carry;
    ~Uncarry() { carry = false; }
  } uncarry{carry_};
  for (long s = 0; s < steps; ++s) {
    if (!carry_) keep_spatial_order();
    // Free flight, up to the step before this call's last (and before a sort again). The last
    // step before a multiple of kResortEvery runs its closing passes itself, so the bodies may
    // be sorted again between the two (keep_spatial_order).
    long most = steps - s - 1, flown = 0;
    if (!world_.ids.empty()) most = std::min(most, kResortEvery - 1 - step_ % kResortEvery);
    if (auto failure = guarded([&]() -> std::optional<StepFailure> {
          flown = fly(most);
          return std::nullopt;
        }))
      return failure;
    s += flown;
    const bool resort_next = (step_ + 1) % kResortEvery == 0 && !world_.ids.empty();
    carry_ = s + 1 < steps && !resort_next;
    if (auto failure = step_once()) return failure;
  }
  return std::nullopt;
}

void Simulation::reset_ledger() {
  ledger_started_ = true;
  external_work_ = dissipated_ = contact_corrected_ = 0;
  internal_dissipation_base_ = internal_correction_base_ = 0;
  for (const auto& f : world_.forces) {
    internal_dissipation_base_ += f->internal_dissipation();
    internal_correction_base_ += f->internal_correction();
  }
  initial_energy_ = 0;
  initial_energy_ = energy().total;
}

EnergyReport Simulation::energy() {
  ensure_start_evaluation();
  EnergyReport r;
  r.step = step_;
  r.time = time_;
  for (int i = 0; i < world_.size(); ++i) {
    const Vec3 v = world_.v.col(i);
    r.kinetic_translational += 0.5 * world_.mass(i) * v.squaredNorm();
    r.kinetic_rotational += 0.5 * world_.w.col(i).dot(world_.L.col(i));
    r.momentum += world_.mass(i) * v;
    r.angular_momentum += world_.x.col(i).cross(world_.mass(i) * v) + world_.L.col(i);
  }
  // Generalised coordinates: the bodies they stand for carry the kinetic energy and momenta.
  std::vector<ForceModel::Shown> shown;
  for (const auto& f : world_.forces)
    if (f->shown_bodies(world_, shown)) {
      r.kinetic_translational = r.kinetic_rotational = 0;
      r.momentum = r.angular_momentum = Vec3::Zero();
      for (const auto& b : shown) {
        r.kinetic_translational += 0.5 * b.mass * b.velocity.squaredNorm();
        r.momentum += b.mass * b.velocity;
        r.angular_momentum += b.position.cross(b.mass * b.velocity);
      }
      break;
    }
  r.kinetic = r.kinetic_translational + r.kinetic_rotational;
  r.potential = cached_.potential;
  r.potential_by_model = cached_.potentials;
  r.total = r.kinetic + r.potential;
  double internal = -internal_dissipation_base_;
  for (const auto& f : world_.forces) internal += f->internal_dissipation();
  r.external_work = external_work_;
  r.dissipated = dissipated_ + internal;
  r.contacts = cached_.contacts;
  r.wall_contacts = cached_.wall_contacts;
  r.bonds_broken = bonds_broken(world_);
  r.corrected = contact_corrected_ - internal_correction_base_;
  for (const auto& f : world_.forces) r.corrected += f->internal_correction();
  r.contacts += impulse_figures_.contacts;
  r.wall_contacts += impulse_figures_.wall_contacts;
  // The correction's energy counts as work done on the system, but is shown apart.
  r.energy_error = ledger_started_ ? relative_energy_error(r.total, initial_energy_,
                                                           r.external_work + r.corrected,
                                                           r.dissipated)
                                   : 0.0;
  return r;
}

Simulation::Stiffest Simulation::stiffest() const {
  Stiffest out;
  const ForceModel* model = nullptr;
  for (const auto& f : world_.forces) {
    const double w = f->max_frequency(world_);
    if (w > out.omega) out.omega = w, model = f.get();
  }
  if (model) std::tie(out.i, out.j) = model->stiffest_pair(world_);
  return out;
}

const Positions& Simulation::forces() {
  ensure_start_evaluation();
  return cached_.force;
}

const Positions& Simulation::torques() {
  ensure_start_evaluation();
  return cached_.torque;
}

double Simulation::max_frequency() const {
  double omega = 0;
  for (const auto& f : world_.forces) omega = std::max(omega, f->max_frequency(world_));
  return omega;
}

}  // namespace stepwise
