// The worker's commands from the window: each one applied to the run between steps. Split from
// physics_worker.cpp (the stepping loop) by what it does.
#include <algorithm>
#include <climits>
#include <cmath>

#include "core/limits.hpp"
#include "runtime/memory_check.hpp"
#include "runtime/physics_worker.hpp"

namespace stepwise {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

void PhysicsWorker::apply(const Command& command) {
  if (const auto* c = std::get_if<cmd::LoadScene>(&command)) {
    lesson_.reset();
    return load(c->source, c->overrides, nullptr, c->read.get());
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
    steps_owed_ = 0;  // (Pause drops what a step command left; Run takes over from it)
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
    // (As `record --slow-motion` and a lesson's: a lesson's hold lasts hold / slow_motion.)
    limits::checked("slow motion", c->slow_motion, limits::kMinSlowMotion, limits::kMaxSlowMotion);
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
          [&](const cmd::SetContact& c) {
            ContactTreatment contact = sim.world().contact;  // checked before anything changes
            contact.set_mode(c.mode, "contact");
            contact.set_option("restitution", c.restitution, "contact");
            contact.set_option("iterations", c.iterations, "contact");
            contact.set_option("solver", c.solver, "contact");
            contact.set_option("facets", c.facets, "contact");
            contact.check(sim.world().lists_contacts(), "contact");
            if (contact == sim.world().contact) return;
            fork_old_future();
            sim.set_contact(contact);
            mark(contact.impulse() ? "contact impulse, e " + format_double(contact.restitution)
                                   : std::string("contact penalty"));
          },
          [&](const cmd::SetIntegratorOption& c) {
            sim.integrator().set_option(c.name, c.value);
            mark(c.name + " " + format_double(c.value));
          },
          [&](const cmd::StepOnce& c) {
            running_ = false;
            const long steps = std::max(0L, c.steps);
            steps_owed_ = steps > LONG_MAX - steps_owed_ ? LONG_MAX : steps_owed_ + steps;
            take_owed_steps(Clock::now() + kSlice);
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
            p.set("k", c.stiffness > 0 ? c.stiffness
                                       : sim.world().mass(c.body) * std::pow(2 * M_PI * 2.0, 2));
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
            if (c.detail.figure > BodyFigure::Force) throw InputError("no such body figure");
            snapshot_detail_ = c.detail;
          },
          [&](const cmd::SetReference& c) {
            reference_.reset();
            reference_waiting_ = false;
            if (!c.on) return;
            check_copy_memory(sim.world(), "the reference run");
            reference_ = std::make_unique<Simulation>(sim.world(), sim.dt() / 8, "rk4", "rk4");
            reference_->set_clock(sim.time(), 0);
            reference_->set_seed(sim.seed());
            reference_e0_ = std::max(std::abs(sim.energy().total), 1e-30);
          },
          [&](const cmd::AddComparison& c) {
            check_copy_memory(sim.world(), "a comparison run");
            comparisons_.add(sim, c.integrator, c.rotation, c.dt);
            comparisons_.push_samples(samples_, plot_generation_);
          },
          [&](const cmd::AddVariant& c) {
            // The contact treatment: the run as it is now, forked, under the other one.
            if (ContactTreatment contact = sim.world().contact;
                contact.set_key(c.key, c.value, "variant " + c.key)) {
              contact.check(sim.world().lists_contacts(), "variant " + c.key);
              check_copy_memory(sim.world(), "a comparison run");
              auto run = Simulation::make_run(sim.copy());
              run->set_contact(contact);
              comparisons_.add(std::move(run), c.key + " = " + format_param_value(c.value) + ": " +
                                                   run_label(sim.integrator_name(),
                                                             sim.rotation_name(), sim.dt()));
              comparisons_.push_samples(samples_, plot_generation_);
              return;
            }
            if (!spec_->builtin)
              throw InputError("this scene lists its bodies: it has no parameters to vary");
            auto overrides = spec_->parameters;
            overrides[c.key] = c.value;
            RunSpec variant = load_scene(*spec_->builtin, overrides);
            variant.time = 0, variant.step = 0;
            check_copy_memory(variant.setup.world, "a comparison run");
            auto run = std::make_unique<Simulation>(make_simulation(variant));
            run->set_integrator(sim.integrator_name());
            run->set_rotation(sim.rotation_name());
            comparisons_.add(std::move(run), c.key + " = " + format_param_value(c.value) + ": " +
                                                 run_label(sim.integrator_name(),
                                                           sim.rotation_name(), variant.setup.dt));
            comparisons_.advance_to(sim.time(), Clock::now() + kSlice);
            comparisons_.push_samples(samples_, plot_generation_);
          },
          [&](const cmd::RemoveComparison& c) { comparisons_.remove(c.index); },
          [&](const cmd::RunConvergence& c) {
            jobs_.start_convergence(sim, c.integrators, c.horizon);
          },
          [&](const cmd::RunReversibility& c) { jobs_.start_reversibility(sim, c.steps); },
          [&](const cmd::StopStudy& c) { jobs_.stop(c.convergence); },
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
          [](const cmd::LoadScene&) {},
          [](const cmd::PlayLesson&) {},
          [](const cmd::Reset&) {},
          [](const cmd::SetRunning&) {},
          [](const cmd::SetPacing&) {},
          [](const cmd::SetBlowupLimit&) {},
      },
      command);
}

}  // namespace stepwise
