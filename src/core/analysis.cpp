#include "core/analysis.hpp"

#include <algorithm>
#include <cmath>

#include "core/limits.hpp"

namespace stepwise {
namespace {

void reverse_motion(Simulation& sim) {
  World& w = sim.world();
  w.v = -w.v;
  w.L = -w.L;
  w.sync_all_angular_velocities();
  sim.invalidate();  // velocity-dependent forces and carried half-step state start afresh
}

}  // namespace

void check_reversibility(long steps) {
  limits::checked("steps each way", double(steps), 1, limits::max_steps(), true);
}

std::optional<StepFailure> advance_unless(Simulation& sim, long steps,
                                          const std::atomic<bool>* cancel) {
  if (!cancel) return sim.advance(steps);
  const long chunk = std::max(1L, (1L << 20) / std::max(1, sim.world().size()));
  for (long done = 0; done < steps; done += chunk) {
    if (cancel->load(std::memory_order_relaxed)) throw Cancelled();
    if (auto failure = sim.advance(std::min(chunk, steps - done))) return failure;
  }
  return std::nullopt;
}

Reversibility reversibility(const World& world, double dt, const std::string& integrator,
                            const std::string& rotation, long steps,
                            const std::atomic<bool>* cancel) {
  check_reversibility(steps);
  Simulation sim(world, dt, integrator, rotation);
  const Positions x0 = world.x, v0 = world.v;
  Reversibility out;
  if (advance_unless(sim, steps, cancel)) return out.failed = true, out;
  reverse_motion(sim);
  if (advance_unless(sim, steps, cancel)) return out.failed = true, out;
  reverse_motion(sim);
  out.position_error = largest_norm(sim.world().x - x0);
  out.velocity_error = largest_norm(sim.world().v - v0);
  return out;
}

double growth_per_step(const std::string& integrator, double omega_dt, int steps,
                       const ParamTable& options) {
  // A unit mass on a unit spring (omega = 1) anchored at the origin.
  World world;
  BodySpec body;
  body.position = Vec3(1, 0, 0);
  world.add_body(body);
  ParamTable link;
  link.set("a", 0.0);
  link.set("anchor", std::vector<double>{0, 0, 0});
  link.set("k", 1.0);
  link.set("rest", 0.0);
  ParamTable spring;
  spring.set("link", std::vector<ParamTable>{link});
  world.add_force(ForceRegistry::instance().make("spring", spring));
  Simulation sim(std::move(world), omega_dt, integrator, "buss2");
  sim.integrator().set_options(options);
  auto amplitude = [&] {
    const double x = sim.world().x(0, 0), v = sim.world().v(0, 0);
    return std::sqrt(x * x + v * v);
  };
  const double a0 = amplitude();
  // Stops early once the amplitude has grown or shrunk by 1e4: the rate is clear by then, and
  // tiny amplitudes would meet the implicit solvers' absolute tolerances.
  int done = 0;
  while (done < steps) {
    if (sim.step()) return std::numeric_limits<double>::infinity();
    ++done;
    const double ratio = amplitude() / a0;
    if (!(ratio < 1e150)) return std::numeric_limits<double>::infinity();
    if (ratio > 1e4 || ratio < 1e-4) break;
  }
  return std::pow(amplitude() / a0, 1.0 / done);
}

}  // namespace stepwise
