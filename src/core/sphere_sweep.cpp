// The free-sphere sweep (sphere_sweep.hpp): one loop over four bodies at a time.
#include "core/sphere_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/force_model.hpp"
#include "core/parallel.hpp"
#include "core/rotation/sphere_lanes.hpp"
#include "core/rotation_scheme.hpp"
#include "core/sweep_prefetch.hpp"
#include "core/uniform_field.hpp"
#include "core/velocity_kick.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

using lanes::D4;
using lanes::Stored;

// The drag work sums of one task, as the passes' add_body_work keeps them: body by body.
struct Losses {
  double close_kick = 0, close_spin = 0, open_spin = 0, open_kick = 0;
  // h F.mean of four bodies, subtracted body by body (add_body_work's lanes).
  static void book(double& loss, double h, const double* load, const Stored& mean) {
    const D4 d = lanes::splat(h) * lanes::dot(lanes::load_stored(load), mean);
    loss -= d[0], loss -= d[1], loss -= d[2], loss -= d[3];
  }
  static void book(double& loss, double h, const double* load, const Vec3& mean) {
    loss -= h * Eigen::Map<const Vec3>(load).dot(mean);
  }
};

Stored mean_of(const Stored& before, const double* after) {
  return lanes::splat(0.5) * (before + lanes::load_stored(after));
}

// The share's work on bodies that have moved and had their loads cleared: the field's loads and
// potential as its model's pass adds them (uniform_field.hpp), the displacements as
// NeighborList::displacements2 measures them, each run's largest written when the run is done;
// or, where the share's bounds hold, each run's largest move this step, added to its bound, and
// the distances measured only where the bound no longer suffices (SweepShare::bound).
class Shared {
 public:
  // The field's potential is summed per task across blocks, as its pass keeps it.
  Shared(World& world, const SweepShare* share, double dt, int task, int begin, int end)
      : share_(share && (share->field_taken || share->most2) ? share : nullptr),
        mass_(world.mass.data()),
        x_(world.x.data()),
        v_(world.v.data()),
        dt_(dt),
        task_(task),
        end_(end) {
    if (share_ && share_->most2 && begin % share_->run != 0)
      throw std::logic_error("sweep_spheres: a range must begin at a multiple of the share's run");
    if (share_ && share_->field_taken) {
      field_ = uniform_field::stored(share_->field);
      potential_ = share_->potential[task];
    }
    if (share_ && share_->most2) {
      const Vec3 &c = share_->drift, &r = share_->drift_rate;
      drift_ = lanes::repeat_xyz(c.x(), c.y(), c.z());
      rate_ = lanes::repeat_xyz(r.x(), r.y(), r.z());
    }
    bounded_ = share_ && share_->most2 && share_->bound && share_->bound_known;
  }
  bool any() const { return share_ != nullptr; }
  // The field's loads go onto loads not yet cleared (four(): cleared here).
  bool clears() const { return share_ && share_->field_taken; }

  void four(double* force, int i) {
    if (share_->field_taken)
      uniform_field::four_cleared(mass_, x_, force, share_->field, field_, i, potential_);
    if (!share_->most2) return;
    if (bounded_) {  // (v moved x this step: x = x + dt v; the drift, dt drift_rate)
      const lanes::D4 v2 = lanes::squared_distances(v_ + 3 * i, rate_);
      moves_ = moves_ < v2 ? v2 : moves_;
    } else {
      measure_four(i);
    }
    if ((i + 4) % share_->run == 0) write(i + 3);
  }
  void one(double* force, int i) {
    if (share_->field_taken) uniform_field::one(mass_, x_, force, share_->field, i, potential_);
    if (!share_->most2) return;
    if (bounded_) {
      move_ =
          std::max(move_, (Eigen::Map<const Vec3>(v_ + 3 * i) - share_->drift_rate).squaredNorm());
    } else {
      measure_one(i);
    }
    if ((i + 1) % share_->run == 0) write(i);
  }
  // The last run of the range, if it ends before its run does, and the potential's sum.
  void finish(int end) {
    if (share_ && share_->most2 && end % share_->run != 0) write(end - 1);
    if (share_ && share_->field_taken) share_->potential[task_] = potential_;
  }

