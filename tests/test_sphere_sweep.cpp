// The free-sphere sweep (core/sphere_sweep.hpp) against the passes it stands for: state and
// ledger bit for bit, on scenes that take each of its paths.
#include <doctest/doctest.h>

#include <functional>

#include "core/force_model.hpp"
#include "core/parallel.hpp"
#include "test_support.hpp"

using namespace stepwise;

namespace {

// Two tasks run one after the other: two threads' ranges without threads (the runtime tests run
// the sweep on a real pool).
class InTurn final : public Parallel {
 public:
  int threads() const override { return 2; }
  void run(int tasks, const std::function<void(int)>& fn) override {
    for (int t = 0; t < tasks; ++t) fn(t);
  }
};

struct Case {
  std::string scene;
  std::map<std::string, ParamValue> params;
  long steps;
  double drag = 0;  // a linear drag added (it does not mark: every body's drag work booked)
};

}  // namespace

TEST_CASE("the free-sphere sweep gives the passes' state and ledger, bit for bit") {
  // Settle: contacts, walls, gravity and the contacts' drag work booked where marked, over two
  // ranges. Billiards: a linear drag that does not mark (every body's drag work booked).
  // Spinning spheres: orientations turned, five bodies (a group of four and a tail), with such a
  // drag. Disks in the plane (2-D loads; a tail). Clumps and dice landing: no sphere, every body
  // through the rotation's own functions, with the contacts' drag work.
  const std::vector<Case> cases = {
      {"settle", {{"n", 3000.0}, {"nx", 15.0}, {"ny", 10.0}, {"nz", 20.0}}, 900},
      {"billiards", {}, 400},
      {"spinning-spheres", {}, 300, 0.5},
      {"disk-settle", {{"n", 61.0}}, 1000},
      {"clumps", {{"n", 30.0}}, 1000},
      {"dice", {{"n", 6.0}}, 1000}};
  InTurn in_turn;
  for (const Case& c : cases)
    for (const bool two_ranges : {false, true})
      for (const bool carried : {false, true}) {
        auto run = [&](bool sweep, long& swept) {
          SceneSetup setup = build_scene(c.scene, c.params);
          if (c.drag > 0) {
            ParamTable drag;
            drag.set("c", c.drag);
            setup.world.add_force(ForceRegistry::instance().make("linear-drag", drag));
          }
          Simulation sim(setup.world, setup.dt, "velocity-verlet", "buss2");
          if (two_ranges) sim.set_parallel(&in_turn);
          sim.set_fused(true, 64);  // many blocks per range
          sim.set_sphere_sweep(sweep);
          test::take_steps(sim, c.steps, carried);
          swept = sim.swept_steps();
          return test::run_end(sim);
        };
        long swept = 0, unswept = 0;
        const test::RunEnd passes = run(false, unswept);
        const test::RunEnd sweep = run(true, swept);
        INFO(c.scene << ", two ranges " << two_ranges << ", carried " << carried);
        CHECK(swept == c.steps);  // the sweep took every step
        CHECK(unswept == 0);
        test::check_same(sweep, passes);
        if (c.scene == "settle") CHECK(sweep.energy.contacts > 20);
        CHECK(sweep.energy.dissipated > 0);
      }
}

TEST_CASE("the free-sphere sweep steps aside where the passes do more") {
  // Driven ends (external work booked per body), local damping, and RK4 or Wang's leapfrog.
  struct Aside {
    std::string scene, integrator, rotation;
    std::map<std::string, ParamValue> params;
  };
  const std::vector<Aside> cases = {
      {"cube-chain", "velocity-verlet", "buss2", {{"rate", 0.5}}},
      {"cube-chain", "velocity-verlet", "buss2", {{"local_damping", 0.3}}},
      {"settle", "rk4", "buss2", {{"n", 48.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 3.0}}},
      {"settle",
       "velocity-verlet",
       "wang-leapfrog",
       {{"n", 48.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 3.0}}}};
  for (const Aside& c : cases) {
    SceneSetup setup = build_scene(c.scene, c.params);
    Simulation sim(setup.world, setup.dt, c.integrator, c.rotation);
    test::take_steps(sim, 20, true);
    INFO(c.scene << ", " << c.integrator << ", " << c.rotation);
    CHECK(sim.swept_steps() == 0);
  }
}
