// The worker's output: energy samples for the plots (several steps per sample when running
// fast, keeping the error's extremes) and the snapshots the window reads.
#include <algorithm>
#include <cmath>

#include "runtime/physics_worker.hpp"

namespace stepwise {
namespace {

constexpr double kSamplesPerSecond = 4000;  // plot resolution when running fast

}  // namespace

void PhysicsWorker::mark(std::string marker) {
  flush_sample();
  next_marker_ = std::move(marker);
  record_sample(sim_->energy());
  flush_sample();
}

void PhysicsWorker::record_sample(const EnergyReport& r, int steps) {
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
  // (Compared at one time: a shadow run that a lowered dt left ahead is not, until the main run
  // passes it.)
  if (reference_ && std::abs(reference_->time() - sim_->time()) <= reference_->dt()) {
    s.reference_position_error = largest_norm(sim_->world().x - reference_->world().x);
    s.reference_energy_error = (r.total - reference_->energy().total) / reference_e0_;
  }
  s.error_min = std::min(s.error_min, r.energy_error);
  s.error_max = std::max(s.error_max, r.energy_error);
  s.steps_covered += steps;
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
  const auto began = Clock::now();
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
    comparisons_.publish(s.comparisons, generation_, snapshot_detail_.figure);
    s.convergence = convergence_;
    s.history_times = history_.times();
    s.history_position = restored_at_ ? int(*restored_at_) : -1;
    s.history_kept = history_.capacity() > 0;
    s.reference_on = reference_ != nullptr;
    s.reference_waiting = reference_ && reference_waiting_;
    s.reference_time = reference_ ? reference_->time() : 0;
    s.reversibility = reversibility_;
    s.stability = stability_;
    s.label = spec_->label;
    s.source = source_;
    s.builtin = spec_->builtin.value_or("");
    s.scene_parameters = scene_parameters_;
    fill_snapshot(*sim_, s, snapshot_detail_);
    widen_to_recent_worst(s);
    s.blowup_limit = blowup_limit_;
  }
  flush_sample();
  snapshots_.publish();
  last_publish_ = Clock::now();
  publish_every_ = publish_interval(last_publish_ - began);
  dirty_ = false;
}

}  // namespace stepwise
