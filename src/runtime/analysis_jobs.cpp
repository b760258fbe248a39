#include "runtime/analysis_jobs.hpp"

#include <algorithm>
#include <chrono>

#include "core/analysis.hpp"
#include "runtime/memory_check.hpp"

namespace stepwise {
namespace {

template <class T>
bool ready(std::future<T>& f) {
  return f.valid() && f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

}  // namespace

void AnalysisJobs::start_convergence(Simulation& sim, std::vector<std::string> integrators,
                                     double horizon) {
  if (convergence_.valid()) throw InputError("a convergence study is already running");
  check_copy_memory(sim.world(), "a convergence study");
  if (integrators.empty()) integrators = {sim.integrator_name()};
  SweepRequest request;
  request.setup.world = sim.world();  // a copy: the job never touches the running World
  request.setup.integrator = sim.integrator_name();
  request.setup.rotation = sim.rotation_name();
  request.integrators = std::move(integrators);
  const double dt = sim.dt();
  request.dts = {dt, dt / 2, dt / 4, dt / 8};
  request.duration = horizon;
  stop_convergence_ = false;  // (none under way: its future was collected)
  request.cancel = &stop_convergence_;
  check_sweep(request);  // here, not in the job: the window says at once what is wrong
  pending_convergence_ = ConvergenceView{true, "running", horizon, {}};
  convergence_ = std::async(std::launch::async, [request] { return run_sweep(request); });
}

void AnalysisJobs::start_reversibility(Simulation& sim, long steps) {
  if (reversibility_.valid()) throw InputError("a reversibility run is already going");
  check_reversibility(steps);
  check_copy_memory(sim.world(), "a reversibility run");
  stop_reversibility_ = false;
  pending_reversibility_ = ReversibilityView{true, "running", sim.integrator_name(),
                                             sim.rotation_name(), steps, sim.dt()};
  reversibility_ = std::async(std::launch::async,
                              [world = sim.world(), dt = sim.dt(), i = sim.integrator_name(),
                               r = sim.rotation_name(), steps, cancel = &stop_reversibility_] {
                                return reversibility(world, dt, i, r, steps, cancel);
                              });
}

void AnalysisJobs::start_stability(const std::string& integrator, StabilityView& view) {
  if (!IntegratorRegistry::instance().contains(integrator))
    throw InputError(IntegratorRegistry::instance().unknown_message(integrator));
  if (view.omega_dt.empty())
    for (double h = 0.02; h <= 3.5; h += 0.02) view.omega_dt.push_back(h);
  if (view.growth.count(integrator) || stability_.count(integrator)) return;
  view.computing.push_back(integrator);
  stability_[integrator] = std::async(std::launch::async, [integrator, steps = view.omega_dt] {
    std::vector<double> curve;
    for (double h : steps) curve.push_back(std::min(growth_per_step(integrator, h, 64), 1.5));
    return curve;
  });
}

bool AnalysisJobs::collect(ConvergenceView& convergence, ReversibilityView& reversible,
                           StabilityView& stability) {
  bool changed = false;
  for (auto it = stability_.begin(); it != stability_.end();) {
    if (!ready(it->second)) {
      ++it;
      continue;
    }
    try {
      stability.growth[it->first] = it->second.get();
    } catch (const std::exception&) {  // a method that cannot run the oscillator: no curve
      stability.growth[it->first] = {};
    }
    std::erase(stability.computing, it->first);
    it = stability_.erase(it);
    changed = true;
  }
  if (pending_convergence_.running && !convergence.running) convergence = pending_convergence_, changed = true;
  if (pending_reversibility_.running && !reversible.running) reversible = pending_reversibility_, changed = true;
  if (ready(convergence_)) {
    try {
      convergence.result = convergence_.get();
      convergence.status = "done";
    } catch (const Cancelled&) {
      convergence.status = "stopped";
    } catch (const std::exception& e) {
      convergence.status = e.what();
    }
    convergence.running = pending_convergence_.running = false;
    changed = true;
  }
  if (ready(reversibility_)) {
    try {
      const Reversibility r = reversibility_.get();
      reversible.position_error = r.position_error;
      reversible.velocity_error = r.velocity_error;
      reversible.status = r.failed ? "went non-finite" : "done";
    } catch (const Cancelled&) {
      reversible.status = "stopped";
    } catch (const std::exception& e) {
      reversible.status = e.what();
    }
    reversible.running = pending_reversibility_.running = false;
    changed = true;
  }
  return changed;
}

}  // namespace stepwise
