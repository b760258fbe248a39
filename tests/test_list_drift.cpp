// The neighbour list's common drift (core/contacts/list_drift.hpp): displacements measured from
// the build positions plus the path of the typical body. Any common drift keeps the list's
// bounds; these tests hold that the pairs found are still exactly the touching ones, and that
// the drift follows a falling body (so a cloud falling as one keeps its list and flies on).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/contacts/list_drift.hpp"
#include "core/contacts/neighbor_list.hpp"
#include "core/force_model.hpp"
#include "core/random.hpp"
#include "core/world.hpp"
#include "test_support.hpp"

using namespace stepwise;

TEST_CASE("the list's drift: the path of the median body, falling if it fell since the build") {
  // Velocity Verlet under a uniform field a moves a body by dt (v + k a dt) at the k-th step
  // after the build (v its half-step velocity then): where the median velocity changed by a's
  // pull since the last build, the drift must be at that sum, step after step, for the body
  // whose velocity is the median's; where it did not, the drift goes on at that velocity.
  const double dt = 1e-3;
  const Vec3 a(0.3, 0, -9.81);
  Positions v(3, 5);
  v << 1.0, -2.0, 0.5, 3.0, 0.0,     // median 0.5 in x,
      0.0, 0.0, 0.0, 0.0, 0.0,       // 0 in y,
      -1.0, -3.0, -2.0, -2.5, -1.5;  // -2 in z
  ListDrift drift;
  drift.restart(v, 5, a, 1.5, dt);  // the first build: nothing known of a fall
  CHECK(drift.accel() == Vec3::Zero());
  CHECK((drift.at(2.0) - Vec3(0.25, 0, -1)).norm() < 1e-15);
  for (int i = 0; i < 5; ++i) v.col(i) += 0.5 * a;  // half a second of free fall
  drift.restart(v, 5, a, 2.0, dt);
  CHECK(drift.accel() == a);
  Vec3 x = Vec3::Zero(), u = Vec3(0.5, 0.0, -2.0) + 0.5 * a;
  for (int k = 1; k <= 2000; ++k) {
    u += dt * a;  // the closing and opening half kicks
    x += dt * u;  // the drift
    const double t = 2.0 + k * dt;
    REQUIRE((drift.at(t) - x).norm() < 1e-12 * (1 + x.norm()));
    REQUIRE((drift.rate_at(t) - (u + 0.5 * dt * a)).norm() < 1e-12 * (1 + u.norm()));
  }
  CHECK(x.norm() > 10);  // (it fell some 20 units)
  CHECK(drift.at(2.0) == Vec3::Zero());
  // Come to rest (the median unchanged since): no fall; nor where it changed otherwise.
  drift.restart(v, 5, a, 3.0, dt);
  CHECK(drift.accel() == Vec3::Zero());
  for (int i = 0; i < 5; ++i) v.col(i) -= 0.5 * a;
  drift.restart(v, 5, a, 3.5, dt);
  CHECK(drift.accel() == Vec3::Zero());
  // Non-finite velocities are left out of the median; none finite, no drift at all.
  v(0, 1) = std::numeric_limits<double>::quiet_NaN();
  v(0, 3) = std::numeric_limits<double>::infinity();
  drift.restart(v, 5, Vec3::Zero(), 4.0, dt);
  CHECK(drift.rate_at(4.0).x() == 0.5);  // of 1, 0.5, 0
  Positions lost = Positions::Constant(3, 2, std::numeric_limits<double>::quiet_NaN());
  drift.restart(lost, 2, a, 5.0, dt);
  CHECK(drift.at(6.0) == Vec3::Zero());
  CHECK(drift.accel() == Vec3::Zero());
}

namespace {

// Bodies falling under g = 10 in a walled box of side 8, touching by hooke with the given skin
// and displacement bounds.
Simulation falling(const std::vector<BodySpec>& bodies, double skin,
                   const std::string& displacements) {
  World world;
  for (const BodySpec& b : bodies) world.add_body(b);
  ParamTable gravity, hooke;
  gravity.set("g", std::vector<double>{0.0, 0.0, -10.0});
  hooke.set("kn", 2000.0);
  hooke.set("skin", skin);
  hooke.set("displacements", displacements);
  hooke.set("wall", test::box_walls(8.0));
  world.add_force(ForceRegistry::instance().make("gravity", gravity));
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  return Simulation(world, 1e-3, "velocity-verlet", "buss2");
}

// The list's pairs counted at every step against the brute-force touching pairs, and the run
// against one that builds its list at every step (skin 0), bit for bit; the distances measured,
// and bounded by the sweep.
void check_pairs_found(const std::vector<BodySpec>& bodies, int pile) {
  for (const std::string displacements : {"measured", "bounded"}) {
    CAPTURE(displacements);
    Simulation wide = falling(bodies, 0.3, displacements), none = falling(bodies, 0.0, "measured");
    int miscounted = 0, most = 0;
    for (int step = 0; step < 1500; ++step) {
      REQUIRE_FALSE(wide.step());
      REQUIRE_FALSE(none.step());
      const EnergyReport report = wide.energy();
      const World& w = wide.world();
      const auto touching = NeighborList::brute_force(w.x, w.radius, 0.0);
      miscounted += report.contacts - report.wall_contacts != int(touching.size());
      most = std::max(most, report.contacts - report.wall_contacts);
    }
    CHECK(miscounted == 0);
    CHECK(most > pile);
    CHECK(wide.world().x == none.world().x);
    CHECK(wide.world().v == none.world().v);
    CHECK(wide.world().w == none.world().w);
    // (with no skin every opening pair leaves the list: its spring booked in another sum)
    CHECK(wide.energy().dissipated == doctest::Approx(none.energy().dissipated).epsilon(1e-12));
  }
}

BodySpec sphere(const Vec3& at, double radius, double mass, std::uint8_t flags = 0) {
  BodySpec b;
  b.position = at, b.radius = radius, b.mass = mass, b.flags = flags;
  return b;
}

}  // namespace

