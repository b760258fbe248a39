#pragma once
// The lockstep comparison: extra runs of the scene from a common state, each with its own
// integrator, rotation scheme or dt, kept at the main run's simulated time by the same worker.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/simulation.hpp"
#include "runtime/energy_sample.hpp"
#include "runtime/message_queue.hpp"
#include "runtime/snapshot.hpp"

namespace stepwise {

class ComparisonRuns {
 public:
  static constexpr int kMaxRuns = 3;  // plus the main run: four at once

  // A new run forked from `main`'s current state (dt 0: main's dt).
  void add(const Simulation& main, const std::string& integrator, const std::string& rotation,
           double dt, const std::string& label = {});
  // A run built elsewhere (a variant of the scene), labelled, started at its own clock.
  void add(std::unique_ptr<Simulation> sim, const std::string& label);
  void remove(int index);  // -1: all
  size_t size() const { return runs_.size(); }
  const Simulation& run(size_t k) const { return *runs_.at(k).sim; }
  using Clock = std::chrono::steady_clock;
  // Steps every run up to `time` (a run that goes non-finite, cannot take a step, or would take
  // more than limits::max_catch_up() body-steps to get there stops and says so). By `deadline`
  // at the latest (each run a share of what is left, a step's time past it at most): a run far
  // behind, whose steps are dear (impulses, a large scene), catches up over the next calls
  // instead of holding the physics thread, and shows where it is meanwhile (publish).
  void advance_to(double time, Clock::time_point deadline = Clock::time_point::max());
  // figure: every body's, as the main run's (ghosts are coloured as it is).
  void publish(std::vector<Snapshot>& out, std::uint64_t generation, BodyFigure figure);
  void push_samples(MessageQueue<EnergySample>& queue, std::uint64_t generation);

 private:
  struct Run {
    std::unique_ptr<Simulation> sim;
    std::uint64_t id = 0;  // never reused: the plot starts a new curve for a new run
    std::string label, error;
    double wall_seconds = 0, start_time = 0;
  };
  std::vector<Run> runs_;
  std::uint64_t next_id_ = 1;
  double time_ = 0;  // the time the last advance_to was asked to reach
};

std::string run_label(const std::string& integrator, const std::string& rotation, double dt);
// Whether `run` has yet to reach `time` (within 1e-9 of its step: a run that stepped there is
// there), as every catching-up loop reads it.
inline bool short_of(const Simulation& run, double time) {
  return run.time() + 1e-9 * run.dt() < time;
}
// The steps `run` would take to reach `time` when they pass limits::max_catch_up() body-steps (a
// comparison or the reference run far finer than the main run: stepping them would hold the
// physics thread for hours); nullopt within it.
std::optional<double> beyond_catch_up(const Simulation& run, double time);

}  // namespace stepwise
