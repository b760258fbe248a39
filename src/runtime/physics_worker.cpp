#include "runtime/physics_worker.hpp"

#include "runtime/memory_check.hpp"

#include "core/limits.hpp"

#include <algorithm>
#include <cmath>

#include "core/bonds/bond_common.hpp"

namespace stepwise {
namespace {

constexpr auto kSlice = std::chrono::milliseconds(8);  // longest stretch of stepping
constexpr auto kPublishEvery = std::chrono::milliseconds(8);
constexpr double kMaxLag = 0.25;            // wall seconds before pacing gives up
constexpr double kSamplesPerSecond = 4000;  // plot resolution when running fast

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

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
    if (!running_ || !sim_) {
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
  if (running_ && sim_) advance_for(kSlice);
  if (jobs_.collect(convergence_, reversibility_, stability_)) dirty_ = true;
  const auto now = Clock::now();
  if (dirty_ || (running_ && now - last_publish_ >= kPublishEvery)) publish();
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
                         const std::map<std::string, ParamValue>& overrides, const Choices* keep) {
  RunSpec spec = load_scene(source, overrides);
  check_memory(spec.setup.world, false);  // the window has no --force: a notice, not a crash
  auto sim = std::make_unique<Simulation>(make_simulation(spec));
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
  drag_model_ = -1;
  comparisons_.remove(-1);
  reference_.reset();
  history_.reset(sim_->world().size());
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

void PhysicsWorker::apply(const Command& command) {
  if (const auto* c = std::get_if<cmd::LoadScene>(&command)) {
    lesson_.reset();
    return load(c->source, c->overrides);
  }
  if (const auto* c = std::get_if<cmd::PlayLesson>(&command)) {
    LessonPlayer player(load_lesson(c->path));
    const Lesson& l = player.lesson();
    lesson_.reset();  // the first samples are on the new lesson's clock, not the old one's
    load(l.scene, l.parameters);
    lesson_.emplace(std::move(player));
    source_ = c->path;
    apply_lesson();
    return;
  }
  if (const auto* c = std::get_if<cmd::Reset>(&command)) {
    if (lesson_) return apply(cmd::PlayLesson{source_});
    if (source_.empty()) return;
    if (c->scene_defaults || !sim_) return load(source_, overrides_);
    const Choices kept = choices();
    return load(source_, overrides_, &kept);
  }
  if (const auto* c = std::get_if<cmd::SetRunning>(&command)) {
    if (c->running && error_.rfind("energy blow-up", 0) == 0) error_.clear(), error_body_ = -1;
    running_ = c->running;
    reanchor();
    return;
  }
  if (const auto* c = std::get_if<cmd::SetBlowupLimit>(&command)) {
    if (!(c->limit >= 0) || !std::isfinite(c->limit))
      throw InputError("the energy blow-up limit must be a number >= 0 (0: never pause)");
    blowup_limit_ = c->limit;
    blown_up_ = false;
    return;
  }
  if (const auto* c = std::get_if<cmd::SetPacing>(&command)) {
    if (!(c->slow_motion > 0) || !std::isfinite(c->slow_motion))
      throw InputError("slow motion factor must be positive");
    pacing_ = c->pacing;
    slow_motion_ = c->slow_motion;
    reanchor();
    return;
  }
  if (!sim_) throw InputError("no scene loaded");
  Simulation& sim = *sim_;
  std::visit(
      Overloaded{
          [&](const cmd::SetIntegrator& c) {
            if (!IntegratorRegistry::instance().contains(c.name))
              throw InputError(IntegratorRegistry::instance().unknown_message(c.name));
            fork_old_future();
            sim.set_integrator(c.name);
            sim.invalidate();
            mark("integrator " + c.name);
          },
          [&](const cmd::SetRotation& c) {
            if (!RotationRegistry::instance().contains(c.name))
              throw InputError(RotationRegistry::instance().unknown_message(c.name));
            fork_old_future();
            sim.set_rotation(c.name);
            sim.invalidate();
            mark("rotation " + c.name);
          },
          [&](const cmd::SetDt& c) {
            limits::dt("dt", c.dt);
            fork_old_future();
            sim.set_dt(c.dt);
            sim.invalidate();
            mark("dt " + format_double(c.dt));
            reanchor();
          },
          [&](const cmd::SetTunable& c) {
            if (c.model < 0 || c.model >= int(sim.world().forces.size()))
              throw InputError("no force model #" + std::to_string(c.model));
            fork_old_future();
            sim.edit([&](World& w) { w.forces[c.model]->tune(c.name, c.value); });
            mark(sim.world().forces[c.model]->kind() + "." + c.name + " " + format_double(c.value));
          },
          [&](const cmd::SetMaterial& c) {
            const Materials& materials = sim.world().materials;
            if (c.material < 1 || c.material > materials.size())
              throw InputError("no material #" + std::to_string(c.material));
            Materials check = materials;  // refused (range, key) before anything changes
            check.set(c.material, c.key, c.value);
            fork_old_future();
            sim.edit([&](World& w) { w.materials.set(c.material, c.key, c.value); });
            mark(materials.at(c.material).name + "." + c.key + " " + format_double(c.value));
          },
          [&](const cmd::SetIntegratorOption& c) {
            sim.integrator().set_option(c.name, c.value);
            mark(c.name + " " + format_double(c.value));
          },
          [&](const cmd::StepOnce& c) {
            running_ = false;
            for (long s = 0; s < c.steps; ++s)
              if (!step_once()) break;
            flush_sample();
          },
          [&](const cmd::DragStart& c) {
            if (c.body < 0 || c.body >= sim.world().size())
              throw InputError("no body " + std::to_string(c.body) + " to drag");
            if (drag_model_ >= 0) return;
            std::vector<ForceModel::Shown> shown;
            for (const auto& m : sim.world().forces)
              if (m->shown_bodies(sim.world(), shown))
                throw InputError("the bodies of generalised coordinates cannot be pulled (their "
                                 "bodies are angles); try the multipliers' formulation");
            ParamTable p("drag");
            p.set("body", double(c.body));
            p.set("target", std::vector<double>{c.target.x(), c.target.y(), c.target.z()});
            p.set("k", c.stiffness);
            p.set("zeta", c.zeta);
            auto spring = ForceRegistry::instance().make("mouse-spring", p);
            const ForceModel* added = nullptr;
            sim.edit([&](World& w) { added = &w.add_force(std::move(spring)); });
            // Not always the last: models that read the others' forces stay after it.
            const auto& models = sim.world().forces;
            drag_model_ = int(std::find_if(models.begin(), models.end(),
                                           [&](const auto& m) { return m.get() == added; }) -
                              models.begin());
          },
          [&](const cmd::DragMove& c) {
            if (drag_model_ < 0) return;
            ForceModel& spring = *sim.world().forces[drag_model_];
            spring.set_tunable("target_x", c.target.x());
            spring.set_tunable("target_y", c.target.y());
            spring.set_tunable("target_z", c.target.z());
          },
          [&](const cmd::Rewind&) {
            const std::vector<double> times = history_.times();
            std::size_t k = times.size();
            while (k > 0 && times[k - 1] >= sim.time() - 1e-9 * sim.dt()) --k;
            if (k == 0) throw InputError("no earlier checkpoint to go back to");
            restore(k - 1);
          },
          [&](const cmd::RestoreCheckpoint& c) {
            if (c.index < 0 || c.index >= int(history_.size()))
              throw InputError("no checkpoint #" + std::to_string(c.index));
            restore(std::size_t(c.index));
          },
          [&](const cmd::SetSnapshotDetail& c) {
            snapshot_contacts_ = c.contacts;
            snapshot_inspected_ = c.inspected;
          },
          [&](const cmd::SetReference& c) {
            reference_.reset();
            if (!c.on) return;
            reference_ = std::make_unique<Simulation>(sim.world(), sim.dt() / 8, "rk4", "rk4");
            reference_->set_clock(sim.time(), 0);
            reference_->set_seed(sim.seed());
            reference_e0_ = std::max(std::abs(sim.energy().total), 1e-30);
          },
          [&](const cmd::AddComparison& c) {
            comparisons_.add(sim, c.integrator, c.rotation, c.dt);
            comparisons_.push_samples(samples_, plot_generation_);
          },
          [&](const cmd::AddVariant& c) {
            if (!spec_->builtin)
              throw InputError("this scene lists its bodies: it has no parameters to vary");
            auto overrides = spec_->parameters;
            overrides[c.key] = c.value;
            RunSpec variant = load_scene(*spec_->builtin, overrides);
            variant.time = 0, variant.step = 0;
            auto run = std::make_unique<Simulation>(make_simulation(variant));
            run->set_integrator(sim.integrator_name());
            run->set_rotation(sim.rotation_name());
            comparisons_.add(std::move(run), c.key + " = " + format_param_value(c.value) + ": " +
                                                 run_label(sim.integrator_name(),
                                                           sim.rotation_name(), variant.setup.dt));
            comparisons_.advance_to(sim.time());
            comparisons_.push_samples(samples_, plot_generation_);
          },
          [&](const cmd::RemoveComparison& c) { comparisons_.remove(c.index); },
          [&](const cmd::RunConvergence& c) {
            jobs_.start_convergence(sim, c.integrators, c.horizon);
          },
          [&](const cmd::RunReversibility& c) { jobs_.start_reversibility(sim, c.steps); },
          [&](const cmd::RunStability& c) { jobs_.start_stability(c.integrator, stability_); },
          [&](const cmd::SetCapture& c) {
            if (!(c.interval >= 0) || !std::isfinite(c.interval))
              throw InputError("capture interval must be >= 0");
            capture_interval_ = c.interval;
            next_capture_ = sim.time();
            if (c.interval > 0) capture_if_due();
          },
          [&](const cmd::SetVtk& c) {
            if (c.folder.empty()) {
              if (vtk_) notice_ = "VTK series: " + std::to_string(vtk_->frames()) + " frames";
              vtk_.reset();
              return;
            }
            vtk_ = std::make_unique<VtkSeries>(c.folder);
            vtk_every_ = std::max(1L, c.every);
            vtk_->write_frame(sim);
            notice_ = "writing a VTK series to " + c.folder;
          },
          [&](const cmd::SaveState& c) {
            save_scene_file(c.path, sim, spec_->label, spec_->setup.duration);
            notice_ = "saved " + c.path;
          },
          [&](const cmd::DragEnd&) {
            if (drag_model_ < 0) return;
            const int index = drag_model_;
            sim.edit([&](World& w) { w.forces.erase(w.forces.begin() + index); });
            drag_model_ = -1;
          },
          // Handled above, before a scene is needed. No catch-all: a command without a handler
          // does not compile.
          [](const cmd::LoadScene&) {}, [](const cmd::PlayLesson&) {}, [](const cmd::Reset&) {},
          [](const cmd::SetRunning&) {}, [](const cmd::SetPacing&) {},
          [](const cmd::SetBlowupLimit&) {},
      },
      command);
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
  comparisons_.add(
      *sim_, sim_->integrator_name(), sim_->rotation_name(), sim_->dt(),
      "old future (" + run_label(sim_->integrator_name(), sim_->rotation_name(), sim_->dt()) + ")");
  restored_at_.reset();
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
  fill_snapshot(*sim_, s, snapshot_contacts_, snapshot_inspected_);
  captures_.push(std::move(s));
  ++captures_pending_;
  next_capture_ += capture_interval_;
}

bool PhysicsWorker::step_once() {
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
  if (reference_) {
    while (reference_->time() + 1e-9 * reference_->dt() < sim_->time())
      if (reference_->step()) {
        reference_.reset();
        error_ = "the reference run went non-finite; it was switched off";
        break;
      }
  }
  history_.record_if_due(*sim_);
  if (lesson_) apply_lesson();
  if (comparisons_.size()) comparisons_.advance_to(sim_->time());
  if (vtk_ && sim_->step_count() % vtk_every_ == 0) vtk_->write_frame(*sim_);
  const EnergyReport energy = sim_->energy();
  record_sample(energy);
  note_omega(sim_->step_count(), sim_->max_frequency());  // every step: peaks fall between frames
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
    // Steps in small batches so the clock is read rarely for fast scenes.
    for (int k = 0; k < 16 && !capture_backlog(); ++k) {
      if (!step_once()) return;
      if (pacing_ == Pacing::RealTime &&
          sim_->time() >=
              anchor_sim_ +
                  slow_motion_ * std::chrono::duration<double>(Clock::now() - anchor_wall_).count())
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

void PhysicsWorker::mark(std::string marker) {
  flush_sample();
  next_marker_ = std::move(marker);
  record_sample(sim_->energy());
  flush_sample();
}

void PhysicsWorker::record_sample(const EnergyReport& r) {
  EnergySample& s = pending_sample_;
  if (!has_pending_sample_) {
    s = EnergySample{};
    s.scene_generation = plot_generation_;
    s.steps_covered = 0;
    s.error_min = s.error_max = r.energy_error;
    s.marker = std::move(next_marker_);
    next_marker_.clear();
    has_pending_sample_ = true;
  }
  copy_report(r, s);
  // A lesson's plot runs on its own clock across its loads, so Euler, RK4 and Verlet share it.
  if (lesson_) s.time = lesson_->clock(*sim_);
  if (reference_) {
    s.reference_position_error = largest_norm(sim_->world().x - reference_->world().x);
    s.reference_energy_error = (r.total - reference_->energy().total) / reference_e0_;
  }
  s.error_min = std::min(s.error_min, r.energy_error);
  s.error_max = std::max(s.error_max, r.energy_error);
  ++s.steps_covered;
  const long stride = running_ && pacing_ == Pacing::Fastest
                          ? std::max(1L, long(steps_per_second_ / kSamplesPerSecond))
                          : std::max(1L, long(steps_per_second_ / (kSamplesPerSecond * 4)));
  if (s.steps_covered >= stride) flush_sample();
}

void PhysicsWorker::flush_sample() {
  if (!has_pending_sample_) return;
  for (const auto& model : sim_->world().forces) {
    std::vector<ForceModel::Figure> figures;
    model->figures(sim_->world(), figures);
    for (const auto& f : figures) {
      if (f.name == ForceModel::kMaxConstraintError) pending_sample_.constraint_error = f.value;
      if (f.name == ForceModel::kMaxConstraintRate) pending_sample_.constraint_rate = f.value;
    }
  }
  samples_.push(std::move(pending_sample_));
  has_pending_sample_ = false;
  if (comparisons_.size()) comparisons_.push_samples(samples_, plot_generation_);
}

void PhysicsWorker::publish() {
  Snapshot& s = snapshots_.write_slot();
  s.revision = ++revision_;
  s.scene_generation = generation_;
  s.running = running_;
  s.pacing = pacing_;
  s.slow_motion = slow_motion_;
  s.steps_per_second = running_ ? steps_per_second_ : 0;
  s.threads = sim_ ? sim_->threads() : 1;
  s.realtime_factor = running_ ? realtime_factor_ : 0;
  s.error = error_;
  s.notice = notice_;
  s.capturing = capture_interval_ > 0;
  s.writing_vtk = vtk_ != nullptr;
  s.lesson_title = lesson_ ? lesson_->label() : "";
  s.caption = lesson_ ? lesson_->caption() : "";
  s.lesson_progress = lesson_ && sim_ ? std::clamp(lesson_->clock(*sim_) /
                                                       std::max(lesson_->lesson().duration, 1e-12),
                                                   0.0, 1.0)
                                      : -1.0;
  s.error_step = error_step_;
  s.error_body = error_body_;
  if (sim_) {
    s.run_label = run_label(sim_->integrator_name(), sim_->rotation_name(), sim_->dt());
    comparisons_.publish(s.comparisons, generation_);
    s.convergence = convergence_;
    s.history_times = history_.times();
    s.history_position = restored_at_ ? int(*restored_at_) : -1;
    s.reference_on = reference_ != nullptr;
    s.reversibility = reversibility_;
    s.stability = stability_;
    s.label = spec_->label;
    s.source = source_;
    s.builtin = spec_->builtin.value_or("");
    s.scene_parameters = scene_parameters_;
    fill_snapshot(*sim_, s, snapshot_contacts_, snapshot_inspected_);
    widen_to_recent_worst(s);
    s.blowup_limit = blowup_limit_;
  }
  flush_sample();
  snapshots_.publish();
  last_publish_ = Clock::now();
  dirty_ = false;
}

}  // namespace stepwise
