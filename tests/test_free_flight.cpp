// Free flight (Simulation::fly, core/simulation_flight.cpp) against stepping: the state, the
// ledger, the contacts and the cached loads bit for bit; and the bounds it rests on
// (core/contacts/quiet_bounds.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include "core/contacts/quiet_bounds.hpp"
#include "core/force_model.hpp"
#include "core/parallel.hpp"
#include "test_support.hpp"

using namespace stepwise;

TEST_CASE("free flight leaves the state, ledger, contacts and loads of stepping, bit for bit") {
  // Settle's grains from the lattice to the pile: the flights end at the list's rebuilds, before
  // the first grains reach the floor and one another, and stop once they touch; taken in one
  // advance() and in calls of 37 steps, on one range and two. Disks in the plane: the same in
  // 2-D. A small settle whose lattice has no room: no flight. Settle again with the sweep
  // bounding the list's displacements (which a flight moves past unseen).
  struct Case {
    std::string scene;
    std::map<std::string, ParamValue> params;
    long steps;
    long flights;  // at least, in one advance() (0: none)
    bool bounded = false;
  };
  const std::vector<Case> cases = {
      {"settle", {{"n", 3000.0}, {"nx", 15.0}, {"ny", 10.0}, {"nz", 20.0}}, 1500, 2},
      {"settle", {{"n", 3000.0}, {"nx", 15.0}, {"ny", 10.0}, {"nz", 20.0}}, 1500, 2, true},
      {"disk-settle", {{"n", 400.0}}, 1500, 1},
      {"settle", {{"n", 48.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 3.0}, {"spacing", 1.0}}, 300, 0}};
  test::InTurn in_turn;
  for (const Case& c : cases)
    for (const bool two_ranges : {false, true})
      for (const long per_call : {c.steps, 37L}) {
        long flown = 0, flights = 0, contacts_seen = 0;
        Positions forces;
        auto run = [&](bool fly) {
          SceneSetup setup = build_scene(c.scene, c.params);
          if (c.bounded) test::set_model_text(setup.world, "hooke", "displacements", "bounded");
          Simulation sim(setup.world, setup.dt, "velocity-verlet", "buss2");
          if (two_ranges) sim.set_parallel(&in_turn);
          sim.set_free_flight(fly);
          contacts_seen = 0;
          for (long done = 0; done < c.steps; done += per_call) {
            REQUIRE_FALSE(sim.advance(std::min(per_call, c.steps - done)));
            contacts_seen = std::max(contacts_seen, long(sim.energy().contacts));
          }
          flown = sim.flown_steps();
          flights = sim.flights();
          CHECK(sim.step_count() == c.steps);
          forces = sim.forces();
          return test::run_end(sim);
        };
        const test::RunEnd stepped = run(false);
        const Positions stepped_forces = forces;
        CHECK(flown == 0);
        const test::RunEnd flown_end = run(true);
        INFO(c.scene << (c.bounded ? " bounded" : "") << ", two ranges " << two_ranges << ", "
                     << per_call << " steps a call: " << flown << " steps flown in " << flights
                     << " flights");
        test::check_same(flown_end, stepped);
        CHECK(test::same_bits(forces, stepped_forces));
        CHECK(flown_end.energy.contacts == stepped.energy.contacts);
        CHECK(flown_end.energy.wall_contacts == stepped.energy.wall_contacts);
        CHECK(flown_end.energy.time == stepped.energy.time);
        if (c.flights > 0) {
          CHECK(flown > c.steps / 10);  // (the fall before the first touch)
          CHECK(flights >= c.flights);
          CHECK(contacts_seen > 0);  // and it went on into the contacts
          CHECK(flown_end.energy.dissipated > 0);
        } else {
          CHECK(flown == 0);
        }
      }
}

namespace {

// Unit spheres (mass pi/6) at `at` moving at `v`, with `flags`.
void add_sphere(World& world, const Vec3& at, const Vec3& v = Vec3::Zero(),
                std::uint8_t flags = 0) {
  BodySpec b;
  b.mass = M_PI / 6;
  b.radius = 0.5;
  b.position = at;
  b.velocity = v;
  b.flags = flags;
  world.add_body(b);
}

// The World under g = 1 down with hooke contacts (the skin, walls) run `steps` steps of 1e-3
// stepped and flown: both ends, and how many steps were flown.
struct Both {
  test::RunEnd stepped, flown;
  long flown_steps = 0;
};
Both stepped_and_flown(const World& bodies, double skin, const std::vector<ParamTable>& walls,
                       long steps) {
  Both out;
  for (const bool fly : {false, true}) {
    World world = bodies;
    ParamTable g, hooke;
    g.set("g", std::vector<double>{0.0, 0.0, -1.0});
    world.add_force(ForceRegistry::instance().make("gravity", g));
    hooke.set("skin", skin);
    if (!walls.empty()) hooke.set("wall", walls);
    world.add_force(ForceRegistry::instance().make("hooke", hooke));
    Simulation sim(world, 1e-3, "velocity-verlet", "buss2");
    sim.set_free_flight(fly);
    REQUIRE_FALSE(sim.advance(steps));
    (fly ? out.flown : out.stepped) = test::run_end(sim);
    if (fly) out.flown_steps = sim.flown_steps();
  }
  return out;
}

}  // namespace

