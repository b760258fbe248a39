// Dynamics, the integrator's view of a Simulation: accelerations at trial states, the step's
// kicks with their exact work booking, Jacobians; and the helpers integrators share.
#include <algorithm>

#include "core/difference_jacobian.hpp"
#include "core/limits.hpp"
#include "core/simulation.hpp"

namespace stepwise {

Dynamics::Dynamics(Simulation& sim, double t0, double h)
    : sim_(&sim), t0_(t0), h_(h), root_(true) {}

Dynamics Dynamics::child(double t0, double h) const {
  Dynamics d(*sim_, t0, h);
  d.root_ = false;
  return d;
}

int Dynamics::size() const {
  return sim_->world_.size();
}
Positions& Dynamics::x() {
  sim_->flush();
  return sim_->world_.x;
}
Positions& Dynamics::v() {
  sim_->flush();
  return sim_->world_.v;
}
const VecX& Dynamics::inv_mass() const {
  return sim_->world_.inv_mass;
}
const VecX& Dynamics::mass() const {
  return sim_->world_.mass;
}
Random& Dynamics::random() {
  sim_->flush();
  return sim_->random_;
}
World& Dynamics::world() {
  sim_->flush();
  return sim_->world_;
}

void accelerations(const Positions& force, const VecX& inv_mass, Positions& a) {
  a.resize(3, force.cols());
  for (Eigen::Index i = 0; i < force.cols(); ++i) a.col(i) = force.col(i) * inv_mass(i);
}

const Positions& Dynamics::start_accel() {
  sim_->flush();
  if (!start_valid_) {
    if (root_) {
      sim_->ensure_start_evaluation();
      accelerations(sim_->cached_.force, inv_mass(), start_accel_);
      start_powers_ = sim_->cached_.powers;
    } else {
      accel(x(), v(), t0_, start_accel_, &start_powers_);
    }
    start_valid_ = true;
  }
  return start_accel_;
}

Powers Dynamics::start_powers() {
  start_accel();
  return start_powers_;
}

void Dynamics::accel(const Positions& x, const Positions& v, double t, Positions& a, Powers* p) {
  sim_->flush();
  sim_->evaluate(x, v, t, false, sim_->trial_);
  accelerations(sim_->trial_.force, inv_mass(), a);
  if (p) *p = sim_->trial_.powers;
}

const Positions& Dynamics::end_accel(Powers* p) {
  if (!root_) {
    accel(x(), v(), t0_ + h_, end_accel_, &end_powers_);
    if (p) *p = end_powers_;
    return end_accel_;
  }
  evaluate_end();
  sim_->flush();
  accelerations(sim_->cached_.force, inv_mass(), end_accel_);
  if (p) *p = sim_->cached_.powers;
  return end_accel_;
}

void Dynamics::evaluate_end() {
  if (!root_) {
    end_accel();
    return;
  }
  sim_->evaluate(sim_->world_.x, sim_->world_.v, t0_ + h_, true, sim_->cached_, true);
  sim_->cache_valid_ = true;
  sim_->end_evaluated_ = true;
}

void Dynamics::drift(double h) {
  // Rigid contact: impacts and resting contacts act on the velocity the positions move with.
  if (root_ && sim_->world_.contact.impulse()) sim_->rigid_impulses();
  Positions& x = sim_->world_.x;
  const Positions& v = sim_->world_.v;
  auto pass = [&x, &v, h](int, int begin, int end) {
    x.middleCols(begin, end - begin) += h * v.middleCols(begin, end - begin);
  };
  World& world = sim_->world_;
  const bool shake = root_ && std::any_of(world.forces.begin(), world.forces.end(),
                                          [](const auto& f) { return f->wants_shake(); });
  if (shake) {
    // SHAKE (constraints kept by RATTLE) needs the positions before and after the drift.
    sim_->flush();
    const Positions x0 = x;
    for_each_range(sim_->parallel_, size(), pass);
    for (const auto& f : world.forces)
      if (f->wants_shake()) f->shake(world, x0, h, t0_ + h);
  } else if (root_) {
    sim_->passes_.add(pass);  // run with the evaluation's per-body start
  } else {
    sim_->flush();
    for_each_range(sim_->parallel_, size(), pass);
  }
}

void Dynamics::start_kick(double h) {
  if (!root_) {
    v() += h * start_accel();
    account(start_powers(), h);
    return;
  }
  sim_->ensure_start_evaluation();
  sim_->kick_and_book(sim_->cached_, h);
}

void Dynamics::end_kick(double h) {
  if (!root_) {
    v() += h * end_accel_;
    account(end_powers_, h);
    return;
  }
  sim_->kick_and_book(sim_->cached_, h);
}

void Dynamics::account(const Powers& p, double weighted_dt) {
  keep({p.dissipation * weighted_dt, p.external * weighted_dt});
}

void Dynamics::add_dissipated(double energy) {
  keep({energy, 0});
}

void Dynamics::account_start_kick(const Positions& v_before, const Positions& v_after, double h) {
  sim_->flush();
  if (root_) {
    sim_->ensure_start_evaluation();
    sim_->book_kick(sim_->cached_, v_before, v_after, h);
  } else {
    account(start_powers(), h);
  }
}

void Dynamics::account_end_kick(const Positions& v_before, const Positions& v_after, double h) {
  sim_->flush();
  if (root_)
    sim_->book_kick(sim_->cached_, v_before, v_after, h);
  else
    account(end_powers_, h);
}

void Dynamics::keep(const Powers& energy) {
  sim_->flush();
  if (root_) {
    sim_->dissipated_ += energy.dissipation;
    sim_->external_work_ += energy.external;
  } else {
    booked_.dissipation += energy.dissipation;
    booked_.external += energy.external;
  }
}

void Dynamics::jacobians(const Positions& x, const Positions& v, double t, SparseMatrix& dfdx,
                         SparseMatrix& dfdv) {
  sim_->flush();
  World& world = sim_->world_;
  const int n = world.size();
  const int dofs = 3 * n;
  Triplets tx, tv;
  StateView view{world, x, v, world.w};
  EvalContext ctx{t, sim_->dt_, false, sim_->parallel_};
  std::vector<std::pair<int, int>> pairs;
  for (auto& model : world.forces) {
    if (model->jacobian(view, tx, tv)) continue;
    // Central differences on this model alone: 12 evaluations of a model that costs n for each
    // group of bodies perturbed together (difference_jacobian.hpp), a group per body where the
    // model does not name its pairs: n^2 a Newton iteration (2,000 bodies took 12 s a step, the
    // window's commands waiting on it). A packing's contacts take some 12-20 groups, but where
    // the matrix is not diagonally dominant its sparse LU grows faster than n (a Newton
    // iteration at 32,768 settling spheres 0.7 s, at 97,336 4.6 s), and which it will be is not
    // known ahead. Refused beyond a stated amount of work and number of bodies.
    if (n > limits::max_differenced_bodies())
      throw InputError(sim_->integrator_name() + ": its Jacobian of '" + model->kind() +
                       "' is taken by differences and its Newton matrix, where not diagonally "
                       "dominant, solved by sparse LU: at most " +
                       std::to_string(limits::max_differenced_bodies()) + " bodies (this run has " +
                       std::to_string(n) + "); use an explicit method");
    // (applied once at the state first, so a model's list of pairs is the state's)
    ForceSums base;
    base.tracked = sim_->tracks_body_work();
    base.reset(n);
    model->apply(view, base, ctx);
    pairs.clear();
    const bool paired = model->coupled_pairs(view, pairs);
    const DifferenceGroups groups = difference_groups(world.inv_mass, paired ? &pairs : nullptr);
    const double work = double(groups.groups.size()) * n, most = limits::kMaxDifferencedWork;
    if (work > most)
      throw InputError(sim_->integrator_name() + ": its Jacobian of '" + model->kind() +
                       "' is taken by differences, " + std::to_string(groups.groups.size()) +
                       (paired ? " groups of bodies that share no pair" : " bodies one by one") +
                       " perturbed in turn, each evaluating all " + std::to_string(n) +
                       ": at most " + std::to_string(limits::kMaxDifferencedWork) +
                       " body evaluations a Newton iteration (this run needs " +
                       std::to_string(static_cast<long long>(work)) + "); use an explicit method");
    difference_jacobian(*model, world, x, v, ctx, sim_->tracks_body_work(), groups, tx, tv);
  }
  dfdx.resize(dofs, dofs);
  dfdv.resize(dofs, dofs);
  dfdx.setFromTriplets(tx.begin(), tx.end());
  dfdv.setFromTriplets(tv.begin(), tv.end());
}

void Integrator::set_option(const std::string& name, const ParamValue&) {
  throw InputError("integrator '" + info().name + "' has no option '" + name + "'");
}

void Integrator::save_options(ParamTable& out) const {
  for (const Tunable& t : options()) out.set(t.name, t.value);
}

void Integrator::set_options(const ParamTable& options) {
  for (const auto& [name, value] : options.values()) set_option(name, value);
}

double option_number(const std::string& integrator, const std::string& name,
                     const ParamValue& value) {
  if (auto d = std::get_if<double>(&value)) return *d;
  throw InputError("integrator '" + integrator + "': option '" + name + "' must be a number");
}

}  // namespace stepwise
