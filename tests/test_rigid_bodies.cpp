// Mass properties of boxes and clumps against closed forms, and forces applied at points.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/clump.hpp"
#include "core/shapes/convex_hull.hpp"
#include "core/simulation.hpp"
#include "core/world.hpp"

using namespace stepwise;

namespace {
const double kSphereVolume = 4.0 / 3.0 * M_PI * 0.125;  // r = 0.5
}

TEST_CASE("box inertia is exact") {
  const Vec3 I = 12.0 * box_shape(Vec3(0.5, 1.0, 1.5))->unit_inertia();  // sides 1, 2, 3
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
    for (const ClumpSphere& s : world.shape[i]->members()) CHECK(std::abs(std::abs(s.centre.x()) - 1) < 1e-9);
  }
}

TEST_CASE("a force at a point: torque r x F and the work-energy balance") {
  World world;
  BodySpec box;
  box.shape = box_shape(Vec3(0.5, 0.2, 0.1));
  box.mass = 2.0;
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

TEST_CASE("polyhedra: exact mass properties, hull faces, and refused input") {
  SUBCASE("a regular tetrahedron: V = a^3 / (6 sqrt 2), I = m a^2 / 20 about every axis") {
    const ShapePtr t = polyhedron_shape({{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}});
    const double a = 2 * std::sqrt(2.0);
    CHECK(std::abs(t->volume() - a * a * a / (6 * std::sqrt(2.0))) < 1e-14);
    CHECK((t->unit_inertia() - Vec3::Constant(a * a / 20)).norm() < 1e-14);
    CHECK(t->hull()->faces.size() == 4);
    CHECK(t->hull()->edges.size() == 6);
  }
  SUBCASE("a shifted, turned box given by its corners is the box, placed at its centroid") {
    const Vec3 half(0.5, 0.2, 0.1), shift(5, -1, 2);
    const Quat turn = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
    std::vector<Vec3> corners;
    for (int k = 0; k < 8; ++k)
      corners.push_back(shift + turn * Vec3(k & 1 ? -half.x() : half.x(), k & 2 ? -half.y() : half.y(),
                                            k & 4 ? -half.z() : half.z()));
    const ShapePtr p = polyhedron_shape(corners);
    const ShapePtr box = box_shape(half);
    CHECK(std::abs(p->volume() - box->volume()) < 1e-14);
    Vec3 got = p->unit_inertia(), want = box->unit_inertia();
    std::sort(got.data(), got.data() + 3);
    std::sort(want.data(), want.data() + 3);
    CHECK((got - want).norm() < 1e-13);
    CHECK((p->frame().centre - shift).norm() < 1e-13);
    CHECK(p->hull()->faces.size() == 6);
    CHECK(p->hull()->directions.size() == 3);
    CHECK(std::abs(p->bounding_radius() - half.norm()) < 1e-13);
    const BodySpec b = shaped_body(p, 2.0, Vec3(1, 0, 0));
    CHECK((b.position - (Vec3(1, 0, 0) + shift)).norm() < 1e-13);
  }
  SUBCASE("flat, non-convex or too few points are refused, naming the problem") {
    CHECK_THROWS_WITH_AS(polyhedron_shape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}),
                         doctest::Contains("flat"), InputError);
    CHECK_THROWS_WITH_AS(polyhedron_shape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}),
                         doctest::Contains("4 to 64 vertices"), InputError);
    CHECK_THROWS_WITH_AS(
        polyhedron_shape({{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {0.1, 0, 0}}),
        doctest::Contains("vertex 4 is not a corner"), InputError);
  }
}

// A body refused at the door (here: a material the World does not have, once checked only after
// the other arrays were appended) leaves every per-body array as it was, not some one longer.
TEST_CASE("a refused body leaves the World as it was") {
  World world;
  BodySpec good;
  good.radius = 0.5;
  world.add_body(good);
  world.add_body(good);
  BodySpec bad = good;
  bad.material = 3;  // no such material
  CHECK_THROWS_WITH_AS(world.add_body(bad), "body 2: no material 3", InputError);
  CHECK(world.size() == 2);
  for (Eigen::Index cols : {world.x.cols(), world.v.cols(), world.L.cols(), world.w.cols(),
                            world.inertia.cols(), world.pivot.cols(), world.pivot_arm.cols(),
                            world.radius.size(), world.sphere_moment.size(), world.inv_mass.size()})
    CHECK(cols == 2);
  CHECK(world.q.size() == 2);
  CHECK(world.shape.size() == 2);
  CHECK(world.flags.size() == 2);
  CHECK(world.material.size() == 2);
  world.add_body(good);  // and takes the next one as body 2
  CHECK(world.size() == 3);
  CHECK(world.x.cols() == 3);
}
