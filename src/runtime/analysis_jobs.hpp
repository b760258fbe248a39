#pragma once
// Analyses that take a while (convergence sweeps, reversibility) run on a copy of the current
// state in a background thread, so the worker keeps stepping; results are collected when ready.
#include <atomic>
#include <future>

#include "core/simulation.hpp"
#include "core/analysis.hpp"
#include "runtime/analysis_results.hpp"

namespace stepwise {

class AnalysisJobs {
 public:
  AnalysisJobs() = default;
  AnalysisJobs(const AnalysisJobs&) = delete;
  AnalysisJobs& operator=(const AnalysisJobs&) = delete;
  // Asks the jobs under way to stop, and waits for them (a chunk of steps, not the whole study:
  // closing the window while a study of 1e9 steps ran waited for it to end).
  ~AnalysisJobs() { stop_convergence_ = stop_reversibility_ = true; }
  void start_convergence(Simulation& sim, std::vector<std::string> integrators, double horizon);
  void start_reversibility(Simulation& sim, long steps);
  // Asks a study under way to stop (collect() then reports it "stopped"); none: nothing.
  void stop(bool convergence) { (convergence ? stop_convergence_ : stop_reversibility_) = true; }
  // One method's stability curve (a method's whole curve can take seconds: adaptive's many
  // sub-steps). Asking again for one done or under way does nothing.
  void start_stability(const std::string& integrator, StabilityView& view);
  // Moves finished results into the views; true if anything changed.
  bool collect(ConvergenceView& convergence, ReversibilityView& reversibility,
               StabilityView& stability);

 private:
  // One flag a study, so stopping one leaves the other (before the jobs: they outlive their
  // waiting).
  std::atomic<bool> stop_convergence_{false}, stop_reversibility_{false};
  std::future<SweepResult> convergence_;
  std::future<Reversibility> reversibility_;
  std::map<std::string, std::future<std::vector<double>>> stability_;
  ConvergenceView pending_convergence_;
  ReversibilityView pending_reversibility_;
};

}  // namespace stepwise
