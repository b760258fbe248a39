#pragma once
// Integrator analyses shared by the CLI, the window's comparison views and the tests.
#include <atomic>
#include <exception>
#include <string>
#include <vector>

#include "core/simulation.hpp"

namespace stepwise {

// A long analysis asked to stop: the window's background jobs hand the core a flag that their
// owner sets from its own thread (closing the window while a study of 1e9 steps ran waited for
// it to end). The core owns no thread; it only reads the flag between chunks of steps.
struct Cancelled : std::exception {
  const char* what() const noexcept override { return "cancelled"; }
};
// sim.advance(steps) in chunks of about a million body-steps, throwing Cancelled between chunks
// once *cancel is set (null: never). The steps are those of one advance(steps) call.
std::optional<StepFailure> advance_unless(Simulation& sim, long steps,
                                          const std::atomic<bool>* cancel);

// Runs `steps` forward, reverses every velocity and spin, runs `steps` back, reverses again, and
// returns how far the bodies ended from where they started (max over bodies of |x - x0|).
// Time-reversible methods return to round-off; the others keep their truncation error.
struct Reversibility {
  double position_error = 0;
  double velocity_error = 0;
  bool failed = false;
};
// InputError unless 1 <= steps <= limits::max_steps() (checked by reversibility too).
void check_reversibility(long steps);
Reversibility reversibility(const World& world, double dt, const std::string& integrator,
                            const std::string& rotation, long steps,
                            const std::atomic<bool>* cancel = nullptr);

// Amplitude growth per step on the test oscillator x'' = -omega^2 x at omega*dt = h: the
// geometric mean over `steps` steps of the change in sqrt(x^2 + (v/omega)^2). Above 1 the
// method is unstable there (explicit Euler everywhere, central differences beyond h = 2).
double growth_per_step(const std::string& integrator, double omega_dt, int steps = 64,
                       const ParamTable& options = ParamTable());

}  // namespace stepwise
