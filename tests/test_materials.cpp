// Materials against closed forms: Hertz's contact time with E* from two materials or from the
// body alone on a rigid wall, hooke's stiffnesses in series, a pair table's restitution, and the
// energy ledger of a settling pile of two materials under exact friction.
#include <cmath>

#include <doctest/doctest.h>

#include "core/random.hpp"
#include "core/simulation.hpp"

using namespace stepwise;

namespace {

ParamTable keys(std::initializer_list<std::pair<const char*, double>> values) {
  ParamTable t("test material");
  for (const auto& [k, v] : values) t.set(k, v);
  return t;
}

ParamTable wall_table(const std::string& material, bool rigid) {
  ParamTable wall;
  wall.set("point", std::vector<double>{0, 0, 0});
  wall.set("normal", std::vector<double>{0, 0, 1});
  if (!material.empty()) wall.set("material", material);
  if (rigid) wall.set("rigid", true);
  return wall;
}

struct Bounce {
  double duration, rebound;
};

// Body 0 falls at speed v onto body 1 (or the floor wall when there is no body 1), no gravity;
// the contact time and the ratio of separation to approach speed.
Bounce bounce(World world, double dt) {
  Simulation sim(world, dt, "velocity-verlet", "buss2");
  const bool pair = sim.world().size() > 1;
  auto gap = [&] {
    const World& w = sim.world();
    return pair ? (w.x.col(0) - w.x.col(1)).norm() - w.radius(0) - w.radius(1)
                : w.x(2, 0) - w.radius(0);
  };
  auto approach = [&] {
    const World& w = sim.world();
    return pair ? w.v(2, 1) - w.v(2, 0) : -w.v(2, 0);
  };
  const double v0 = approach();
  double touch = -1, leave = -1;
  while (leave < 0 && sim.time() < 1) {
    if (sim.step()) FAIL("non-finite");
    if (touch < 0 && gap() < 0) touch = sim.time();
    if (touch >= 0 && gap() >= 0) leave = sim.time();
  }
  REQUIRE(leave > 0);
  return {leave - touch, -approach() / v0};
}

// Hertz: t_c = 2.868 (m*^2 / (R* E*^2 v))^(1/5) (the elastic impact's closed form).
double hertz_time(double m_eff, double r_eff, double e_star, double v) {
  return 2.8683 * std::pow(m_eff * m_eff / (r_eff * e_star * e_star * v), 0.2);
}

World two_materials() {
  World world;
  world.materials.add("glass", keys({{"E", 6e7}, {"nu", 0.25}, {"e", 1.0}}), "glass");
  world.materials.add("steel", keys({{"E", 2e8}, {"nu", 0.3}, {"e", 1.0}}), "steel");
  return world;
}

BodySpec ball(int material, double z, double vz, double radius = 0.1, double mass = 1.0) {
  BodySpec b;
  b.material = material;
  b.radius = radius;
  b.mass = mass;
  b.position = Vec3(0, 0, z);
  b.velocity = Vec3(0, 0, vz);
  return b;
}

}  // namespace

TEST_CASE(
    "hertz materials: contact time from E* of the two materials, or of the body alone on a rigid "
    "wall") {
  const double glass = 6e7 / (1 - 0.25 * 0.25), steel = 2e8 / (1 - 0.3 * 0.3);  // E / (1 - nu^2)
  for (int material : {1, 2}) {  // glass, then steel, on one rigid floor
    World world = two_materials();
    world.add_body(ball(material, 0.1001, -1.0));
    ParamTable hertz;
    hertz.set("wall", std::vector<ParamTable>{wall_table("", true)});
    world.add_force(ForceRegistry::instance().make("hertz", hertz));
    const Bounce b = bounce(world, 2e-7);
    const double expected = hertz_time(1.0, 0.1, material == 1 ? glass : steel, 1.0);
    INFO("material " << material << ": t_c " << b.duration << " vs " << expected);
    CHECK(b.duration == doctest::Approx(expected).epsilon(0.003));
    CHECK(b.rebound == doctest::Approx(1).epsilon(1e-4));
  }
  {  // glass on a steel wall: both deform
    World world = two_materials();
    world.add_body(ball(1, 0.1001, -1.0));
    ParamTable hertz;
    hertz.set("wall", std::vector<ParamTable>{wall_table("steel", false)});
    world.add_force(ForceRegistry::instance().make("hertz", hertz));
    const double expected = hertz_time(1.0, 0.1, 1 / (1 / glass + 1 / steel), 1.0);
    const Bounce b = bounce(world, 2e-7);
    INFO("glass on steel: t_c " << b.duration << " vs " << expected);
    CHECK(b.duration == doctest::Approx(expected).epsilon(0.003));
  }
  {  // a glass ball (R 0.1, m 1) and a steel ball (R 0.05, m 3) head on
    World world = two_materials();
    world.add_body(ball(1, 0.1501, -0.5));
    world.add_body(ball(2, 0.0, 0.5, 0.05, 3.0));
    world.add_force(ForceRegistry::instance().make("hertz", ParamTable()));
    const double expected = hertz_time(0.75, 0.1 * 0.05 / 0.15, 1 / (1 / glass + 1 / steel), 1.0);
    const Bounce b = bounce(world, 2e-7);
    INFO("glass on steel balls: t_c " << b.duration << " vs " << expected);
    CHECK(b.duration == doctest::Approx(expected).epsilon(0.003));
    CHECK(b.rebound == doctest::Approx(1).epsilon(1e-4));
  }
}

