#include "runtime/physics_worker.hpp"

#include "runtime/memory_check.hpp"

#include "core/limits.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace stepwise {
namespace {

constexpr double kMaxLag = 0.25;            // wall seconds before pacing gives up

}  // namespace

PhysicsWorker::PhysicsWorker() {
  last_publish_ = rate_window_start_ = anchor_wall_ = Clock::now();
}

PhysicsWorker::~PhysicsWorker() {
  stop();
}

void PhysicsWorker::start() {
  if (thread_.joinable()) return;
  stop_ = false;
  thread_ = std::thread([this] { run(); });
}

void PhysicsWorker::set_threads(int threads) {
  if (threads < 1 || threads > 64) throw InputError("--threads: expected 1 to 64");
  if (thread_.joinable()) throw std::logic_error("PhysicsWorker::set_threads after start()");
  pool_ = threads > 1 ? std::make_unique<ThreadPool>(threads) : nullptr;
}

void PhysicsWorker::stop() {
  {
    std::lock_guard lock(wake_mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PhysicsWorker::send(Command command) {
  commands_.push(std::move(command));
  wake_.notify_all();
}

void PhysicsWorker::run() {
  while (!stop_) {
    iterate();
    if ((!running_ && steps_owed_ == 0) || !sim_) {
      std::unique_lock lock(wake_mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(20),
                     [this] { return stop_.load() || !commands_.empty(); });
    }
  }
  flush_sample();
}

void PhysicsWorker::iterate() {
  commands_.take_all(pending_);
  for (const Command& command : pending_) {
    try {
      apply(command);
    } catch (const std::exception& e) {  // bad input from a panel: report it, keep running
      error_ = e.what();
      error_step_ = -1;
      error_body_ = -1;
    }
    dirty_ = true;
  }
  if (sim_ && (running_ || steps_owed_ > 0)) {
    try {
      if (running_)
        advance_for(kSlice);
      else
        take_owed_steps(Clock::now() + kSlice);
    } catch (const std::exception& e) {
      steps_owed_ = 0;
      // A step that cannot be taken (adaptive's sub-step limit, a solver giving up): the run
      // pauses on the step it reached and says why, as on a non-finite state. Uncaught here it
      // ended the physics thread, and the window with it.
      running_ = false;
      error_ = e.what();
      error_step_ = sim_->step_count();
      error_body_ = -1;
      flush_sample();
      dirty_ = true;
    }
  }
  if (jobs_.collect(convergence_, reversibility_, stability_)) dirty_ = true;
  const auto now = Clock::now();
  if (dirty_ || (running_ && now - last_publish_ >= publish_every_)) publish();
}

PhysicsWorker::Choices PhysicsWorker::choices() const {
  Choices c;
  c.integrator = sim_->integrator_name();
  c.rotation = sim_->rotation_name();
  c.dt = sim_->dt();
  sim_->integrator().save_options(c.options);
  for (const auto& model : sim_->world().forces) c.tunables.push_back(model->tunables());
  const Materials& materials = sim_->world().materials;
  for (int m = 1; m <= materials.size(); ++m) c.materials.push_back(materials.tunables(m));
  return c;
}

void PhysicsWorker::load(const std::string& source,
                         const std::map<std::string, ParamValue>& overrides, const Choices* keep,
                         RunSpec* read) {
  steps_owed_ = 0;  // (a lesson's own load within a step goes on with the steps asked for)
  RunSpec spec = read ? std::move(*read) : load_scene(source, overrides);
  check_memory(spec.setup.world, false);  // the window has no --force: a notice, not a crash
  // spec_ keeps only the label, the scene's name and parameters and the duration (1,000,000
  // spheres' World and state are some 370 MB).
  auto sim = std::make_unique<Simulation>(take_simulation(spec));
  if (keep) {  // before the first evaluation, so the energy ledger starts from these settings
    sim->set_integrator(keep->integrator);
    sim->set_rotation(keep->rotation);
    sim->set_dt(keep->dt);
    sim->integrator().set_options(keep->options);
    auto& forces = sim->world().forces;
    for (size_t m = 0; m < forces.size() && m < keep->tunables.size(); ++m)
      for (const Tunable& t : keep->tunables[m])
        if (forces[m]->kind() != "mouse-spring") forces[m]->tune(t.name, t.value);
    Materials& materials = sim->world().materials;
    for (int m = 1; m <= materials.size() && m <= int(keep->materials.size()); ++m)
      for (const Tunable& t : keep->materials[m - 1]) materials.set(m, t.name, t.value);
  }
  sim->set_parallel(pool_.get());  // from the first evaluation, as `run --threads` does
  sim->energy();                   // evaluates once so a broken scene fails here, not mid-run
  flush_sample();
  spec_ = std::move(spec);
  scene_parameters_ =
      spec_->builtin ? scene_parameters(*spec_->builtin, spec_->parameters) : ParamTable();
  source_ = source;
  overrides_ = overrides;
  sim_ = std::move(sim);
  ++plot_generation_;  // a new energy plot (a lesson's own loads share one: see apply_lesson)
  new_run_started();
}

void PhysicsWorker::new_run_started() {
  // Everything that belonged to the previous run goes: pulls, comparisons, the shadow run,
  // history (a checkpoint of another scene must not be offered), errors and the clock anchor.
  sim_->set_parallel(pool_.get());
  energy_every_ = 1, steps_since_energy_ = samples_untimed_ = 0;
  steps_since_timed_ = 0, timed_at_ = {};  // (the first reading: every step)
  drag_model_ = -1;
  comparisons_.remove(-1);
  reference_.reset();
  history_.reset(sim_->world().size(), HistoryRing::default_budget());
  history_.record_if_due(*sim_);
  restored_at_.reset();
  next_capture_ = sim_->time();
  error_.clear();
  error_step_ = -1;
  error_body_ = -1;
  blown_up_ = false;
  ++generation_;
  reanchor();
  record_sample(sim_->energy());
  flush_sample();
  note_omega(sim_->step_count(), sim_->max_frequency());  // the start counts (Kepler's pericentre)
}

void PhysicsWorker::apply_lesson() {
  const Simulation* before = sim_.get();
  const double hold = lesson_->apply_due(sim_);
  if (sim_.get() != before) new_run_started();  // the lesson loaded a scene: as any load does
  if (!lesson_->last_change().empty()) mark(lesson_->last_change());
  if (hold > 0) {
    hold_until_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(hold / slow_motion_));
    dirty_ = true;
  }
}

void PhysicsWorker::restore(std::size_t k) {
  flush_sample();
  sim_ = history_.restore(k);
  steps_owed_ = 0;
  sim_->set_parallel(pool_.get());
  // A pull in progress when the checkpoint was taken is not part of the past.
  sim_->edit([](World& w) {
    std::erase_if(w.forces, [](const auto& f) { return f->kind() == "mouse-spring"; });
  });
  drag_model_ = -1;
  if (comparisons_.size()) notice_ = "the comparison runs ended at the step back (add them again)";
  comparisons_.remove(-1);
  reference_.reset();
  running_ = false;
  restored_at_ = k;
  cut_pending_ = true;
  mark("back to t = " + format_double(sim_->time()));
  reanchor();
}

void PhysicsWorker::fork_old_future() {
  if (!restored_at_ || !sim_) return;
  // What would have happened without the change: the same state, the same settings.
  history_.truncate_after(*restored_at_);
  cut_pending_ = false;
  comparisons_.remove(-1);
  restored_at_.reset();
  // (the ghost is a copy: without room for it the change is still made)
  if (auto refusal = copy_refusal(sim_->world(), "the old future's ghost")) {
    notice_ = *refusal + ": the change is made without it";
    return;
  }
  comparisons_.add(
      *sim_, sim_->integrator_name(), sim_->rotation_name(), sim_->dt(),
      "old future (" + run_label(sim_->integrator_name(), sim_->rotation_name(), sim_->dt()) + ")");
}

void PhysicsWorker::reanchor() {
  anchor_wall_ = Clock::now();
  anchor_sim_ = sim_ ? sim_->time() : 0.0;
}

void PhysicsWorker::capture_if_due() {
  if (capture_interval_ <= 0 || sim_->time() + 1e-9 * sim_->dt() < next_capture_) return;
  Snapshot s;
  s.scene_generation = generation_;
  s.label = spec_->label;
  fill_snapshot(*sim_, s, snapshot_detail_);
  captures_.push(std::move(s));
  ++captures_pending_;
  next_capture_ += capture_interval_;
}

// The shadow run steps to where the main run's next step will end, until `deadline`; false while
// it is still on its way. The main run waits for it, so its samples compare the two at one time,
// and the physics thread answers commands meanwhile: after a large raise of dt on a large scene
// its catching up took seconds a step, in one call.
bool PhysicsWorker::reference_ready(Clock::time_point deadline) {
  if (!reference_) return true;
  const double target = sim_->time() + sim_->dt();
  if (beyond_catch_up(*reference_, target)) {  // (the main dt raised past it)
    reference_.reset();
    error_ =
        "the reference run could not keep up with this dt (rk4 at its own dt / 8); it was "
        "switched off: switch it on again for the new dt";
    return true;
  }
  while (short_of(*reference_, target)) {
    if (reference_->step()) {
      reference_.reset();
      error_ = "the reference run went non-finite; it was switched off";
      return true;
    }
    if (Clock::now() >= deadline) return !short_of(*reference_, target);
  }
  return true;
}

// The steps a step command asked for, each whole, as far as the shadow run lets them by
// `deadline`: waiting for it, the rest are taken at the next iterations (a Step press after a
// raise of dt held the physics thread while the shadow caught up).
void PhysicsWorker::take_owed_steps(Clock::time_point deadline) {
  while (steps_owed_ > 0) {
    if (!step_once(deadline)) {
      steps_owed_ = 0;
      break;
    }
    if (reference_waiting_) break;  // (no step taken: on at the next iteration)
    steps_owed_ = std::max(0L, steps_owed_ - 1);
    dirty_ = true;  // (paused: the window hears of each step taken)
  }
  flush_sample();
}

bool PhysicsWorker::step_once(Clock::time_point deadline) {
  if (!reference_ready(deadline)) {
    dirty_ = dirty_ || !reference_waiting_;  // (the window hears that the live run waits)
    reference_waiting_ = true;
    return true;
  }
  reference_waiting_ = false;
  capture_if_due();
  if (cut_pending_ && restored_at_) {  // leaving the restored point: a new timeline from here
    history_.truncate_after(*restored_at_);
    cut_pending_ = false;
  }
  if (const auto failure = sim_->step()) {
    running_ = false;
    dirty_ = true;  // the window must hear of it even though nothing is running now
    error_ = failure->message();
    error_step_ = failure->step;
    error_body_ = failure->body;
    flush_sample();
    return false;
  }
  ++rate_window_steps_;
  history_.record_if_due(*sim_);
  if (lesson_) apply_lesson();
  // (At most a slice of stepping for them a step: one far behind catches up over the next ones.)
  if (comparisons_.size()) comparisons_.advance_to(sim_->time(), Clock::now() + kSlice);
  if (vtk_ && sim_->step_count() % vtk_every_ == 0) vtk_->write_frame(*sim_);
  note_omega(sim_->step_count(), sim_->max_frequency());  // every step: peaks fall between frames
  ++steps_since_timed_;
  // (Stepping by request, paused, every step is sampled.)
  if (++steps_since_energy_ < energy_every_ && running_) return true;
  const int steps = steps_since_energy_;
  steps_since_energy_ = 0;
  // The energy's cost and the worker's per step, read on one sample in 16 while every step is
  // sampled (the clock costs some 20 ns, a small scene's step a few hundred), else on each.
  const bool timed = energy_every_ > 1 || ++samples_untimed_ >= 16;
  const auto before = timed ? Clock::now() : Clock::time_point{};
  const EnergyReport energy = sim_->energy();
  if (timed) {
    const auto after = Clock::now();
    energy_every_ = energy_stride(after - before, (before - timed_at_) / steps_since_timed_);
    timed_at_ = after;
    steps_since_timed_ = samples_untimed_ = 0;
  }
  record_sample(energy, steps);
  return !blew_up(energy.energy_error);
}

void PhysicsWorker::note_omega(long step, double omega) {
  // A new scene, or a step back in time (history): the old frequencies are not this run's.
  if (omega_generation_ != generation_ ||
      (!recent_omega_.empty() && recent_omega_.back().first > step))
    recent_omega_.clear();
  omega_generation_ = generation_;
  recent_omega_.emplace_back(step, omega);
  while (recent_omega_.front().first < step - kRecentSteps) recent_omega_.pop_front();
}

void PhysicsWorker::widen_to_recent_worst(Snapshot& s) {
  note_omega(s.step, s.omega_now);
  for (const auto& [step, omega] : recent_omega_) s.omega_worst = std::max(s.omega_worst, omega);
}

bool PhysicsWorker::blew_up(double energy_error) {
  // Once per crossing: Run goes on from here if the user wants to watch it diverge.
  const bool over = blowup_limit_ > 0 && !(std::abs(energy_error) <= blowup_limit_);
  if (!over || blown_up_) {
    blown_up_ = over;
    return false;
  }
  blown_up_ = true;
  int fastest = 0;
  const World& w = sim_->world();
  for (int i = 1; i < w.size(); ++i)
    if (w.v.col(i).squaredNorm() > w.v.col(fastest).squaredNorm()) fastest = i;
  running_ = false;
  dirty_ = true;
  error_ = "energy blow-up at step " + std::to_string(sim_->step_count()) +
           ": relative energy error " + format_double(energy_error) + " passed " +
           format_double(blowup_limit_) + " (fastest body: " + std::to_string(fastest) +
           "). Is dt above the method's stability limit? Run continues";
  error_step_ = sim_->step_count();
  error_body_ = w.size() ? fastest : -1;
  flush_sample();
  return true;
}

void PhysicsWorker::advance_for(Clock::duration budget) {
  const auto start = Clock::now();
  const double sim_start = sim_->time();
  auto deadline = start + budget;
  if (lesson_ && Clock::now() < hold_until_) {  // holding a lesson's frame
    reanchor();
    return;
  }
  while (Clock::now() < deadline && !capture_backlog() &&
         !(lesson_ && Clock::now() < hold_until_)) {
    if (pacing_ == Pacing::RealTime) {
      const double wall = std::chrono::duration<double>(Clock::now() - anchor_wall_).count();
      const double target = anchor_sim_ + slow_motion_ * wall;
      if (sim_->time() >= target) break;
      // Far behind (a slow machine or a huge scene): drop the debt rather than never catching up.
      if ((target - sim_->time()) / slow_motion_ > kMaxLag) reanchor();
    }
    // Up to 16 steps between the checks above, each step ending the batch at the slice's end:
    // slow steps (a large scene, an implicit method's Jacobian by differences) overran the slice
    // by up to 15 steps, and the window's commands waited that long (the clock costs ~20 ns, a
    // worker's step microseconds at least).
    for (int k = 0; k < 16 && !capture_backlog(); ++k) {
      if (!step_once(deadline)) return;
      const auto now = Clock::now();
      if (now >= deadline) break;
      if (pacing_ == Pacing::RealTime &&
          sim_->time() >=
              anchor_sim_ + slow_motion_ * std::chrono::duration<double>(now - anchor_wall_).count())
        break;
    }
  }
  rate_window_sim_ += sim_->time() - sim_start;
  const double window = std::chrono::duration<double>(Clock::now() - rate_window_start_).count();
  if (window >= 0.5) {
    steps_per_second_ = rate_window_steps_ / window;
    realtime_factor_ = rate_window_sim_ / window;
    rate_window_steps_ = 0;
    rate_window_sim_ = 0;
    rate_window_start_ = Clock::now();
  }
}

}  // namespace stepwise
