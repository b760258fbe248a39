#pragma once
// Analyses that take a while (convergence sweeps, reversibility) run on a copy of the current
// state in a background thread, so the worker keeps stepping; results are collected when ready.
#include <future>

#include "core/simulation.hpp"
#include "core/analysis.hpp"
#include "runtime/analysis_results.hpp"

namespace stepwise {

class AnalysisJobs {
 public:
  void start_convergence(Simulation& sim, std::vector<std::string> integrators, double horizon);
  void start_reversibility(Simulation& sim, long steps);
  // One method's stability curve (a method's whole curve can take seconds: adaptive's many
  // sub-steps). Asking again for one done or under way does nothing.
  void start_stability(const std::string& integrator, StabilityView& view);
  // Moves finished results into the views; true if anything changed.
  bool collect(ConvergenceView& convergence, ReversibilityView& reversibility,
               StabilityView& stability);

 private:
  std::future<SweepResult> convergence_;
  std::future<Reversibility> reversibility_;
  std::map<std::string, std::future<std::vector<double>>> stability_;
  ConvergenceView pending_convergence_;
  ReversibilityView pending_reversibility_;
};

}  // namespace stepwise