TEST_CASE("materials: a pair table's restitution, and hooke's stiffnesses in series") {
  {  // glass against steel with e = 0.5 by the pair table; each against itself stays elastic
    World world = two_materials();
    world.materials.add_pair("glass", "steel", keys({{"e", 0.5}}), "pair");
    world.add_body(ball(1, 0.2001, -0.5));
    world.add_body(ball(2, 0.0, 0.5));
    world.add_force(ForceRegistry::instance().make("hertz", ParamTable()));
    const Bounce b = bounce(world, 2e-7);
    INFO("glass-steel restitution " << b.rebound);
    CHECK(b.rebound == doctest::Approx(0.5).epsilon(0.03));  // Tsuji's damping gives e to ~2%
  }
  {  // hooke: kn 1e5 against kn 4e5 is 2 kn_a kn_b / (kn_a + kn_b) = 1.6e5; m_eff 1/2
    World world;
    world.materials.add("soft", keys({{"kn", 1e5}, {"gamma_n", 0.0}}), "soft");
    world.materials.add("hard", keys({{"kn", 4e5}, {"gamma_n", 0.0}}), "hard");
    world.add_body(ball(1, 0.2001, -0.5));
    world.add_body(ball(2, 0.0, 0.5));
    world.add_force(ForceRegistry::instance().make("hooke", ParamTable()));
    const Bounce b = bounce(world, 1e-6);
    const double expected = M_PI / std::sqrt(1.6e5 / 0.5);
    INFO("hooke pair: t_c " << b.duration << " vs " << expected);
    CHECK(b.duration == doctest::Approx(expected).epsilon(0.002));
    CHECK(b.rebound == doctest::Approx(1).epsilon(1e-4));
  }
  {  // hooke on a rigid wall: only the body's half-spring, 2 kn
    World world;
    world.materials.add("soft", keys({{"kn", 1e5}, {"gamma_n", 0.0}}), "soft");
    world.add_body(ball(1, 0.1001, -0.5));
    ParamTable hooke;
    hooke.set("wall", std::vector<ParamTable>{wall_table("", true)});
    world.add_force(ForceRegistry::instance().make("hooke", hooke));
    const Bounce b = bounce(world, 1e-6);
    CHECK(b.duration == doctest::Approx(M_PI / std::sqrt(2e5)).epsilon(0.002));
  }
}

TEST_CASE("the ledger closes with exact friction on a settling pile of two materials") {
  auto pile = [](double dt) {
    World world;
    world.materials.add("glass", keys({{"E", 5e6}, {"nu", 0.25}, {"e", 0.6}, {"mu", 0.5}}),
                        "glass");
    world.materials.add("steel", keys({{"E", 2e7}, {"nu", 0.3}, {"e", 0.8}, {"mu", 0.3}}), "steel");
    Random random(3);
    for (int i = 0; i < 64; ++i) {
      BodySpec b = ball(1 + i % 2, 0.12 + 0.22 * (i / 16), 0, 0.1);
      b.position.x() = 0.22 * (i % 4) + random.uniform(-0.01, 0.01);
      b.position.y() = 0.22 * (i / 4 % 4) + random.uniform(-0.01, 0.01);
      b.velocity = Vec3(random.normal(), random.normal(), random.normal());
      world.add_body(b);
    }
    ParamTable gravity;
    gravity.set("g", std::vector<double>{0, 0, -9.81});
    world.add_force(ForceRegistry::instance().make("gravity", gravity));
    ParamTable hertz;
    hertz.set("coulomb", std::string("exact"));
    std::vector<ParamTable> walls{wall_table("steel", true)};
    for (int axis = 0; axis < 2; ++axis)
      for (double side : {-1.0, 1.0}) {
        ParamTable w;
        Vec3 n = Vec3::Zero();
        n(axis) = -side;
        Vec3 p = Vec3::Constant(0.33);
        p(axis) = 0.33 + side * 0.5;
        w.set("point", std::vector<double>{p.x(), p.y(), p.z()});
        w.set("normal", std::vector<double>{n.x(), n.y(), n.z()});
        w.set("material", std::string("glass"));
        walls.push_back(w);
      }
    hertz.set("wall", walls);
    world.add_force(ForceRegistry::instance().make("hertz", hertz));
    Simulation sim(world, dt, "velocity-verlet", "buss2");
    const double e0 = sim.energy().total;
    REQUIRE_FALSE(sim.advance(std::lround(1.0 / dt)));
    const EnergyReport r = sim.energy();
    CHECK(r.dissipated > 0.3 * (e0 - r.total));  // friction and damping took a good part
    return std::abs(r.energy_error);
  };
  const double coarse = pile(1e-4), fine = pile(5e-5);
  INFO("relative ledger error " << coarse << " -> " << fine);
  CHECK(coarse < 1e-3);
  CHECK(fine < 0.4 * coarse);  // the integrator's order, not a first-order leak
}
