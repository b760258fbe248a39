// Every loop the core splits among tasks, at sizes where the splits are uneven, tiny or empty.
// Loops are handed out only from thousands of bodies (kParallelMinBodies), so the built-in scenes
// at their classroom sizes never split and the split paths were reached only by a few large
// tests; a crash in one of them (contact loads combined over an inverted window) was found by a
// benchmark. Here a Parallel hands loops out from 16 bodies and 4 shape pairs, on 2, 3, 7 and 70
// threads (past kMaxTasks), running the tasks one after the other in reverse order (a task must
// not need an earlier one's work). Every scene must then repeat itself bit for bit, and follow its
// one-task run to round-off: the split only adds the same sums in another order.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/parallel.hpp"
#include "core/scene.hpp"
#include "core/simulation.hpp"
#include "test_support.hpp"

namespace stepwise {
namespace {

class SmallSplits final : public Parallel {
 public:
  explicit SmallSplits(int threads) : threads_(threads) {}
  int threads() const override { return threads_; }
  void run(int tasks, const std::function<void(int)>& fn) override {
    for (int t = tasks - 1; t >= 0; --t) fn(t);
  }
  int min_bodies() const override { return 16; }
  int min_pairs() const override { return 4; }

 private:
  int threads_;
};

// Sizes of a few dozen bodies (enough for several ranges of 16), the scenes' own otherwise.
std::map<std::string, ParamValue> small(const std::string& scene) {
  if (scene == "settle") return {{"n", 150.0}, {"nx", 6.0}, {"ny", 5.0}, {"nz", 5.0}};
  if (scene == "column-collapse") return {{"width", 4.0}, {"depth", 3.0}, {"height", 6.0}};
  if (scene == "disk-settle" || scene == "hourglass") return {{"n", 90.0}};
  if (scene == "active-brownian") return {{"n", 70.0}};
  if (scene == "clumps") return {{"n", 24.0}};
  if (scene == "two-materials") return {{"n", 60.0}};
  return {};
}

Simulation split_run(const std::string& scene, const std::string& integrator, Parallel* parallel,
                     long steps) {
  SceneSetup setup = build_scene(scene, small(scene));
  Simulation sim(setup.world, setup.dt, integrator.empty() ? setup.integrator : integrator,
                 setup.rotation);
  if (integrator.empty()) sim.integrator().set_options(setup.integrator_options);
  sim.set_seed(7);
  sim.set_parallel(parallel);
  REQUIRE_FALSE(sim.advance(steps));
  return sim;
}

// The largest difference between two states' columns, relative to the larger of the first's
// largest entry and 1.
double apart(const Positions& a, const Positions& b) {
  REQUIRE(a.cols() == b.cols());
  if (a.size() == 0) return 0;
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, a.cwiseAbs().maxCoeff());
}

}  // namespace

TEST_CASE("every scene split among 2 to 70 tasks from 16 bodies follows its one-task run") {
  constexpr long kSteps = 200;
  int split_scenes = 0;
  for (const std::string& scene : SceneRegistry::instance().names())
    for (const std::string integrator : {"", "rk4"}) {
      // The scene's own, and four trial evaluations a step where the grains' kernels run apart
      // from the sweep (the costly rigid scenes' splits are the same under either).
      if (!integrator.empty() && scene != "settle" && scene != "disk-settle" &&
          scene != "hourglass")
        continue;
      INFO(scene << " " << (integrator.empty() ? "(its integrator)" : integrator));
      Simulation one = split_run(scene, integrator, nullptr, kSteps);
      const test::RunEnd alone = test::run_end(one);
      if (one.world().size() >= 2 * 16) ++split_scenes;
      for (int threads : {2, 3, 7, 70}) {
        INFO(threads << " threads");
        SmallSplits parallel(threads);
        Simulation first = split_run(scene, integrator, &parallel, kSteps);
        Simulation again = split_run(scene, integrator, &parallel, kSteps);
        const test::RunEnd split = test::run_end(first);
        test::check_same(split, test::run_end(again));
        CHECK(apart(alone.x, split.x) < 1e-9);
        CHECK(apart(alone.v, split.v) < 1e-7);
        CHECK(apart(alone.L, split.L) < 1e-7);
        const double scale = std::max(1.0, std::abs(alone.energy.total));
        CHECK(std::abs(alone.energy.total - split.energy.total) < 1e-9 * scale);
        CHECK(std::abs(alone.energy.dissipated - split.energy.dissipated) < 1e-9 * scale);
      }
    }
  CHECK(split_scenes >= 6);  // the granular scenes at least take the split paths
}

}  // namespace stepwise

namespace stepwise {

TEST_CASE("granular contacts split from 16 bodies read packed or not, asking ahead or not, alike") {
  // Settle's grains at a few dozen bodies, their contact model remade with each way the kernels
  // read the bodies (and with the list's displacements bounded by the sweep), the passes fused
  // in blocks of 16 bodies: on 2, 3 and 7 tasks (windows of loads that miss blocks, ranges of a
  // block or none) every way must end bit for bit alike.
  constexpr long kSteps = 2500;
  for (int threads : {2, 3, 7}) {
    SmallSplits parallel(threads);
    auto run = [&](const std::string& motions, const std::string& prefetch,
                   const std::string& displacements = "measured") {
      SceneSetup setup = build_scene("settle", small("settle"));
      test::set_model_text(setup.world, "hooke", "motions", motions);
      test::set_model_text(setup.world, "hooke", "prefetch", prefetch);
      test::set_model_text(setup.world, "hooke", "displacements", displacements);
      Simulation sim(setup.world, setup.dt, setup.integrator, setup.rotation);
      sim.set_parallel(&parallel);
      sim.set_fused(true, 16);
      REQUIRE_FALSE(sim.advance(kSteps));
      return test::run_end(sim);
    };
    INFO(threads << " threads");
    const test::RunEnd reference = run("packed", "off");
    CHECK(reference.energy.contacts > 50);
    for (const auto& way : std::vector<std::pair<std::string, std::string>>{
             {"columns", "off"}, {"packed", "on"}, {"columns", "on"}, {"auto", "auto"}}) {
      INFO(way.first << ", prefetch " << way.second);  // (clang 14: no structured bindings here)
      test::check_same(run(way.first, way.second), reference);
    }
    test::check_same(run("auto", "auto", "bounded"), reference);
  }
}

}  // namespace stepwise