TEST_CASE("falling onto a pile or fixed spheres: with the drift, the pairs found are touching") {
  // A cloud that falls while it jostles (the drift moves with it), then piles up on the floor
  // (bodies stopped there move away from the drift). And a lattice falling as one (it stays at
  // the drift) onto a layer of fixed spheres (which move away from it: a sweep bounding their
  // distance by their own speed alone would never see them move, nor the lattice reach them).
  SUBCASE("cloud") {
    Random random(31);
    std::vector<BodySpec> cloud;
    for (int i = 0; i < 200; ++i) {
      const Vec3 at(random.uniform(0.5, 7.5), random.uniform(0.5, 7.5), random.uniform(1, 7.5));
      cloud.push_back(sphere(at, random.uniform(0.3, 0.5), random.uniform(0.5, 2.0)));
      cloud.back().velocity = 0.3 * Vec3(random.normal(), random.normal(), random.normal());
      cloud.back().angular_velocity = Vec3(random.normal(), random.normal(), random.normal());
    }
    check_pairs_found(cloud, 150);
  }
  SUBCASE("lattice onto fixed spheres") {
    std::vector<BodySpec> bodies;
    for (int k = 0; k < 16; ++k)
      bodies.push_back(sphere(Vec3(1.2 * (k % 4) + 1, 1.2 * (k / 4) + 1, 0.5), 0.5, 1.0, kFixed));
    for (int k = 0; k < 48; ++k)
      bodies.push_back(sphere(
          Vec3(1.2 * (k % 4) + 1.3, 1.2 * ((k / 4) % 4) + 1.3, 3 + 1.2 * (k / 16)), 0.5, 1.0));
    check_pairs_found(bodies, 40);
  }
}

TEST_CASE("a lattice falling as one keeps its list: flights end only at their length") {
  // 64 spheres 0.2 apart falling from rest under g = 1 with skin 0.1, no floor, for 1000 steps:
  // every body moves half the skin from its build within 320 steps, and ever faster, so
  // measured from the build alone the list is built again 9 times and each build ends a flight;
  // from the drift, falling since that first build, nothing moves: the flights after it are as
  // long as a flight may be (256 steps).
  World world;
  for (int k = 0; k < 64; ++k) {
    BodySpec b;
    b.mass = M_PI / 6;
    b.radius = 0.5;
    b.position = 1.2 * Vec3(k % 4, (k / 4) % 4, k / 16);
    world.add_body(b);
  }
  ParamTable gravity, hooke;
  gravity.set("g", std::vector<double>{0.0, 0.0, -1.0});
  hooke.set("skin", 0.1);
  world.add_force(ForceRegistry::instance().make("gravity", gravity));
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  Simulation flown(world, 1e-3, "velocity-verlet", "buss2");
  Simulation stepped(world, 1e-3, "velocity-verlet", "buss2");
  stepped.set_free_flight(false);
  REQUIRE_FALSE(flown.advance(1000));
  REQUIRE_FALSE(stepped.advance(1000));
  INFO(flown.flown_steps() << " steps flown in " << flown.flights() << " flights");
  CHECK(flown.flown_steps() > 900);
  CHECK(flown.flights() <= 5);
  test::check_same(test::run_end(flown), test::run_end(stepped));
}

TEST_CASE(
    "a lattice thrown up against a lid: walls screened by blocks as every body, bit for bit") {
  // The drift rises with the lattice and turns back under g: a block that touched the lid near
  // the top must not pass for far from it once the drift has come back down (the wall screen
  // bounds a body's distance from its build by its block's displacement from the drift plus the
  // drift's greatest length since the build, not its length now).
  for (const double lid : {4.3, 4.5, 4.7}) {
    CAPTURE(lid);
    auto run = [lid](const std::string& screen) {
      World world;
      for (int k = 0; k < 48; ++k) {
        BodySpec b;
        b.mass = 1.0;
        b.radius = 0.5;
        b.position = Vec3(1.2 * (k % 4) + 1.5, 1.2 * ((k / 4) % 4) + 1.5, 1.0 + 1.2 * (k / 16));
        b.velocity = Vec3(0.01 * (k % 3), 0.0, 4.0);
        world.add_body(b);
      }
      ParamTable gravity, hooke;
      gravity.set("g", std::vector<double>{0.0, 0.0, -10.0});
      hooke.set("kn", 2000.0);
      hooke.set("skin", 0.3);
      hooke.set("wall_screen", screen);
      std::vector<ParamTable> walls = test::box_walls(8.0);
      walls[5].set("point", std::vector<double>{0.0, 0.0, lid});
      hooke.set("wall", walls);
      world.add_force(ForceRegistry::instance().make("gravity", gravity));
      world.add_force(ForceRegistry::instance().make("hooke", hooke));
      Simulation sim(world, 1e-3, "velocity-verlet", "buss2");
      int lid_contacts = 0;
      for (int chunk = 0; chunk < 100; ++chunk) {
        REQUIRE_FALSE(sim.advance(10));
        const World& w = sim.world();
        for (int i = 0; i < w.size(); ++i) lid_contacts += w.x(2, i) + w.radius(i) > lid;
      }
      CHECK(lid_contacts > 0);  // (the top layer reached the lid)
      return test::run_end(sim);
    };
    test::check_same(run("auto"), run("all"));
  }
}
