// Simulation's part of contact treatment `impulse` (core/impulse): finding the contacts, the
// impulses on the drift velocity or after the step, and the overlap's correction, booked.
#include "core/simulation.hpp"

namespace stepwise {
void Simulation::set_contact(const ContactTreatment& contact) {
  if (contact == world_.contact) return;
  world_.contact = contact;
  impulse_.reset();
  impulse_figures_ = {};
  invalidate();  // the contact models' forces come and go with the mode
}

void Simulation::find_rigid_contacts() {
  flush();
  rigid_.clear();
  for (const auto& f : world_.forces) f->rigid_contacts(world_, time_, rigid_);
}

void Simulation::rigid_start_step() {
  find_rigid_contacts();
  if (rigid_.empty()) return;
  const double start = world_.kinetic_energy() + cached_.potential;
  if (!impulse_.separate(world_, rigid_, world_.contact)) return;
  // As after a projection (correct_step): carried state described the state before.
  integrator_->reset();
  rotation_->reset();
  cache_valid_ = false;
  ensure_start_evaluation();
  contact_corrected_ += world_.kinetic_energy() + cached_.potential - start;
}

void Simulation::rigid_impulses() {
  flush();
  drift_solved_ = true;
  if (rigid_.empty()) {
    impulse_.reset();
    impulse_figures_ = {};
    return;
  }
  // The forces are the step's start evaluation (the cache) in the drift, the next step's start
  // after it: what the step's forces give each body in one step either way.
  const int n = world_.size();
  gained_.resize(n);
  for (int i = 0; i < n; ++i) gained_(i) = dt_ * world_.inv_mass(i) * cached_.force.col(i).norm();
  const Positions v0 = world_.v, w0 = world_.w;
  const double before = world_.kinetic_energy();
  impulse_figures_ = impulse_.resolve_velocities(world_, world_.contact, rigid_, gained_);
  spins_changed_ = spins_changed_ || world_.w != w0;
  // The contacts' work: the kinetic energy the impulses changed, less the work the step's
  // forces do on that change of velocity over the half step around it. A box resting on a floor
  // takes an impulse every step (gravity's kick undone) and does no work; its kinetic energy
  // before and after the impulse differ by just that term.
  double work = world_.kinetic_energy() - before;
  for (int i = 0; i < n; ++i)
    work -= 0.5 * dt_ * cached_.force.col(i).dot(world_.v.col(i) - v0.col(i));
  dissipated_ -= work;
}

void Simulation::rigid_contact_step() {
  if (drift_solved_) {
    if (spins_changed_) rotation_->reset();  // Wang's half-step spins described the old ones
    return;
  }
  // A method without a drift: the impulses act on the velocities the step ended with.
  find_rigid_contacts();
  if (rigid_.empty()) {
    impulse_.reset();
    impulse_figures_ = {};
    return;
  }
  rigid_impulses();
  integrator_->reset();
  if (spins_changed_) rotation_->reset();
  evaluate(world_.x, world_.v, time_, false, cached_);  // velocity-dependent forces
}

}  // namespace stepwise