 private:
  void measure_four(int i) {
    const lanes::D4 d2 = lanes::squared_distances(x_ + 3 * i, share_->reference + 3 * i, drift_);
    lanes_ = lanes_ < d2 ? d2 : lanes_;  // (a NaN never enters, as in displacements2)
  }
  void measure_one(int i) {
    const Eigen::Map<const Vec3> now(x_ + 3 * i), then(share_->reference + 3 * i);
    one_ = std::max(one_, ((now - then) - share_->drift).squaredNorm());
  }
  static double largest(const lanes::D4& d) {
    return std::max(std::max(d[0], d[1]), std::max(d[2], d[3]));
  }
  // Run r ends at body `last`: its largest squared distance, or a bound on it.
  void write(int last) {
    const int r = last / share_->run;
    if (!(bounded_ && bound_suffices(r))) {
      if (bounded_) {  // measured as the sweep would have, four at a time to the range's end
        int k = r * share_->run;
        for (; k + 3 <= last && k + 4 <= end_; k += 4) measure_four(k);
        for (; k <= last; ++k) measure_one(k);
      }
      const double most = std::max(largest(lanes_), one_);
      share_->most2[r] = most;
      // (a bound from here on: the root rounded up)
      if (share_->bound) share_->bound[r] = std::sqrt(most) * (1 + 1e-12);
    }
    lanes_ = moves_ = lanes::splat(0.0);
    one_ = move_ = 0;
  }
  // The bound grown by this step's largest move from the drift, |x_new - x - dt drift_rate| <=
  // dt |v - drift_rate| + the roundings of the addition and of the drift (in the share's
  // rounding: 2^-53 |x_new| a component, no coordinate beyond the share's extent while the bound
  // holds), with room for the roundings here; if it stays below the run's limit, its square
  // (rounded up) stands for the distance.
  bool bound_suffices(int r) {
    const double move2 = std::max(largest(moves_), move_);
    const double step = dt_ * std::sqrt(move2) * (1 + 1e-12) + share_->rounding;
    const double bound = (share_->bound[r] + step) * (1 + 1e-12);
    const double limit = share_->limit ? std::min(share_->limit[r], share_->cap) : share_->cap;
    if (!(bound * (1 + 1e-11) < limit)) return false;
    share_->bound[r] = bound;
    share_->most2[r] = bound * bound * (1 + 1e-12);
    return true;
  }
  const SweepShare* share_;
  const double* mass_;
  const double* x_;
  const double* v_;
  double dt_;
  int task_, end_;
  bool bounded_ = false;
  double potential_ = 0;
  lanes::Stored field_{}, drift_{}, rate_{};  // (the drift and its rate as stored)
  lanes::D4 lanes_ = lanes::splat(0.0), moves_ = lanes::splat(0.0);
  double one_ = 0, move_ = 0;
};

// One body, as the queued passes do it: the rotation's range functions, the kick, the drift.
void sweep_one(World& world, RotationScheme& rotation, const SphereSweep& s, int i, double& check,
               Losses& losses) {
  const double half = 0.5 * s.dt;
  const bool book = s.drag_force && (!s.marks || s.marks[i]);
  double* v = world.v.data();
  const double* inv_mass = world.inv_mass.data();
  auto spin = [&](bool first, double& loss) {
    const Vec3 before = world.w.col(i);
    if (first)
      rotation.begin_range(world, *s.torque, s.dt, i, i + 1);
    else
      closing_half_kick(world, *s.torque, s.dt, i, i + 1);
    if (book)
      Losses::book(loss, half, s.drag_torque + 3 * i, Vec3(0.5 * (before + world.w.col(i))));
  };
  if (s.close) {
    const Vec3 mean = velocity_kick::one(v, s.force, inv_mass, half, i);
    if (book) Losses::book(losses.close_kick, half, s.drag_force + 3 * i, mean);
    spin(false, losses.close_spin);
    check += world.x.col(i).sum() + world.v.col(i).squaredNorm() + world.L.col(i).sum();
  }
  if (s.open) {
    spin(true, losses.open_spin);
    const Vec3 mean = velocity_kick::one(v, s.force, inv_mass, half, i);
    if (book) Losses::book(losses.open_kick, half, s.drag_force + 3 * i, mean);
    world.x.col(i) += s.dt * world.v.col(i);
    Eigen::Map<Vec3>(s.force + 3 * i).setZero();
    s.torque->col(i).setZero();
  }
}

}  // namespace

