#include "runtime/lesson_player.hpp"

#include <algorithm>

namespace stepwise {

LessonPlayer::LessonPlayer(Lesson lesson)
    : lesson_(std::move(lesson)), label_(lesson_.title.empty() ? lesson_.scene : lesson_.title) {}

std::unique_ptr<Simulation> LessonPlayer::start() {
  const RunSpec spec = load_scene(lesson_.scene, lesson_.parameters);
  return std::make_unique<Simulation>(make_simulation(spec));
}

void LessonPlayer::check() const {
  LessonPlayer trial(lesson_);
  std::unique_ptr<Simulation> sim = trial.start();
  for (const LessonStep& step : lesson_.steps) trial.apply(step, sim);
}

double LessonPlayer::apply_due(std::unique_ptr<Simulation>& sim) {
  // Pulls that have run their time end first.
  for (auto it = pulls_.begin(); it != pulls_.end();) {
    if (clock(*sim) + 1e-12 < it->until) {
      ++it;
      continue;
    }
    const ForceModel* model = it->model;
    sim->edit([&](World& w) {
      std::erase_if(w.forces, [&](const auto& f) { return f.get() == model; });
    });
    it = pulls_.erase(it);
  }
  double hold = 0;
  last_change_.clear();
  while (next_ < lesson_.steps.size() &&
         lesson_.steps[next_].at <= clock(*sim) + 1e-9 * sim->dt()) {
    const LessonStep& step = lesson_.steps[next_++];
    apply(step, sim);
    hold += step.hold;
  }
  return hold;
}

void LessonPlayer::apply(const LessonStep& step, std::unique_ptr<Simulation>& sim) {
  std::string change;
  auto note = [&](const std::string& what) { change += (change.empty() ? "" : ", ") + what; };
  // Errors found only as the step plays name its place in the file (steps made in code: its time).
  const std::string where =
      step.where.empty() ? "lesson step at " + format_double(step.at) : step.where;
  if (step.load) {
    offset_ += sim->time();
    pulls_.clear();
    sim = std::make_unique<Simulation>(make_simulation(load_scene(*step.load, step.parameters)));
    sim->set_clock(0, 0);
    note("load " + *step.load);
  }
  if (step.integrator) {
    if (!IntegratorRegistry::instance().contains(*step.integrator))
      throw InputError(where + ": " +
                       IntegratorRegistry::instance().unknown_message(*step.integrator));
    sim->set_integrator(*step.integrator);
    sim->invalidate();
    note(*step.integrator);
  }
  if (step.rotation) {
    if (!RotationRegistry::instance().contains(*step.rotation))
      throw InputError(where + ": " + RotationRegistry::instance().unknown_message(*step.rotation));
    sim->set_rotation(*step.rotation);
    sim->invalidate();
    note(*step.rotation);
  }
  if (step.dt) {
    sim->set_dt(*step.dt);
    sim->invalidate();
    note("dt " + format_double(*step.dt));
  }
  for (const auto& entry : step.set) {
    const std::string& key = entry.first;  // (not a structured binding: the lambda captures it)
    const double value = entry.second;
    const std::string kind = key.substr(0, key.find('.')), name = key.substr(key.find('.') + 1);
    bool found = false;
    sim->edit([&](World& w) {
      for (auto& model : w.forces)
        if (model->kind() == kind) {
          try {
            model->tune(name, value);
          } catch (const InputError& e) {
            throw InputError(where + ": " + e.what());
          }
          found = true;
        }
    });
    if (!found) throw InputError(where + ": no force model '" + kind + "'");
    note(key + " " + format_double(value));
  }
  if (step.pull) {
    if (step.pull->body < 0 || step.pull->body >= sim->world().size())
      throw InputError(where + ": no body " + std::to_string(step.pull->body) + " to pull");
    ParamTable p("lesson pull");
    p.set("body", double(sim->world().slot(step.pull->body)));  // (the lesson names its id)
    const Vec3& f = step.pull->force;
    p.set("force", std::vector<double>{f.x(), f.y(), f.z()});
    auto model = ForceRegistry::instance().make("point-force", p);
    const ForceModel* raw = model.get();
    sim->edit([&](World& w) { w.add_force(std::move(model)); });
    pulls_.push_back({raw, clock(*sim) + step.pull->duration});
    note("pull body " + std::to_string(step.pull->body));
  }
  if (step.caption) caption_ = *step.caption;
  last_change_ = change;
}

}  // namespace stepwise
