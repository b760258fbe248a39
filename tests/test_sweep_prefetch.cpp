// The sweep's asking ahead (core/sweep_prefetch.hpp): for the groups it will not leave alone,
// only past the cache, and no number changed.
#include <doctest/doctest.h>

#include "core/rotation_scheme.hpp"
#include "core/sphere_sweep.hpp"
#include "core/sweep_prefetch.hpp"
#include "sweep_support.hpp"
#include "test_support.hpp"

using namespace stepwise;

TEST_CASE("the sweep asks ahead for the groups it will not leave alone, changing no number") {
  // 40 groups of four free spheres: every third spins; the rest are still. An opening finds
  // the still groups; then every fifth has body 4g + 1 marked with a torque (still groups among
  // them), and closing and opening in one call, still known, asking ahead and not: bit for bit,
  // and asked for exactly the groups from kAhead on (those the loop reaches ahead) that spin or
  // are marked (and, the still groups not known, every one).
  const int n = 160, groups = n / 4;
  auto spins = [](int g) { return g % 3 == 0; };
  auto marked = [](int g) { return g % 5 == 1; };
  const World world = test::row_of_spheres(
      n, [&](int i) { return spins(i / 4) ? Vec3(0.2, -0.1, 0.3 + 0.01 * i) : Vec3::Zero(); });
  std::vector<std::uint8_t> marks(n, 0), still(groups + 1, 0);
  Positions torque = Positions::Zero(3, n);
  const Positions drag = Positions::Zero(3, n);
  std::unique_ptr<RotationScheme> rotation = RotationRegistry::instance().make("buss2");
  struct Swept {
    World world;
    Positions force, torque;
    std::vector<std::uint8_t> still;
    SweepCounts counts[kMaxTasks] = {};
  };
  auto sweep = [&](Swept& out, bool close, bool known, bool ask, bool streams = false) {
    double sums[8 * kMaxTasks] = {};
    SphereSweep s = test::marked_sweep(out.force, out.torque, drag, marks, sums, out.counts);
    s.still = out.still.data();
    s.still_known = known;
    s.ask_ahead = ask;
    s.ask_streams = streams;
    s.close = close;
    bool finite = true;
    sweep_spheres(out.world, *rotation, s, 0, 0, n, &finite);
    CHECK(finite);
  };
  Swept first{world, Positions::Constant(3, n, 0.25), torque, still};
  sweep(first, false, false, false);  // (the still groups found, none marked yet)
  for (int g = 0; g < groups; ++g)    // (then marked: still groups under a torque from now on)
    if (marked(g)) marks[4 * g + 1] = 1, torque.col(4 * g + 1) = Vec3(0.3, -0.2, 0.1);
  first.force.setConstant(0.25);
  first.torque = torque;
  Swept asking = first, plain = first, unknown = first, streams = first;
  asking.counts[0] = plain.counts[0] = unknown.counts[0] = streams.counts[0] = {};
  sweep(asking, true, true, true);
  sweep(streams, true, true, true, true);  // (every group's position, velocity and loads too)
  sweep(plain, true, true, false);
  sweep(unknown, true, false, true);  // (stills not known: every group's L and w are read)
  CHECK(unknown.counts[0].asked == groups - sweep_prefetch::kAhead / 4);
  long expected = 0;
  for (int g = sweep_prefetch::kAhead / 4; g < groups; ++g) expected += spins(g) || marked(g);
  CHECK(expected > 10);
  CHECK(asking.counts[0].asked == expected);
  CHECK(plain.counts[0].asked == 0);
  CHECK(asking.counts[0].unturned == plain.counts[0].unturned);
  CHECK(asking.still == plain.still);
  test::check_same_sweep(asking.world, asking.force, asking.torque, plain.world, plain.force,
                         plain.torque);
  CHECK(streams.counts[0].asked == expected);  // (the rotation state: as without the streams)
  CHECK(streams.still == plain.still);
  test::check_same_sweep(streams.world, streams.force, streams.torque, plain.world, plain.force,
                         plain.torque);
  // The streams are asked for only far past the cache: 1,000,000 grains, not 97,336 or 262,144.
  CHECK(sweep_prefetch::worth_asking_streams(1000000));
  CHECK(!sweep_prefetch::worth_asking_streams(262144));
  CHECK(sweep_prefetch::worth_asking(97336));
  CHECK(!sweep_prefetch::worth_asking_streams(97336));
}

// Slow (33 s of the sanitized core tests): the asking's paths are taken at 160 bodies above, and
// the sweep against the passes in test_sphere_sweep.cpp; this one is the threshold at real sizes.
TEST_CASE("a run past the cache asks ahead, and steps as the passes do" *
          doctest::test_suite("slow")) {
  // 72,000 grains of settle (past the 16 MB the asking waits for), landing: the sweep asks for
  // the spinning groups' state, and the state and ledger are the passes' to the bit. Below that
  // size (64,000 and 3,000 grains) it does not ask.
  for (const double n : {72000.0, 64000.0, 3000.0}) {
    const bool large = n > 5000;
    const std::map<std::string, ParamValue> params = {{"n", n},
                                                      {"nx", large ? 40.0 : 15.0},
                                                      {"ny", large ? 40.0 : 10.0},
                                                      {"nz", large ? n / 1600 : 20.0}};
    auto run = [&](bool sweep, long& asked) {
      SceneSetup setup = build_scene("settle", params);
      Simulation sim(setup.world, setup.dt, "velocity-verlet", "buss2");
      sim.set_sphere_sweep(sweep);
      test::take_steps(sim, 500, true);
      asked = sim.sweep_counts().asked;
      return test::run_end(sim);
    };
    long asked = 0, unswept = 0;
    const test::RunEnd swept = run(true, asked), passes = run(false, unswept);
    INFO("n = " << n);
    CHECK((asked > 1000) == (n > 70000));
    CHECK(unswept == 0);
    CHECK(swept.energy.contacts > 20);
    test::check_same(swept, passes);
  }
}
