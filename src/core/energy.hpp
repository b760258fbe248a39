#pragma once
// Energy and momentum bookkeeping of a simulation at one instant.
#include <string>
#include <vector>

#include "core/types.hpp"

namespace stepwise {

struct EnergyReport {
  long step = 0;
  double time = 0;
  double kinetic_translational = 0;
  double kinetic_rotational = 0;
  double kinetic = 0;
  double potential = 0;
  std::vector<double> potential_by_model;
  double external_work = 0;  // W: work done on the system from outside
  double dissipated = 0;     // D: energy removed by damping, drag, friction, thermostat
  // C: energy a contact model changed without a force working for it: rigid contact's position
  // correction (contact treatment `impulse`), or a penalty manifold's points coming or going
  // with their springs' energy (a box's reference face changing mid-contact)
  double corrected = 0;
  double total = 0;          // kinetic + potential
  double energy_error = 0;   // (E - E0 - W - C + D) / max(|E0|, |W|, tiny)
  Vec3 momentum = Vec3::Zero();
  Vec3 angular_momentum = Vec3::Zero();  // about the origin, orbital plus spin
  int contacts = 0;       // touching pairs, walls included
  int wall_contacts = 0;  // of which body-wall
  int bonds_broken = 0;
};

double relative_energy_error(double total, double initial, double work, double dissipated);

}  // namespace stepwise
