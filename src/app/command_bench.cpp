// `stepwise bench`: throughput of a scene in particle-steps per second, printed in the same form
// as shared/bench/lammps/run-lammps.sh so the two can be compared line by line.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app/commands.hpp"
#include "core/limits.hpp"
#include "runtime/thread_pool.hpp"

namespace stepwise::cli {

int command_bench(const SceneOptions& scene, long steps, int threads, bool free_flight, long from) {
  limits::checked("--steps", double(steps), 1, limits::max_steps(), true);
  limits::checked("--from", double(from), 0, limits::max_steps(), true);
  if (threads < 1 || threads > 64) throw InputError("--threads: expected 1 to 64");
  LoadedRun run = load_run(scene);
  Simulation& sim = run.sim;
  ThreadPool pool(threads);  // the step's loops split over these; results fixed per count
  if (threads > 1) sim.set_parallel(&pool);
  sim.set_free_flight(free_flight);
  const int n = sim.world().size();
  // The first force evaluation and neighbour list outside the timed loop, as LAMMPS' setup.
  sim.energy();
  // A later phase (grains landing, say) timed alone: the steps before it taken untimed, as the
  // timed ones are (the first evaluation stays outside the timing either way).
  if (from > 0)
    if (auto failure = sim.advance(from)) {
      std::fprintf(stderr, "stepwise: %s\n", failure->message().c_str());
      return 3;
    }
  // Rigid contact: the deepest overlap any step left (measured at the next step's start, as a
  // peer engine's manifolds are), to set beside the speed.
  const bool rigid = sim.world().contact.impulse();
  double deepest = 0;
  const long flown_before = sim.flown_steps();  // (flights in the timed steps only)
  const auto start = std::chrono::steady_clock::now();
  // Rigid contact reads each step's figures; otherwise one advance (each step's closing passes
  // run with the next one's opening passes, as `stepwise run` steps between outputs).
  const long chunk = rigid ? 1 : steps;
  for (long s = 0; s < steps; s += chunk) {
    if (auto failure = sim.advance(chunk)) {
      std::fprintf(stderr, "stepwise: %s\n", failure->message().c_str());
      return 3;
    }
    if (rigid) deepest = std::max(deepest, sim.impulse_figures().max_depth);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const EnergyReport r = sim.energy();
  std::printf(
      "stepwise N=%d steps=%ld threads=%d loop_s=%.3f particle_steps_per_s=%.0f "
      "contacts_end=%d wall_contacts_end=%d flown_steps=%ld",
      n, steps, threads, seconds, n * double(steps) / seconds, r.contacts - r.wall_contacts,
      r.wall_contacts, sim.flown_steps() - flown_before);
  if (from > 0) std::printf(" from=%ld", from);
  if (rigid)
    std::printf(" iterations=%d max_overlap=%.4g", sim.world().contact.iterations, deepest);
  std::printf("\n");
  return 0;
}

}  // namespace stepwise::cli
