// Bodies stored in spatial order (core/spatial_order.hpp): the World's columns move together
// and the order is local in space. (Files read in scattered order: test_spatial_files.cpp.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "core/spatial_order.hpp"
#include "test_support.hpp"

using namespace stepwise;

namespace {

// Mean distance in storage between bodies whose centres are within `reach`: small when bodies
// near in space are near in memory.
double storage_spread(const World& world, double reach) {
  double sum = 0;
  long pairs = 0;
  for (int i = 0; i < world.size(); ++i)
    for (int j = i + 1; j < world.size(); ++j)
      if ((world.x.col(i) - world.x.col(j)).norm() < reach) sum += j - i, ++pairs;
  return sum / double(std::max(pairs, 1L));
}

}  // namespace

TEST_CASE("World::reorder moves every column of a body together, its id with it") {
  World world;
  for (int i = 0; i < 7; ++i) {
    BodySpec b = i == 3 ? shaped_body(box_shape(Vec3(0.1, 0.2, 0.3)), 2.0) : BodySpec{};
    b.position = Vec3(i, -i, 2 * i);
    b.velocity = Vec3(0.5 * i, 1, -i);
    b.angular_velocity = Vec3(0.1 * i, 0.2, 0.3 * i);
    b.mass += i;
    b.radius = 0.1 + 0.01 * i;
    b.flags = i == 5 ? kFixed : i == 6 ? kDriven : 0;
    world.add_body(b);
  }
  const World before = world;
  const std::vector<int> order = {4, 0, 6, 3, 1, 5, 2};
  world.reorder(order);
  for (int k = 0; k < world.size(); ++k) {
    const int was = order[size_t(k)];
    INFO("slot " << k << " was " << was);
    CHECK(world.id(k) == was);
    CHECK(world.x.col(k) == before.x.col(was));
    CHECK(world.v.col(k) == before.v.col(was));
    CHECK(world.L.col(k) == before.L.col(was));
    CHECK(world.w.col(k) == before.w.col(was));
    CHECK(world.q[k].coeffs() == before.q[was].coeffs());
    CHECK(world.mass(k) == before.mass(was));
    CHECK(world.inv_mass(k) == before.inv_mass(was));
    CHECK(world.inertia.col(k) == before.inertia.col(was));
    CHECK((world.sphere_moment(k) == before.sphere_moment(was) ||
           (std::isnan(world.sphere_moment(k)) && std::isnan(before.sphere_moment(was)))));
    CHECK(world.radius(k) == before.radius(was));
    CHECK(world.shape[k] == before.shape[was]);
    CHECK(world.flags[k] == before.flags[was]);
    CHECK(world.material[k] == before.material[was]);
    CHECK(world.pivot.col(k) == before.pivot.col(was));
    CHECK(world.pivot_arm.col(k) == before.pivot_arm.col(was));
    CHECK(world.slot(was) == k);
  }
  // Ids compose; back in the first order they are left empty again. A new body gets the next id.
  std::vector<int> back(order.size());
  for (size_t k = 0; k < order.size(); ++k) back[size_t(order[k])] = int(k);
  World copy = world;
  copy.reorder(back);
  CHECK(copy.ids.empty());
  CHECK(copy.x == before.x);
  world.add_body(BodySpec{});
  CHECK(world.id(7) == 7);
  CHECK_THROWS(world.reorder({0, 0, 1, 2, 3, 4, 5, 6}));
}

TEST_CASE("spatial_order: bodies near in space end near in storage") {
  // A lattice of 4,352 spheres given in shuffled order.
  std::mt19937_64 random(7);
  std::vector<Vec3> places;
  for (int k = 0; k < 17; ++k)
    for (int j = 0; j < 16; ++j)
      for (int i = 0; i < 16; ++i) places.emplace_back(1.04 * i, 1.04 * j, 1.04 * k);
  std::shuffle(places.begin(), places.end(), random);
  World scattered;
  for (const Vec3& p : places) {
    BodySpec b;
    b.position = p;
    b.radius = 0.5;
    scattered.add_body(b);
  }
  World ordered = scattered;
  REQUIRE(order_spatially(ordered));
  CHECK(ordered.x.colwise().sum().sum() == doctest::Approx(scattered.x.colwise().sum().sum()));
  const double before = storage_spread(scattered, 1.1), after = storage_spread(ordered, 1.1);
  INFO("mean storage distance of touching neighbours: " << before << " -> " << after);
  CHECK(before > scattered.size() / 4.0);  // shuffled: about a third of N
  CHECK(after < scattered.size() / 25.0);  // along the curve: a few layers' worth at most
  // Too few bodies to pay, or a model that names bodies: left as given.
  World small;
  for (int i = 0; i < kSpatialOrderMinBodies - 1; ++i) small.add_body(scattered.body_spec(i));
  CHECK_FALSE(order_spatially(small));
  ParamTable link;
  link.set("a", 0.0);
  link.set("b", 1.0);
  ParamTable spring;
  spring.set("link", std::vector<ParamTable>{link});
  scattered.add_force(ForceRegistry::instance().make("spring", spring));
  CHECK_FALSE(order_spatially(scattered));
}

