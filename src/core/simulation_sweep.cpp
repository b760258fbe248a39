// Simulation's steps by the free-sphere sweep (sphere_sweep.hpp): what take_step does with
// velocity-verlet's step() and Buss2's halves, the per-body work queued as one pass instead of
// seven (rotation half, kick, drift and clearing; then kick, rotation half and finiteness check).
// A step's closing pass, while it still waits last in the queue, is swapped for one doing it and
// the next step's opening. For speed only: the reference is take_step, and a test holds the two
// to the bit.
#include <algorithm>
#include <cmath>

#include "core/simulation.hpp"
#include "core/sphere_sweep.hpp"
#include "core/sweep_prefetch.hpp"

namespace stepwise {

// Where the sweep does exactly what the passes would: nothing else acts on the bodies between
// the evaluations (no constraint projection, correction, impulses, driven or pivoted bodies,
// local damping), no external work is booked per body (drag work is), and the evaluation clears
// its loads in place.
bool Simulation::sweep_applies() const {
  if (!sweep_enabled_ || !integrator_->plain_kick_drift_kick() || !rotation_->halves_are_buss2() ||
      !in_place_)
    return false;
  if (world_.contact.impulse() || (track_body_work_ & kExternalWork) || special_bodies_ ||
      world_.local_damping > 0)
    return false;
  return std::none_of(world_.forces.begin(), world_.forces.end(),
                      [](const auto& f) { return f->wants_shake() || f->corrects(); });
}

// take_step, for velocity Verlet (kick, drift, evaluate, kick) and Buss2 (first half before the
// kick, closing half after the closing kick): the same work booked in the same order.
std::optional<StepFailure> Simulation::take_swept_step() {
  drift_solved_ = spins_changed_ = false;
  const double half = 0.5 * dt_;
  queue_sweep(true, {cached_.pair_powers.dissipation * half, cached_.pair_powers.external * half});
  end_evaluated_ = false;
  sweep_cleared_ = true;
  evaluate(world_.x, world_.v, time_ + dt_, true, cached_, true);
  cache_valid_ = end_evaluated_ = true;
  time_ += dt_;
  ++step_;
  ++swept_steps_;
  swept_at_ = step_;
  swept_fields_ += sweep_share_.field_taken;
  swept_watches_ += sweep_share_.most2 != nullptr;
  std::fill(finite_, finite_ + kMaxTasks, true);
  queue_sweep(false, {cached_.pair_powers.dissipation * half, cached_.pair_powers.external * half});
  return check_or_carry();
}

// The sweep over the committed evaluation's loads: the storage, not the objects (an evaluation
// in place swaps them, see LoadArrays), and its drag loads and marks as kick_and_book queues
// them. (A free flight sets its sweeps up the same way.)
SphereSweep Simulation::committed_sweep() {
  SphereSweep sweep;
  sweep.dt = dt_;
  sweep.ask_ahead = sweep_prefetch::worth_asking(world_.size());
  sweep.ask_streams = sweep_prefetch::worth_asking_streams(world_.size());
  sweep.force = cached_.force.data();
  if (cached_.drag_force.cols() > 0) {
    sweep.drag_force = cached_.drag_force.data();
    sweep.drag_torque = cached_.drag_torque.data();
    sweep.marks = cached_.drag_marks.known();
    sweep.torque_marked = sweep.marks && torque_marked_;
  }
  return sweep;
}

// Queues the opening (open) or closing sweep, with the work of its kick to book when it runs
// (as kick_and_book's), and the drag loads' work as the passes book it (book_sums). An opening
// finds the last step's closing still waiting last in the queue when advance() carried it: the
// two become one pass, booking in the passes' order (closing kick and spin kick, then the
// opening's spin kick and kick).
void Simulation::queue_sweep(bool open, Powers booked) {
  const bool merge = open && sweep_close_.generation == passes_.generation() &&
                     sweep_close_.size == passes_.size() && passes_.size() > 0;
  SphereSweep sweep = committed_sweep();
  // Per kick, book_sums's two groups of per-range sums: external work (none here), drag work.
  double* sums = merge ? sweep_close_.sums : passes_.slots(8);
  sweep.losses = sums;
  sweep.close = merge || !open;
  sweep.open = open;
  still_.resize(size_t(world_.size()) / 4 + 1);
  sweep.still = still_.data();
  sweep.still_known = merge ? sweep_close_.still_known : only_swept_;
  if (open) opening_only_swept_ = sweep.still_known;
  only_swept_ = true;
  auto pass = [this, sweep](int task, int begin, int end) {
    SphereSweep s = sweep;  // (a copy per call: the threads share the queued pass)
    s.torque = &committed_torque_storage();
    s.counts = sweep_counts_;
    // An opening runs within the evaluation in place, whose loads scratch_ then holds.
    if (s.open) s.tracked = &scratch_;
    // and its models' prepare() has handed it what it takes over (filled before the passes run).
    if (s.open) s.share = &sweep_share_;
    sweep_spheres(world_, *rotation_, s, task, begin, end, s.close ? &finite_[task] : nullptr);
  };
  // Each kick's booking as its pass would finish it (the spin kicks book only tracked drag).
  const bool drag = sweep.drag_force != nullptr;
  auto closing = [this, sums, drag](Powers kick) {
    book_sums(sums, kick)();
    if (drag) book_sums(sums + 2 * kMaxTasks, {})();
  };
  auto opening = [this, sums, drag, booked] {
    if (drag) book_sums(sums + 4 * kMaxTasks, {})();
    book_sums(sums + 6 * kMaxTasks, booked)();
  };
  if (!open) {
    passes_.add(pass, [closing, booked] { closing(booked); });
    sweep_close_ = {passes_.generation(), passes_.size(), booked, sums, sweep.still_known};
  } else if (!merge) {
    passes_.add(pass, opening);
  } else {
    passes_.replace_last(pass, [closing, closed = sweep_close_.booked, opening] {
      closing(closed);
      opening();
    });
    sweep_close_.generation = -1;
  }
}

}  // namespace stepwise
