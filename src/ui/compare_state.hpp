#pragma once
// What the Compare panel remembers between frames (choices being made, the phase portrait's
// trace). Its analyses run in the runtime's jobs; their results come in the snapshot.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace stepwise {

struct CompareState {
  // Lockstep: the run being set up.
  int integrator = 0, rotation = 0;
  double dt = 0;                // 0: the main run's
  std::string synced_rotation;  // the new run's rotation follows the main run's when it changes
  char variant[64] = "formulation=penalty";  // a scene parameter to change for a variant run
  // Convergence: the methods ticked and the horizon (0: chosen from dt when first shown).
  std::map<std::string, bool> convergence_methods;
  double horizon = 0;
  // Stability chart: the methods shown.
  std::map<std::string, bool> stability_methods = {{"euler", true},
                                                   {"velocity-verlet", true},
                                                   {"rk4", true},
                                                   {"newmark", true},
                                                   {"implicit-euler", true}};
  int reversibility_steps = 1000;
  int history_index = 0;
  // Phase portrait of the selected body.
  int phase_axis = 0;
  std::vector<double> phase_x, phase_v;
  std::uint64_t phase_revision = 0, phase_generation = 0;
  int phase_body = -1, phase_traced_axis = -1;
};

}  // namespace stepwise
