// Bodies stored in spatial order (core/spatial_order.hpp): the World's columns move together
// and the order is local in space. (Files read in scattered order: test_spatial_files.cpp.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/spatial_order.hpp"

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