TEST_CASE("free flight stops before two free spheres meet, listed or not") {
  // Two spheres falling side by side under g and closing head on, with no floor: a pair in the
  // list (gap 0.15 < skin 0.2, closing at 1: touching at step 150, before either has moved
  // skin/2 at step 200), and a pair beyond it (gap 2, closing at 10: the list sees them only
  // after rebuilds, every 20 steps). Each meets, bounces and parts within 400 steps; flying
  // through the meeting (without the pair bound, or without the list's displacement limit)
  // would miss it.
  struct Pair {
    double gap, speed;
  };
  for (const Pair& p : {Pair{0.15, 0.5}, Pair{2.0, 5.0}}) {
    World world;
    for (const int side : {-1, 1})
      add_sphere(world, Vec3(side * (0.5 + 0.5 * p.gap), 0.3, 2.0),
                 Vec3(-side * p.speed, 0.0, 0.1));
    const Both run = stepped_and_flown(world, 0.2, {}, 400);
    INFO("gap " << p.gap << ": " << run.flown_steps << " steps flown");
    CHECK(run.flown_steps > 100);
    test::check_same(run.flown, run.stepped);
    CHECK(run.stepped.energy.dissipated > 1e-3);  // they met
    CHECK(run.stepped.v(0, 0) * p.speed < 0);     // and bounced back
  }
}

TEST_CASE("free flight stops before a rising floor and a fixed sphere are met") {
  // 16 spheres on a grid 2 apart (list partners falling alike) falling from rest under g = 1
  // onto a floor that rises at 0.5 from z = -1 (they meet near step 1000); and, apart, a sphere
  // falling from 0.2 above a fixed one (a pair in the list whose accelerations differ: they meet
  // near step 630). A flight bound that took the floor as still or the fixed sphere as falling
  // would fly through the meeting. (A skin of 2, so the list's displacement limit does not end
  // the flights first.)
  ParamTable floor;
  floor.set("point", std::vector<double>{0.0, 0.0, -1.0});
  floor.set("normal", std::vector<double>{0.0, 0.0, 1.0});
  floor.set("velocity", std::vector<double>{0.0, 0.0, 0.5});
  World grid, pair;
  for (int k = 0; k < 16; ++k) add_sphere(grid, Vec3(2.0 * (k % 4), 2.0 * (k / 4), 0.5));
  add_sphere(pair, Vec3(0, 0, 0.5), Vec3::Zero(), kFixed);
  add_sphere(pair, Vec3(0, 0, 1.7));
  const Both rising = stepped_and_flown(grid, 2.0, {floor}, 1500);
  const Both fixed = stepped_and_flown(pair, 2.0, {}, 1500);
  INFO("rising floor: " << rising.flown_steps << ", fixed sphere: " << fixed.flown_steps
                        << " steps flown");
  CHECK(rising.flown_steps > 300);
  CHECK(fixed.flown_steps > 300);
  test::check_same(rising.flown, rising.stepped);
  test::check_same(fixed.flown, fixed.stepped);
  CHECK(rising.stepped.energy.external_work > 0.1);  // the floor pushed the grid up
  CHECK(fixed.stepped.x(2, 1) > 1.4);  // the falling sphere rests on the fixed one (from 1.7;
  CHECK(fixed.stepped.x(2, 1) < 1.6);  // it would be at 0.58 had it passed through)
}

TEST_CASE("free flight's bounds: never later than the quantity reaches its limit") {
  using namespace quiet;
  // Head on: a gap of 0.1 closing at 2 touches at t = 0.05; with no room, at once.
  const double t = pair_time(Vec3(1.1, 0, 0), Vec3(-2, 0, 0), Vec3::Zero(), 1.0, 0.0);
  CHECK(t == doctest::Approx(0.05).epsilon(1e-12));
  CHECK(pair_time(Vec3(0.9, 0, 0), Vec3::Zero(), Vec3::Zero(), 1.0, 0.0) == 0);
  // Moving apart still counts as closing at |dv| (the bound is a bound), and the same
  // acceleration leaves two free bodies' gap to their velocities alone.
  CHECK(pair_time(Vec3(1.1, 0, 0), Vec3(2, 0, 0), Vec3::Zero(), 1.0, 0.0) <= 0.05 + 1e-15);
  CHECK(std::isinf(pair_time(Vec3(1.1, 0, 0), Vec3::Zero(), Vec3::Zero(), 1.0, 0.0)));
  // Falling from rest 0.5 above a floor under g = 2: h = 0.5 - t^2 touches at t = sqrt(0.5).
  const double fall = wall_time(0.5, Vec3::UnitZ(), Vec3::Zero(), Vec3::Zero(), Vec3(0, 0, -2), 0);
  CHECK(fall == doctest::Approx(std::sqrt(0.5)).epsilon(1e-12));
  // A floor rising at 1 towards a body at rest 0.5 above it: t = 0.5; one sinking away: never.
  CHECK(wall_time(0.5, Vec3::UnitZ(), Vec3::Zero(), Vec3(0, 0, 1), Vec3::Zero(), 0) ==
        doctest::Approx(0.5));
  CHECK(std::isinf(wall_time(0.5, Vec3::UnitZ(), Vec3::Zero(), Vec3(0, 0, -1), Vec3::Zero(), 0)));
  // From 0.02 out of a limit of 0.1, at speed 0.4 and acceleration 1: 0.08 = 0.4 t + t^2 / 2.
  const double drift = drift_time(0.02, Vec3(0, 0.4, 0), Vec3(0, 0, 1), 0.1, 0);
  CHECK(0.4 * drift + 0.5 * drift * drift == doctest::Approx(0.08).epsilon(1e-12));
  // Steps whose evaluation comes strictly before t: at t = 10 dt, steps 1..9.
  CHECK(steps_before(1.0, 0.1, 100) == 9);
  CHECK(steps_before(1.05, 0.1, 100) == 10);
  CHECK(steps_before(1.0, 0.1, 5) == 5);
  CHECK(steps_before(0.0, 0.1, 5) == 0);
  CHECK(steps_before(std::numeric_limits<double>::infinity(), 0.1, 7) == 7);
}