void sweep_spheres(World& world, RotationScheme& rotation, const SphereSweep& s, int task,
                   int begin, int end, bool* finite) {
  using namespace lanes;
  const double half = 0.5 * s.dt;
  double* x = world.x.data();
  double* v = world.v.data();
  double* w = world.w.data();
  const double* L = world.L.data();
  const double* inv_mass = world.inv_mass.data();
  const double* torque = s.torque->data();
  double* const slot[4] = {s.losses + 1 * kMaxTasks + task, s.losses + 3 * kMaxTasks + task,
                           s.losses + 5 * kMaxTasks + task, s.losses + 7 * kMaxTasks + task};
  Losses losses;  // (locals: no store at every body)
  SweepCounts counts;
  if (s.drag_force) losses = {*slot[0], *slot[1], *slot[2], *slot[3]};
  // The finiteness sum, as the check's (added in another order: the two can differ only where a
  // block's numbers sum past the largest double, bodies at 1e308).
  D4 lanes_check = splat(0.0);
  double check = 0;
  Shared shared(world, s.open ? s.share : nullptr, s.dt, task, begin, end);
  // Closing and opening in one pass after the step's opening, with nothing else since: every
  // free sphere's w is as that opening stored it (SphereSweep::still).
  const bool spins_kept = s.close && s.open && s.still_known;
  int i = begin;
  for (; i + 4 <= end; i += 4) {
    if (s.ask_ahead && i + sweep_prefetch::kAhead + 4 <= end)
      counts.asked += sweep_prefetch::ask(world, s, i + sweep_prefetch::kAhead);
    if (!sphere_lanes::free_four(world, i)) {
      for (int k = i; k < i + 4; ++k) sweep_one(world, rotation, s, k, check, losses);
      if (shared.any()) shared.four(s.force, i);
      if (s.still) s.still[i / 4] = 0;
      continue;
    }
    const std::uint32_t marked = s.four_marks(i);
    const bool book = s.drag_force && marked;
    // No torque, no spin: the rotation's halves would change nothing, and the torques are clear.
    const bool unturned = s.stills_known()
                              ? s.left_still(i, marked)
                              : s.torque_marked && !marked && sphere_lanes::unturned_four(world, i);
    counts.unturned += unturned;
    // No torque but a spin: L stays as it is (no -0 to become +0), so w = L / I stays as the
    // last opening wrote it; only the turn is left (spins_kept says w is so written).
    const bool coasting = spins_kept && s.torque_marked && !marked && !unturned &&
                          sphere_lanes::no_negative_zero(world.L.data() + 3 * i);
    counts.coasting += coasting;
    if (s.close) {
      const Stored mean = velocity_kick::four(v, s.force, inv_mass, half, i);
      if (book) Losses::book(losses.close_kick, half, s.drag_force + 3 * i, mean);
      const Stored before = book ? load_stored(w + 3 * i) : Stored{};
      // Opening too, Buss2's first half recomputes w from L: the closing's w only for booking.
      if (!unturned && !coasting)
        sphere_lanes::closing_kick(world, torque, s.dt, i, book || !s.open);
      if (book)
        Losses::book(losses.close_spin, half, s.drag_torque + 3 * i, mean_of(before, w + 3 * i));
      // (an unturned group's L is +0: not read)
      const Stored p = load_stored(x + 3 * i), l = unturned ? Stored{} : load_stored(L + 3 * i);
      const Stored u = load_stored(v + 3 * i), u2 = u * u;
      lanes_check += ((p.first + p.second) + p.third) + ((u2.first + u2.second) + u2.third) +
                     ((l.first + l.second) + l.third);
    }
    if (s.open) {
      const Stored before = book ? load_stored(w + 3 * i) : Stored{};
      if (coasting)
        sphere_lanes::coasting_turn(world, s.dt, i);
      else if (!unturned)
        sphere_lanes::buss2_first_half(world, torque, s.dt, i);
      if (book)
        Losses::book(losses.open_spin, half, s.drag_torque + 3 * i, mean_of(before, w + 3 * i));
      const Stored mean = velocity_kick::four(v, s.force, inv_mass, half, i);
      if (book) Losses::book(losses.open_kick, half, s.drag_force + 3 * i, mean);
      store_stored(x + 3 * i, load_stored(x + 3 * i) + splat(s.dt) * load_stored(v + 3 * i));
      const D4 zero = splat(0.0);
      double* f = s.force + 3 * i;
      double* t = s.torque->data() + 3 * i;
      if (!shared.clears()) store(f, zero), store(f + 4, zero), store(f + 8, zero);
      if (!unturned && !coasting) store(t, zero), store(t + 4, zero), store(t + 8, zero);
      if (shared.any()) shared.four(s.force, i);
    }
    // Left alone, they stay still; turned, they are taken to spin from then on (a grain that
    // has touched anything does; one that has not is found still again after any change).
    if (s.still) s.still[i / 4] = unturned;
  }
  for (; i < end; ++i) {
    sweep_one(world, rotation, s, i, check, losses);
    if (shared.any()) shared.one(s.force, i);
  }
  shared.finish(end);
  if (s.counts) {
    s.counts[task].unturned += counts.unturned;
    s.counts[task].coasting += counts.coasting;
    s.counts[task].asked += counts.asked;
  }
  if (s.open && s.tracked) s.tracked->clear_tracked(begin, end);  // after the kicks' booking
  if (s.drag_force) {
    *slot[0] = losses.close_kick, *slot[1] = losses.close_spin;
    *slot[2] = losses.open_spin, *slot[3] = losses.open_kick;
  }
  if (s.close && finite) *finite = *finite && std::isfinite(sum(lanes_check) + check);
}

}  // namespace stepwise
