// Where the settle lattice's grains touch while they land: steps the lattice of K^3 spheres and,
// over 32 steps from a few points of the run, counts the bodies that touched something (their
// velocity 32 steps on differs from free fall's by more than 1e-9) and the share of bodies in
// chunks of 512 along the curve that nothing touched (what flying such chunks apart from the rest
// could take). Prints figures; not a test. Usage: bench_touched [K] (default 100: 1,000,000).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "core/scene.hpp"
#include "core/simulation.hpp"

using namespace stepwise;

int main(int argc, char** argv) {
  long side = 100;
  if (argc > 1) {
    char* end = nullptr;
    side = std::strtol(argv[1], &end, 10);
    if (argc > 2 || end == argv[1] || *end != '\0' || side < 2 || side > 120) {
      std::fprintf(stderr, "bench_touched: K must be a whole number from 2 to 120\n");
      return 2;
    }
  }
  constexpr int kWindow = 32, kChunk = 512;
  const double k = double(side);
  constexpr double kG = 1.0;  // the settle scene's gravity, set here so free fall is known
  SceneSetup setup =
      build_scene("settle", {{"n", k * k * k}, {"nx", k}, {"ny", k}, {"nz", k}, {"g", kG}});
  Simulation sim(setup.world, setup.dt, setup.integrator, setup.rotation);
  const int n = sim.world().size();
  const Vec3 g(0, 0, -kG);
  auto step = [&](long steps) {
    const std::optional<StepFailure> failure = sim.advance(steps);
    if (failure) std::fprintf(stderr, "bench_touched: %s\n", failure->message().c_str());
    return !failure;
  };
  long at = 0;
  for (long from : {200L, 300L, 400L, 500L, 600L, 800L}) {
    if (!step(from - at)) return 1;
    const Positions before = sim.world().v;
    if (!step(kWindow)) return 1;
    at = from + kWindow;
    const Positions& after = sim.world().v;
    std::vector<char> touched(size_t(n), 0);
    long bodies = 0;
    for (int i = 0; i < n; ++i) {
      const Vec3 free = before.col(i) + g * (kWindow * setup.dt);
      touched[size_t(i)] = (after.col(i) - free).lpNorm<Eigen::Infinity>() > 1e-9;
      bodies += touched[size_t(i)];
    }
    long quiet = 0;
    for (int c = 0; c < n; c += kChunk) {
      const int last = std::min(n, c + kChunk);
      bool any = false;
      for (int i = c; i < last; ++i) any = any || touched[size_t(i)];
      if (!any) quiet += last - c;
    }
    std::printf(
        "N=%d steps %ld-%ld: touched %.1f%% of the bodies; untouched chunks of %d hold %.1f%%\n", n,
        from, from + kWindow, 100.0 * double(bodies) / n, kChunk, 100.0 * double(quiet) / n);
  }
  return 0;
}
