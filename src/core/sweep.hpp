#pragma once
// Convergence studies: run a scene at several time steps and measure the error at a fixed end
// time against the exact solution (or a fine-step reference), and the observed order between
// successive steps. `stepwise sweep`, the GUI's convergence view and the tests share this.
#include <atomic>
#include <string>
#include <vector>

#include "core/scene.hpp"

namespace stepwise {

struct SweepRow {
  double dt = 0;
  long steps = 0;
  double position_error = 0;  // max over bodies |x - x_ref|
  double rotation_error = 0;  // max over bodies of the angle between q and q_ref (radians)
  double error = 0;           // the larger of the two (what the order is fitted on)
  double order = 0;           // log(e_prev/e) / log(dt_prev/dt); 0 for the first row
  bool failed = false;        // went non-finite
};

struct SweepSeries {
  std::string integrator, rotation;
  std::vector<SweepRow> rows;
};

struct SweepRequest {
  SceneSetup setup;
  std::vector<std::string> integrators;  // translational methods to compare ...
  std::vector<std::string> rotations;    // ... or, if non-empty, rotation schemes
  std::vector<double> dts;
  double duration = 1;
  // Set by another thread to stop the runs between chunks of steps (advance_unless); null: never.
  const std::atomic<bool>* cancel = nullptr;
};

struct SweepResult {
  std::vector<SweepSeries> series;
  std::string reference;  // "exact" or how the reference was made
};

// InputError unless every dt and the duration lie in the limits and no run (the reference
// included) takes more than limits::max_steps(): the CLI's sweep and the window's convergence
// study both meet it here, before any work.
void check_sweep(const SweepRequest& request);
SweepResult run_sweep(const SweepRequest& request);
// Positions and orientations after `duration` with a given method pair and step.
struct FinalState {
  Positions x;
  std::vector<Quat> q;
  bool failed = false;
};
FinalState run_to(const SceneSetup& setup, const std::string& integrator,
                  const std::string& rotation, double dt, double duration,
                  const std::atomic<bool>* cancel = nullptr);
double orientation_distance(const Quat& a, const Quat& b);  // rotation angle from a to b

}  // namespace stepwise