TEST_CASE("reorder_bodies mid-run, in random order: the same run by id as one left alone") {
  // 1,152 spheres thrown about a box with friction: many pairs touching, sliding and stuck, a
  // random permutation swaps the ranks of about half of them. Contact springs, wall springs and
  // the cached loads must all follow their bodies.
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> speed(-1.0, 1.0);
  World world;
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 12; ++j)
      for (int i = 0; i < 12; ++i) {
        BodySpec b;
        b.position = Vec3(0.6 + 1.02 * i, 0.6 + 1.02 * j, 0.6 + 1.02 * k);
        b.velocity = Vec3(speed(random), speed(random), speed(random));
        b.angular_velocity = Vec3(speed(random), speed(random), speed(random));
        b.radius = 0.5;
        world.add_body(b);
      }
  ParamTable g;
  g.set("g", std::vector<double>{0, 0, -1});
  world.add_force(ForceRegistry::instance().make("gravity", g));
  ParamTable hooke;
  for (const auto& [key, value] : std::map<std::string, double>{
           {"kn", 2000}, {"kt", 571}, {"gamma_n", 50}, {"gamma_t", 25}, {"mu", 0.5}, {"skin", 0.2}})
    hooke.set(key, value);
  hooke.set("wall", test::box_walls(12.5));
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  Simulation moved(world, 5e-4), alone(world, 5e-4);
  REQUIRE_FALSE(moved.advance(200));
  REQUIRE_FALSE(alone.advance(200));
  std::vector<int> order(size_t(world.size()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), random);
  REQUIRE(moved.reorder_bodies(order));
  CHECK(moved.world().id(0) == order[0]);
  REQUIRE_FALSE(moved.advance(400));
  REQUIRE_FALSE(alone.advance(400));
  const EnergyReport a = moved.energy(), b = alone.energy();
  CHECK(a.contacts == b.contacts);
  CHECK(a.wall_contacts == b.wall_contacts);
  CHECK(a.contacts > 200);  // (512 in the GCC build, 466 in the clang one: the pairs differ)
  CHECK(a.dissipated == doctest::Approx(b.dissipated).epsilon(1e-9));
  CHECK(a.total == doctest::Approx(b.total).epsilon(1e-9));
  double most = 0;
  for (int k = 0; k < world.size(); ++k) {
    const int id = moved.world().id(k);
    most = std::max({most, (moved.world().x.col(k) - alone.world().x.col(id)).norm(),
                     (moved.world().v.col(k) - alone.world().v.col(id)).norm(),
                     (moved.world().w.col(k) - alone.world().w.col(id)).norm()});
  }
  INFO("largest difference by id, 400 steps after: " << most);
  CHECK(most < 1e-8);
  // A method carrying per-body history (leapfrog's half-step velocities) and shapes other than
  // spheres keep their order.
  Simulation leapfrog(world, 5e-4, "leapfrog");
  REQUIRE_FALSE(leapfrog.advance(2));
  CHECK_FALSE(leapfrog.reorder_bodies(order));
  CHECK(leapfrog.world().ids.empty());
  World boxes = world;
  boxes.add_body(shaped_body(box_shape(Vec3(0.2, 0.2, 0.2)), 1.0, Vec3(20, 20, 20)));
  Simulation with_box(boxes, 5e-4);
  order.push_back(int(order.size()));
  CHECK_FALSE(with_box.reorder_bodies(order));
  CHECK(with_box.world().ids.empty());
}
