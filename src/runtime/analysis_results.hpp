#pragma once
// Results of the comparison views' background analyses, as the snapshot carries them.
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

struct ReversibilityView {
  bool running = false;
  std::string status;
  std::string integrator, rotation;
  long steps = 0;
  double dt = 0;
  double position_error = -1, velocity_error = -1;
};

}  // namespace stepwise
