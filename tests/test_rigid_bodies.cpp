// Mass properties of boxes and clumps against closed forms, and forces applied at points.
#include <doctest/doctest.h>

#include <cmath>

#include "core/simulation.hpp"
#include "core/world.hpp"

using namespace stepwise;

namespace {
const double kSphereVolume = 4.0 / 3.0 * M_PI * 0.125;  // r = 0.5
}

TEST_CASE("box inertia is exact") {
  const Vec3 I = box_inertia(12.0, Vec3(0.5, 1.0, 1.5));  // sides 1, 2, 3
  CHECK(I.isApprox(Vec3(2 * 2 + 3 * 3, 1 + 3 * 3, 1 + 2 * 2), 1e-15));
}

TEST_CASE("clump mass properties converge to closed forms") {
  SUBCASE("one sphere") {
    const MassProperties p = clump_mass_properties({{Vec3(0.2, -0.1, 0.3), 0.5}});
    CHECK(std::abs(p.volume / kSphereVolume - 1) < 1e-5);
    CHECK((p.centre - Vec3(0.2, -0.1, 0.3)).norm() < 1e-6);
    for (int k = 0; k < 3; ++k) CHECK(std::abs(p.principal(k) / (0.4 * 0.25 * kSphereVolume) - 1) < 1e-4);
  }
  SUBCASE("two separate spheres: parallel-axis theorem") {
    const MassProperties p = clump_mass_properties({{Vec3(-1, 0, 0), 0.5}, {Vec3(1, 0, 0), 0.5}});
    const double own = 0.4 * 0.25 * kSphereVolume;
    CHECK(std::abs(p.volume / (2 * kSphereVolume) - 1) < 1e-5);
    CHECK(std::abs(p.principal(0) / (2 * own) - 1) < 1e-4);
    CHECK(std::abs(p.principal(1) / (2 * (own + kSphereVolume)) - 1) < 1e-4);
    CHECK(std::abs(p.principal(2) / (2 * (own + kSphereVolume)) - 1) < 1e-4);
    CHECK(std::abs(std::abs((p.axes * Vec3::UnitX()).x()) - 1) < 1e-9);  // smallest axis along x
  }
  SUBCASE("two overlapping spheres: the lens is counted once") {
    const double r = 0.5, d = 0.6;
    const double lens = M_PI * (4 * r + d) * (2 * r - d) * (2 * r - d) / 12.0;
    const MassProperties p = clump_mass_properties({{Vec3(0, 0, 0), r}, {Vec3(d, 0, 0), r}});
    CHECK(std::abs(p.volume / (2 * kSphereVolume - lens) - 1) < 1e-5);
    CHECK(std::abs(p.centre.x() - d / 2) < 1e-6);
  }
  SUBCASE("principal axes of a tilted dumbbell") {
    const Vec3 axis = Vec3(1, 1, 0).normalized();
    const BodySpec b = clump_body({{-axis, 0.4}, {axis, 0.4}}, 3.0, Vec3(5, 0, 0));
    CHECK((b.position - Vec3(5, 0, 0)).norm() < 1e-9);
    CHECK(std::abs(std::abs((b.orientation * Vec3::UnitX()).dot(axis)) - 1) < 1e-9);
    World world;
    const int i = world.add_body(b);
    for (const ClumpSphere& s : world.clump[i]) CHECK(std::abs(std::abs(s.centre.x()) - 1) < 1e-9);
  }
}

TEST_CASE("a force at a point: torque r x F and the work-energy balance") {
  World world;
  BodySpec box;
  box.shape = Shape::Box;
  box.mass = 2.0;
  box.half_extents = Vec3(0.5, 0.2, 0.1);
  world.add_body(box);
  ParamTable push;
  push.set("body", 0.0);
  push.set("point", std::vector<double>{0.5, 0, 0});
  push.set("force", std::vector<double>{0, 1.0, 0});
  world.add_force(ForceRegistry::instance().make("point-force", push));
  for (const char* scheme : {"buss2", "rk4", "splitting", "wang-leapfrog"}) {
    Simulation sim(world, 1e-3, "velocity-verlet", scheme);
    const Vec3 torque = sim.torques().col(0);
    CHECK((torque - Vec3(0, 0, 0.5)).norm() < 1e-15);  // (0.5, 0, 0) x (0, 1, 0)
    REQUIRE_FALSE(sim.advance(2000));                  // the box spins up and tumbles
    const EnergyReport r = sim.energy();
    INFO(std::string(scheme) << " KE " << r.kinetic << " W " << r.external_work << " error " << r.energy_error);
    CHECK(r.kinetic > 0.5);
    CHECK(std::abs(r.energy_error) < 1e-6);  // kinetic energy gained = work done by the force
    CHECK((r.momentum - Vec3(0, 2.0, 0)).norm() < 1e-9);  // impulse F t
  }
}
