// Simulation::save_state / load_state: everything besides the World that decides the future,
// so a saved scene continues bit for bit.
#include "core/limits.hpp"
#include "core/simulation.hpp"

namespace stepwise {
namespace {

void save_evaluation(const Simulation::Evaluation& e, ParamTable& out) {
  out.set("force", flatten(e.force));
  out.set("torque", flatten(e.torque));
  out.set("potential", e.potential);
  out.set("potentials", e.potentials);
  out.set("dissipation_power", e.powers.dissipation);
  out.set("external_power", e.powers.external);
  out.set("pair_dissipation_power", e.pair_powers.dissipation);
  out.set("pair_external_power", e.pair_powers.external);
  if (!e.body_powers) out.set("body_powers", false);
  out.set("contacts", double(e.contacts));
  out.set("wall_contacts", double(e.wall_contacts));
  if (e.external_force.size()) {
    out.set("external_force", flatten(e.external_force));
    out.set("external_torque", flatten(e.external_torque));
  }
  if (e.drag_force.size()) {
    out.set("drag_force", flatten(e.drag_force));
    out.set("drag_torque", flatten(e.drag_torque));
  }
}

void load_evaluation(const ParamTable& in, int n, int models, unsigned tracked,
                     Simulation::Evaluation& e) {
  const std::string where = in.where() + " cached forces";
  e.force = unflatten(in.number_list("force"), 3, n, where);
  e.torque = unflatten(in.number_list("torque"), 3, n, where);
  e.potential = in.number("potential");
  e.potentials = in.numbers("potentials");
  if (int(e.potentials.size()) != models)
    throw InputError(where + ": 'potentials' lists " + std::to_string(e.potentials.size()) +
                     " numbers for " + std::to_string(models) + " force models");
  e.powers.dissipation = in.number("dissipation_power");
  e.powers.external = in.number("external_power");
  e.pair_powers.dissipation = in.number("pair_dissipation_power");
  e.pair_powers.external = in.number("pair_external_power");
  e.body_powers = in.flag("body_powers", true);
  e.contacts =
      static_cast<int>(limits::checked(where + ": contacts", in.number("contacts"), 0, 2e9, true));
  e.wall_contacts = static_cast<int>(
      limits::checked(where + ": wall_contacts", in.number("wall_contacts"), 0, 2e9, true));
  // The per-body work arrays the scene tracks now (a file may hold more or fewer).
  auto pair = [&](unsigned bit, const char* force, const char* torque, Positions& f, Positions& t) {
    f.resize(3, 0);
    t.resize(3, 0);
    if (!(tracked & bit)) return;
    f = in.has(force) ? unflatten(in.number_list(force), 3, n, where) : Positions::Zero(3, n);
    t = in.has(torque) ? unflatten(in.number_list(torque), 3, n, where) : Positions::Zero(3, n);
  };
  pair(kExternalWork, "external_force", "external_torque", e.external_force, e.external_torque);
  pair(kDragWork, "drag_force", "drag_torque", e.drag_force, e.drag_torque);
  e.drag_marks = {};  // not saved: the next evaluation starts from nothing known
}

}  // namespace

ParamTable Simulation::save_state(bool with_models) const {
  ParamTable out;
  out.set("random", random_.save());
  out.set("ledger_started", ledger_started_);
  out.set("initial_energy", initial_energy_);
  out.set("external_work", external_work_);
  out.set("dissipated", dissipated_);
  out.set("internal_dissipation_base", internal_dissipation_base_);
  if (internal_correction_base_ != 0)
    out.set("internal_correction_base", internal_correction_base_);
  if (world_.contact.impulse()) {
    out.set("contact_corrected", contact_corrected_);
    ParamTable impulses;
    impulse_.save_state(impulses);
    out.set("impulse", table_list(std::move(impulses)));
  }
  if (cache_valid_ && cached_.force.cols() == world_.size()) {
    ParamTable cache;
    save_evaluation(cached_, cache);
    out.set("cache", table_list(std::move(cache)));
  }
  ParamTable integrator, rotation;
  integrator_->save_state(integrator);
  rotation_->save_state(rotation);
  out.set("integrator", table_list(std::move(integrator)));
  out.set("rotation", table_list(std::move(rotation)));
  if (!with_models) return out;
  std::vector<ParamTable> models;
  for (const auto& f : world_.forces) {
    ParamTable t;
    f->save_state(t);
    models.push_back(std::move(t));
  }
  out.set("force", std::move(models));
  return out;
}

Simulation::Copy Simulation::settings() const {
  Copy c;
  c.dt = dt_;
  c.integrator = integrator_name_;
  c.rotation = rotation_name_;
  integrator_->save_options(c.options);
  c.time = time_;
  c.step = step_;
  c.seed = seed_;
  return c;
}

Simulation::Copy Simulation::copy() const {
  Copy c;
  copy_into(c);
  return c;
}

void Simulation::copy_into(Copy& c) const {
  World world = std::move(c.world);  // its arrays' storage, taken again below
  c = settings();
  c.world = std::move(world);
  c.world = world_;
  c.state = save_state(false);  // the models' state is copied with the World
}

std::unique_ptr<Simulation> Simulation::make_run(Copy c) {
  auto sim = std::make_unique<Simulation>(std::move(c.world), c.dt, c.integrator, c.rotation);
  // Options first: setting some (adaptive's base) restarts what load_state then restores.
  sim->integrator().set_options(c.options);
  sim->set_clock(c.time, c.step);
  sim->set_seed(c.seed);
  // The World's force models were copied with their state (its contacts' lists included).
  if (!c.state.values().empty()) sim->load_state(c.state, false);
  return sim;
}

void Simulation::load_state(const ParamTable& in, bool with_models) {
  if (with_models) {
    const auto models = in.tables("force");
    if (models.size() != world_.forces.size())
      throw InputError(in.where() + ": state for " + std::to_string(models.size()) +
                       " force models, but the scene has " + std::to_string(world_.forces.size()));
    for (size_t m = 0; m < models.size(); ++m) world_.forces[m]->load_state(models[m]);
  }
  for (const ParamTable& t : in.tables("integrator")) integrator_->load_state(t);
  for (const ParamTable& t : in.tables("rotation")) rotation_->load_state(t);
  if (!random_.load(in.text("random", "")))
    throw InputError(in.where() + ": 'random' is not a saved generator state");
  ledger_started_ = in.flag("ledger_started", false);
  initial_energy_ = in.number("initial_energy", 0.0);
  external_work_ = in.number("external_work", 0.0);
  dissipated_ = in.number("dissipated", 0.0);
  internal_dissipation_base_ = in.number("internal_dissipation_base", 0.0);
  internal_correction_base_ = in.number("internal_correction_base", 0.0);
  contact_corrected_ = in.number("contact_corrected", 0.0);
  impulse_.reset();
  for (const ParamTable& t : in.tables("impulse")) impulse_.load_state(t);
  cache_valid_ = only_swept_ = false;
  for (const ParamTable& t : in.tables("cache")) {
    decide_tracking();
    load_evaluation(t, world_.size(), int(world_.forces.size()), track_body_work_, cached_);
    cache_valid_ = true;
  }
}

}  // namespace stepwise
