#pragma once
// One point of the live energy plot. In real-time pacing there is one per step; when the worker
// runs faster than the plot can use, a sample covers several steps and carries the extremes of
// the energy error over them, so no step's excursion is lost.
#include <cstdint>
#include <limits>
#include <string>

#include "core/energy.hpp"

namespace stepwise {

struct EnergySample {
  std::uint64_t scene_generation = 0;
  int run = 0;  // 0: the main run; k > 0: comparison run k
  std::uint64_t run_id = 0;  // which comparison run that is (a new run in slot k has a new id)
  long step = 0;
  long steps_covered = 1;
  double time = 0;
  double kinetic = 0, potential = 0, total = 0, external_work = 0, dissipated = 0;
  double corrected = 0;  // rigid contact's position correction (EnergyReport::corrected)
  double error = 0, error_min = 0, error_max = 0;
  // The rest of `stepwise run --csv`'s columns, so the window can export the same table.
  double px = 0, py = 0, pz = 0, Lx = 0, Ly = 0, Lz = 0;
  double kinetic_translational = 0, kinetic_rotational = 0;
  int contacts = 0, bonds_broken = 0;
  // Against the reference shadow run, when one is on (NaN otherwise).
  double reference_position_error = std::numeric_limits<double>::quiet_NaN();
  double reference_energy_error = std::numeric_limits<double>::quiet_NaN();
  // A constraint set's max |C| and max |Ċ| at the sample's last step (NaN: no constraints).
  double constraint_error = std::numeric_limits<double>::quiet_NaN();
  double constraint_rate = std::numeric_limits<double>::quiet_NaN();
  std::string marker;  // "integrator: rk4", "dt 0.005", ... set on the first sample after a change
};

// The figures of one report (its error as min and max too); and back, for the CSV export.
void copy_report(const EnergyReport& r, EnergySample& s);
EnergySample sample_of(const EnergyReport& r);
EnergyReport report_of(const EnergySample& s);

}  // namespace stepwise
