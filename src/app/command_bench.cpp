// `stepwise bench`: throughput of a scene in particle-steps per second, printed in the same form
// as shared/bench/lammps/run-lammps.sh so the two can be compared line by line.
#include <chrono>
#include <cstdio>

#include "app/commands.hpp"
#include "core/limits.hpp"
#include "runtime/thread_pool.hpp"

namespace stepwise::cli {

int command_bench(const SceneOptions& scene, long steps, int threads) {
  limits::checked("--steps", double(steps), 1, limits::max_steps(), true);
  if (threads < 1 || threads > 64) throw InputError("--threads: expected 1 to 64");
  LoadedRun run = load_run(scene);
  Simulation& sim = run.sim;
  ThreadPool pool(threads);  // the step's loops split over these; results fixed per count
  if (threads > 1) sim.set_parallel(&pool);
  const int n = sim.world().size();
  sim.energy();  // first force evaluation and neighbour list outside the timed loop, as LAMMPS' setup
  const auto start = std::chrono::steady_clock::now();
  if (auto failure = sim.advance(steps)) {
    std::fprintf(stderr, "stepwise: %s\n", failure->message().c_str());
    return 3;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const EnergyReport r = sim.energy();
  std::printf("stepwise N=%d steps=%ld threads=%d loop_s=%.3f particle_steps_per_s=%.0f "
              "contacts_end=%d wall_contacts_end=%d\n",
              n, steps, threads, seconds, n * double(steps) / seconds,
              r.contacts - r.wall_contacts, r.wall_contacts);
  return 0;
}

}  // namespace stepwise::cli
