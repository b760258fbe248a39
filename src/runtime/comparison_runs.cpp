#include "runtime/comparison_runs.hpp"

#include <algorithm>
#include <cmath>

#include "core/limits.hpp"

namespace stepwise {

std::string run_label(const std::string& integrator, const std::string& rotation, double dt) {
  return integrator + " + " + rotation + ", dt " + format_double(dt);
}

std::optional<double> beyond_catch_up(const Simulation& run, double time) {
  const double steps = std::ceil((time - run.time()) / run.dt());
  if (steps * std::max(run.world().size(), 1) > limits::max_catch_up()) return steps;
  return std::nullopt;
}

void ComparisonRuns::add(const Simulation& main, const std::string& integrator,
                         const std::string& rotation, double dt, const std::string& label) {
  if (int(runs_.size()) >= kMaxRuns)
    throw InputError("at most " + std::to_string(kMaxRuns) + " comparison runs beside the main one");
  if (!IntegratorRegistry::instance().contains(integrator))
    throw InputError(IntegratorRegistry::instance().unknown_message(integrator));
  if (!RotationRegistry::instance().contains(rotation))
    throw InputError(RotationRegistry::instance().unknown_message(rotation));
  const double step = dt > 0 ? limits::dt("comparison dt", dt) : main.dt();
  Simulation::Copy copy = main.copy();
  copy.step = 0;
  // The same methods and step as the main run: all of it is carried, so the run continues
  // exactly as the main one would have. Otherwise the methods start afresh from the current
  // state, keeping the main run's options that the new method also has (BAOAB's temperature).
  if (integrator != main.integrator_name() || rotation != main.rotation_name() ||
      step != main.dt()) {
    ParamTable known;
    IntegratorRegistry::instance().make(integrator)->save_options(known);
    ParamTable kept;
    for (const auto& [name, value] : copy.options.values())
      if (known.has(name)) kept.set(name, value);
    copy.options = kept;
    copy.state = ParamTable();
    copy.integrator = integrator, copy.rotation = rotation, copy.dt = step;
  }
  Run run;
  run.id = next_id_++;
  run.sim = Simulation::make_run(copy);
  run.start_time = main.time();
  run.label = label.empty() ? run_label(integrator, rotation, step) : label;
  runs_.push_back(std::move(run));
}

void ComparisonRuns::add(std::unique_ptr<Simulation> sim, const std::string& label) {
  if (int(runs_.size()) >= kMaxRuns)
    throw InputError("at most " + std::to_string(kMaxRuns) + " comparison runs beside the main one");
  Run run;
  run.id = next_id_++;
  run.start_time = sim->time();
  run.sim = std::move(sim);
  run.label = label;
  runs_.push_back(std::move(run));
}

void ComparisonRuns::remove(int index) {
  if (index < 0) runs_.clear();
  else if (index < int(runs_.size())) runs_.erase(runs_.begin() + index);
}

void ComparisonRuns::advance_to(double time, Clock::time_point deadline) {
  time_ = time;
  for (size_t k = 0; k < runs_.size(); ++k) {
    Run& run = runs_[k];
    if (!run.error.empty()) continue;
    if (const auto steps = beyond_catch_up(*run.sim, time)) {
      run.error = "keeping up with the main run would take this run " + format_double(*steps) +
                  " steps at once (at most " + format_double(limits::max_catch_up()) +
                  " body-steps): stopped; give it a larger dt, or the main run a smaller one";
      continue;
    }
    const auto started = Clock::now();
    // This run's share of the time left: the runs after it get theirs even if it is far behind.
    const auto until = deadline == Clock::time_point::max() || started >= deadline
                           ? deadline
                           : started + (deadline - started) / long(runs_.size() - k);
    try {
      while (short_of(*run.sim, time)) {
        if (const auto failure = run.sim->step()) {
          run.error = failure->message();
          break;
        }
        if (Clock::now() >= until) break;  // (the clock costs ~20 ns, a step far more)
      }
    } catch (const std::exception& e) {  // a step it cannot take (adaptive's sub-step limit)
      run.error = e.what();
    }
    run.wall_seconds += std::chrono::duration<double>(Clock::now() - started).count();
  }
}

void ComparisonRuns::publish(std::vector<Snapshot>& out, std::uint64_t generation,
                             BodyFigure figure) {
  out.resize(runs_.size());
  for (size_t k = 0; k < runs_.size(); ++k) {
    Run& run = runs_[k];
    Snapshot& s = out[k];
    SnapshotDetail detail;
    detail.figure = figure;
    fill_snapshot(*run.sim, s, detail);
    s.scene_generation = generation;
    s.run_label = run.label;
    if (run.error.empty() && short_of(*run.sim, time_))  // (advance_to left it behind)
      s.run_label += ", catching up (t = " + format_double(run.sim->time()) + " of " +
                     format_double(time_) + ")";
    s.error = run.error;
    const double simulated = run.sim->time() - run.start_time;
    s.cost_per_sim_second = simulated > 0 ? run.wall_seconds / simulated : 0;
    s.comparisons.clear();
  }
}

void ComparisonRuns::push_samples(MessageQueue<EnergySample>& queue, std::uint64_t generation) {
  for (size_t k = 0; k < runs_.size(); ++k) {
    EnergySample s = sample_of(runs_[k].sim->energy());
    s.scene_generation = generation;
    s.run = int(k) + 1;
    s.run_id = runs_[k].id;
    queue.push(std::move(s));
  }
}

}  // namespace stepwise
