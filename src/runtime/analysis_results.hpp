#pragma once
// Results of the comparison views' background analyses, as the snapshot carries them.
#include <map>
#include <string>
#include <vector>

#include "core/sweep.hpp"

namespace stepwise {

struct ConvergenceView {
  bool running = false;
  std::string status;  // "" until first run; errors land here too
  double horizon = 0;
  SweepResult result;
};

// Amplitude growth per step on x'' = -omega^2 x against omega dt, per method (the stability
// chart; the same function as `stepwise stability`). Curves do not depend on the scene.
struct StabilityView {
  std::vector<double> omega_dt;
  std::map<std::string, std::vector<double>> growth;  // finished curves
  std::vector<std::string> computing;
};

struct ReversibilityView {
  bool running = false;
  std::string status;
  std::string integrator, rotation;
  long steps = 0;
  double dt = 0;
  double position_error = -1, velocity_error = -1;
};

}  // namespace stepwise
