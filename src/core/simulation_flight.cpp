// Free flight (Simulation::fly): steps at which the force models provably find nothing to do
// but the field the sweep adds (ForceModel::quiet_steps) are taken body by body, a chunk of
// bodies through all of them while it sits in the cache, instead of every body once per step.
// Each body goes through the free-sphere sweep's own arithmetic (sweep_spheres), step after
// step, so the state is bit-identical to stepping; what the skipped evaluations would have
// left (their loads: the field's; no contact, no power, no history) is what the flight leaves.
// For speed only: the reference is stepping, and a test holds the two to the bit.
#include <algorithm>
#include <array>
#include <cmath>

#include "core/simulation.hpp"
#include "core/sphere_sweep.hpp"

namespace stepwise {
namespace {

constexpr long kMostFlown = 256;  // steps per flight (the bounds' slack is sized for this)
constexpr long kFewestFlown = 4;  // fewer are left to the steps
constexpr long kRetryAfter = 16;  // steps before asking again when a flight was too short
constexpr int kChunk = 512;       // bodies taken through a flight at a time (a multiple of 16)

}  // namespace

// Whether the step just taken leaves nothing but free flight to bound: a swept step whose
// evaluation found no contact, no power and no drag load, in a plane only if nothing is cleared.
bool Simulation::may_fly() const {
  if (!flight_enabled_ || !cache_valid_ || swept_at_ != step_ || step_ < flight_retry_at_ ||
      !sweep_applies())
    return false;
  if (cached_.contacts != 0 || cached_.wall_contacts != 0 || cached_.pair_powers.dissipation != 0 ||
      cached_.pair_powers.external != 0)
    return false;
  if (clears_plane()) return false;
  if (cached_.drag_force.cols() == 0) return true;
  const std::uint8_t* marks = cached_.drag_marks.known();
  return marks && std::none_of(marks, marks + world_.size(), [](std::uint8_t m) { return m; });
}

long Simulation::fly(long most) {
  most = std::min(most, kMostFlown);
  if (most < kFewestFlown || !may_fly()) return 0;
  flush();  // the last step's closing passes: the velocities at the step
  const int n = world_.size();
  const Vec3 field = sweep_share_.field_taken ? sweep_share_.field : Vec3::Zero();
  // Far from overflow all the way (then every sum the sweep checks stays finite).
  const double span = double(most) * dt_;
  for (int i = 0; i < n; ++i)
    if (!(world_.x.col(i).lpNorm<Eigen::Infinity>() +
              world_.v.col(i).lpNorm<Eigen::Infinity>() * span +
              field.lpNorm<Eigen::Infinity>() * span * span <
          1e150)) {
      flight_retry_at_ = step_ + kRetryAfter;
      return 0;
    }
  const QuietQuery query{world_, time_, dt_, field, most, parallel_};
  long steps = most;
  for (size_t m = 0; m < world_.forces.size() && steps > 0; ++m)
    if (m != 0 || !sweep_share_.field_taken)  // (the field is the sweep's own)
      steps = std::min(steps, world_.forces[m]->quiet_steps(query));
  if (steps < kFewestFlown) {
    flight_retry_at_ = step_ + kRetryAfter;
    return 0;
  }
  // The sweep as queue_sweep sets it up; no drag load to book, no evaluation in progress.
  SphereSweep base = committed_sweep();
  base.torque = &cached_.torque;
  base.ask_ahead = base.ask_streams = false;   // (a chunk is stepped in the cache)
  std::array<double, 8 * kMaxTasks> losses{};  // (nothing is booked: no body is marked)
  std::array<double, kMaxTasks> potential{};   // (the skipped evaluations' potential: unread)
  base.losses = losses.data();
  base.counts = sweep_counts_;
  SweepShare share;
  share.field_taken = sweep_share_.field_taken;
  share.field = sweep_share_.field;
  share.potential = potential.data();
  bool finite[kMaxTasks];
  std::fill(finite, finite + kMaxTasks, true);
  for_each_range(parallel_, n, [&](int task, int begin, int end) {
    for (int first = begin; first < end; first += kChunk) {
      const int last = std::min(end, first + kChunk);
      SphereSweep s = base;
      s.share = &share;
      s.open = true;  // step 1 opens; each later one closes the one before and opens
      for (long e = 1; e <= steps; ++e) {
        s.close = e > 1;
        sweep_spheres(world_, *rotation_, s, task, first, last, &finite[task]);
      }
      s.open = false, s.close = true, s.share = nullptr;  // the last step closes
      sweep_spheres(world_, *rotation_, s, task, first, last, &finite[task]);
    }
  });
  if (!std::all_of(finite, finite + kMaxTasks, [](bool f) { return f; }))
    throw std::logic_error("free flight: a bounded state went non-finite");
  // What the skipped steps' bookkeeping did: the clock, the counters, the ledger adding +0.
  for (long e = 0; e < steps; ++e) time_ += dt_;
  step_ += steps;
  swept_steps_ += steps;
  if (sweep_share_.field_taken) swept_fields_ += steps;
  if (sweep_share_.most2) swept_watches_ += steps;
  dissipated_ += 0.0, external_work_ += 0.0;
  flown_steps_ += steps;
  ++flights_;
  only_swept_ = false;  // (the flight's sweeps keep no SphereSweep::still)
  return steps;
}

}  // namespace stepwise
