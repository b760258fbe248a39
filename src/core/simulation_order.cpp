// Simulation::reorder_bodies and keep_spatial_order: a run whose bodies are stored along the
// space-filling curve (core/spatial_order.hpp) sorted again as they move, its whole state moved
// with them. For speed only: the run goes on as it would reloaded from a saved state.
#include <algorithm>

#include "core/simulation.hpp"
#include "core/spatial_order.hpp"

namespace stepwise {
namespace {

// Columns of 3 numbers, one per body, moved so that body order[k] comes k-th.
void reorder_columns(ParamTable& table, const char* key, const std::vector<int>& order) {
  if (!table.has(key)) return;
  const std::vector<double> old = table.numbers(key);
  if (old.size() != 3 * order.size()) return;
  std::vector<double> moved(old.size());
  for (size_t k = 0; k < order.size(); ++k)
    for (size_t c = 0; c < 3; ++c) moved[3 * k + c] = old[3 * size_t(order[k]) + c];
  table.set(key, moved);
}

// Whether a method's carried state names no body (no per-body lists: adaptive's step size is
// one number; leapfrog's half-step velocities are a list per body, not moved here).
bool holds_no_bodies(const ParamTable& table) {
  for (const auto& [key, value] : table.values())
    if (!std::holds_alternative<double>(value) && !std::holds_alternative<bool>(value) &&
        !std::holds_alternative<std::string>(value))
      return false;
  return true;
}

}  // namespace

bool Simulation::reorder_bodies(const std::vector<int>& order) {
  flush();
  if (int(order.size()) != world_.size() || world_.contact.impulse()) return false;
  only_swept_ = false;                        // (kept per group of four bodies)
  for (const ShapePtr& shape : world_.shape)  // (a shape pair's manifold names its bodies)
    if (shape->type() != sphere_type()) return false;
  ParamTable state = save_state(true);
  for (const char* method : {"integrator", "rotation"})
    for (const ParamTable& t : state.tables(method))
      if (!holds_no_bodies(t)) return false;
  std::vector<int> slot(order.size());
  for (size_t k = 0; k < order.size(); ++k) slot[size_t(order[k])] = int(k);
  std::vector<ParamTable> models = state.tables("force");
  for (size_t m = 0; m < models.size(); ++m)
    if (!world_.forces[m]->renumber_state(models[m], slot)) return false;
  state.set("force", models);
  std::vector<ParamTable> caches = state.tables("cache");
  for (ParamTable& cache : caches)
    for (const char* key :
         {"force", "torque", "external_force", "external_torque", "drag_force", "drag_torque"})
      reorder_columns(cache, key, order);
  if (!caches.empty()) state.set("cache", caches);
  // Fresh models from their parameters, as a saved run's are read back (a model's lists and
  // caches are rebuilt from the moved history, none left naming the old places).
  std::vector<std::unique_ptr<ForceModel>> fresh;
  try {
    for (const auto& model : world_.forces) {
      ParamTable parameters;
      model->save(parameters);
      fresh.push_back(ForceRegistry::instance().make(model->kind(), parameters));
    }
  } catch (const InputError&) {  // a model its own parameters do not make again: left as it is
    return false;
  }
  Copy c = settings();
  c.world = std::move(world_);
  c.world.forces = std::move(fresh);
  c.world.reorder(order);
  std::unique_ptr<Simulation> run = make_run(std::move(c));
  run->load_state(state, true);  // (this run's own state: read back as saved)
  // What the owner set, kept: threads, block size, evaluating in place, the sweep, free flight and
  // their counts.
  run->parallel_ = parallel_;
  run->passes_.set_block(passes_.block());
  run->in_place_ = in_place_;
  run->sweep_enabled_ = sweep_enabled_;
  run->swept_steps_ = swept_steps_, run->swept_fields_ = swept_fields_;
  run->swept_watches_ = swept_watches_;
  std::copy(std::begin(sweep_counts_), std::end(sweep_counts_), std::begin(run->sweep_counts_));
  run->flight_enabled_ = flight_enabled_;
  run->flown_steps_ = flown_steps_, run->flights_ = flights_;
  *this = std::move(*run);
  return true;
}

void Simulation::keep_spatial_order() {
  // Only runs stored in spatial order to begin with (a file read in scattered order), every
  // kResortEvery steps of the clock, so a reloaded run sorts where the first one did.
  if (world_.ids.empty() || step_ % kResortEvery != 0 || world_.size() < kSpatialOrderMinBodies)
    return;
  const std::vector<int> order = spatial_order(world_);
  if (!std::is_sorted(order.begin(), order.end())) reorder_bodies(order);  // (sorted: as stored)
}

}  // namespace stepwise
