// Constraints by Lagrange multipliers (seed 004): closed-form periods and equilibria, forces that
// do no work, drift control, and sets that are redundant or cannot be kept.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "constraint_support.hpp"
#include "core/constraints/constraint_set.hpp"
#include "core/constraints/constraint_solver.hpp"
#include "core/scenes/rigid_scene_helpers.hpp"
#include "core/shapes/shape.hpp"
#include "test_support.hpp"

namespace stepwise {

using test::crossing_period;
using test::figure;
using test::kPeriod90;
using test::scene_simulation;

TEST_CASE("a pendulum released at 90 degrees swings with period 7.416299 sqrt(L/g)") {
  const double L = 1.3, g = 9.81, T = kPeriod90 * std::sqrt(L / g);
  CHECK(4 * elliptic_k(0.5) == doctest::Approx(kPeriod90).epsilon(1e-12));
  SUBCASE("multipliers, RK4, no drift control") {
    Simulation sim =
        scene_simulation("pendulum", "rk4", 1e-3, {{"length", L}, {"drift", std::string("none")}});
    const double error = crossing_period(sim, 0, 0, 0.0, 20000) / T - 1;
    MESSAGE("rk4: relative period error " << error);
    CHECK(std::abs(error) < 1e-4);
  }
  SUBCASE("multipliers, velocity Verlet with RATTLE") {
    Simulation sim = scene_simulation("pendulum", "velocity-verlet", 2e-4,
                                      {{"length", L}, {"drift", std::string("rattle")}});
    const double error = crossing_period(sim, 0, 0, 0.0, 100000) / T - 1;
    MESSAGE("velocity Verlet + RATTLE: relative period error " << error);
    CHECK(std::abs(error) < 1e-4);
  }
  SUBCASE("penalty springs approach it as k grows") {
    double previous = 1;
    for (double k : {1e4, 1e5, 1e6}) {
      Simulation sim =
          scene_simulation("pendulum", "velocity-verlet", 0.02 / std::sqrt(k),
                           {{"length", L}, {"formulation", std::string("penalty")}, {"k", k}});
      const double error = std::abs(crossing_period(sim, 0, 0, 0.0, 200000000) / T - 1);
      MESSAGE("k = " << k << ": relative period error " << error);
      CHECK(error < 0.2 * previous);
      previous = error;
    }
    CHECK(previous < 2e-5);
  }
}

TEST_CASE("a double pendulum's small swings have the normal modes (2 -+ sqrt 2) g/L") {
  const double L = 0.8, g = 9.81, theta = 0.5;  // degrees
  for (int mode : {-1, 1}) {
    // Mode shapes of equal masses and rods: the lower angle is ±sqrt 2 times the upper one.
    const double omega = std::sqrt((2 + mode * std::sqrt(2.0)) * g / L);
    Simulation sim = scene_simulation("double-pendulum", "rk4", 2e-4,
                                      {{"length", L},
                                       {"angle1", theta},
                                       {"angle2", -mode * std::sqrt(2.0) * theta},
                                       {"drift", std::string("none")}});
    const double period = crossing_period(sim, 0, 0, 0.0, 200000);
    CAPTURE(mode);
    MESSAGE("mode " << mode << ": relative period error " << period * omega / (2 * M_PI) - 1);
    CHECK(std::abs(period * omega / (2 * M_PI) - 1) < 1e-3);
  }
}

// Slow (60,000 RK4 steps, 38 s under the sanitizers): the scene's paths are stepped there by the
// task-split test's run of every scene.
TEST_CASE("a bead on a spinning hoop settles at cos theta = g/(omega^2 R), or at the bottom" *
          doctest::test_suite("slow")) {
  const double R = 0.7, g = 9.81;
  for (double omega : {6.0, 3.0}) {
    Simulation sim = scene_simulation("bead-on-hoop", "rk4", 2e-3,
                                      {{"R", R}, {"omega", omega}, {"damping", 0.6}});
    REQUIRE_FALSE(sim.advance(30000));  // 60 s: the swing has decayed by e^-18
    const Vec3 x = sim.world().x.col(0);
    const double theta = std::acos(std::clamp(-x.z() / R, -1.0, 1.0));
    const double expected = omega * omega * R > g ? std::acos(g / (omega * omega * R)) : 0.0;
    CAPTURE(omega);
    MESSAGE("omega " << omega << ": theta " << theta << " vs " << expected << ", ledger "
                     << sim.energy().energy_error);
    CHECK(std::abs(theta - expected) < 1e-4);
    CHECK(std::abs(x.norm() - R) < 1e-8);
    // The hoop's motor and the drag are booked: the ledger closes.
    CHECK(std::abs(sim.energy().energy_error) < 1e-6);
  }
}

TEST_CASE("constraint forces do no work: the energy error is the integrator's own, RK4's h^4") {
  double errors[2];
  for (int k = 0; k < 2; ++k) {
    const double dt = k == 0 ? 4e-3 : 2e-3;
    Simulation sim =
        scene_simulation("double-pendulum", "rk4", dt, {{"drift", std::string("none")}});
    REQUIRE_FALSE(sim.advance(long(std::lround(2.0 / dt))));
    errors[k] = std::abs(sim.energy().energy_error);
  }
  MESSAGE("energy error " << errors[0] << " at dt 4e-3, " << errors[1] << " at 2e-3");
  CHECK(errors[0] < 1e-5);
  CHECK(errors[0] / errors[1] > 10);  // 16 for fourth order
  CHECK(errors[0] / errors[1] < 25);
}

TEST_CASE("RATTLE keeps |C| at round-off and the energy error bounded over 1e5 steps" *
          doctest::test_suite("slow")) {
  Simulation sim = scene_simulation("rigid-chain", "velocity-verlet", 2e-3,
                                    {{"n", 5.0}, {"drift", std::string("rattle")}});
  double first_half = 0, second_half = 0, worst_c = 0;
  for (int s = 0; s < 100000; ++s) {
    REQUIRE_FALSE(sim.step());
    if (s % 100 != 0) continue;
    const double e = std::abs(sim.energy().energy_error);
    (s < 50000 ? first_half : second_half) = std::max(s < 50000 ? first_half : second_half, e);
    worst_c = std::max(worst_c, figure(sim, "max |C|"));
  }
  MESSAGE("max |C| " << worst_c << ", energy error " << first_half << " then " << second_half);
  CHECK(worst_c < 1e-12);
  CHECK(figure(sim, "max |dC/dt|") < 1e-11);
  CHECK(second_half < 1e-3);
  CHECK(second_half < 2 * first_half);           // bounded, not drifting
  CHECK(figure(sim, "projection energy") == 0);  // RATTLE is the method, nothing to book
}

TEST_CASE("projection after each step books its energy change as its own ledger term") {
  // A bob off its rod (stretched by 1 cm, moving outwards at 0.3 m/s): one step so short that the
  // integrator changes nothing, then the projection puts it back on the circle. It loses its
  // radial speed and rises by the stretch: ΔE = -m v_r²/2 + m g · 0.01 (rod hanging down).
  const double m = 2, g = 9.81;
  SceneSetup setup = build_scene(
      "pendulum", {{"angle", 0.0}, {"m", m}, {"g", g}, {"drift", std::string("projection")}});
  World& world = setup.world;
  world.x(2, 0) -= 0.01;
  world.v(2, 0) = -0.3;
  Simulation sim(world, 1e-12, "velocity-verlet");
  REQUIRE_FALSE(sim.step());
  const double expected = -0.5 * m * 0.09 + m * g * 0.01;
  CHECK(figure(sim, "projection energy") == doctest::Approx(expected).epsilon(1e-6));
  CHECK(figure(sim, "max |C|") < 1e-14);
  CHECK(figure(sim, "max |dC/dt|") < 1e-14);
  // Booked, the ledger closes; unbooked it would be off by the change itself.
  const EnergyReport r = sim.energy();
  CHECK(std::abs(r.energy_error) < 1e-9);
  CHECK(r.dissipated == doctest::Approx(-expected).epsilon(1e-6));
  // Over a swing at a real step the projections keep |C| at round-off.
  Simulation swing =
      scene_simulation("pendulum", "velocity-verlet", 2e-3, {{"drift", std::string("projection")}});
  REQUIRE_FALSE(swing.advance(5000));
  CHECK(figure(swing, "max |C|") < 1e-12);
  CHECK(figure(swing, "max |dC/dt|") < 1e-12);
}

TEST_CASE("Baumgarte's terms hold the drift that plain multipliers let grow") {
  auto drift = [](const std::string& mode) {
    Simulation sim =
        scene_simulation("rigid-chain", "velocity-verlet", 2e-3, {{"n", 4.0}, {"drift", mode}});
    REQUIRE_FALSE(sim.advance(5000));
    return figure(sim, "max |C|");
  };
  const double none = drift("none"), baumgarte = drift("baumgarte");
  MESSAGE("max |C| after 10 s: " << none << " without, " << baumgarte << " with Baumgarte");
  CHECK(none > 1e-3);
  CHECK(baumgarte < 0.05 * none);
}

TEST_CASE("a hinged box swings as a compound pendulum") {
  const double a = 0.4, c = 1.0, g = 9.81, d = c / 2;
  const double period = 2 * M_PI * std::sqrt(((a * a + c * c) / 12 + d * d) / (g * d));
  Simulation sim = scene_simulation("compound-pendulum", "rk4", 1e-3,
                                    {{"angle", 2.0}, {"drift", std::string("projection")}}, "rk4");
  // The box's centre crosses under the hinge.
  const double measured = crossing_period(sim, 0, 0, 0.0, 20000);
  MESSAGE("compound pendulum: " << measured << " vs " << period);
  CHECK(std::abs(measured / period - 1) < 1e-3);
}

TEST_CASE("redundant and conflicting constraint sets are solved without NaN and reported") {
  auto world_with = [](double second_length) {
    World world;
    BodySpec bob;
    bob.position = Vec3(1, 0, 0);
    world.add_body(bob);
    ParamTable rod1, rod2, model;
    rod1.set("kind", std::string("rod"));
    rod1.set("a", 0.0);
    rod1.set("anchor", std::vector<double>{0, 0, 0});
    rod1.set("length", 1.0);
    rod2 = rod1;
    rod2.set("length", second_length);
    model.set("constraint", std::vector<ParamTable>{rod1, rod2});
    world.add_force(ForceRegistry::instance().make("constraints", model));
    add_gravity(world, 9.81);
    return world;
  };
  // The same rod twice moves the bob exactly as one rod does.
  Simulation twice(world_with(1.0), 1e-3, "rk4");
  Simulation once =
      scene_simulation("pendulum", "rk4", 1e-3, {{"length", 1.0}, {"drift", std::string("none")}});
  REQUIRE_FALSE(twice.advance(1000));
  REQUIRE_FALSE(once.advance(1000));
  const Vec3 pivot(0, 0, 1);  // the scene hangs its pendulum from here
  CHECK((twice.world().x.col(0) - (once.world().x.col(0) - pivot)).norm() < 1e-9);
  CHECK(figure(twice, "rows") == 2);
  CHECK(figure(twice, "rank") == 1);
  // Two rods of different lengths cannot both hold: a least-squares answer, finite.
  Simulation conflict(world_with(1.1), 1e-3, "rk4");
  REQUIRE_FALSE(conflict.advance(1000));
  CHECK(conflict.world().x.allFinite());
  CHECK(figure(conflict, "rank") == 1);
  CHECK(figure(conflict, "max |C|") > 0.04);
}

TEST_CASE("a constraint no body can keep is refused with a message, not NaN") {
  World world;
  BodySpec fixed;
  fixed.flags = kFixed;
  world.add_body(fixed);
  fixed.position = Vec3(1, 0, 0);
  world.add_body(fixed);
  ParamTable rod, model;
  rod.set("kind", std::string("rod"));
  rod.set("a", 0.0);
  rod.set("b", 1.0);
  rod.set("length", 1.0);
  model.set("constraint", std::vector<ParamTable>{rod});
  world.add_force(ForceRegistry::instance().make("constraints", model));
  CHECK_THROWS_WITH_AS(world.forces[0]->validate(world),
                       doctest::Contains("constraint 0 (rod): no body it joins can move"),
                       InputError);
  ParamTable bad;
  bad.set("kind", std::string("rope"));
  model.set("constraint", std::vector<ParamTable>{bad});
  CHECK_THROWS_WITH_AS(ForceRegistry::instance().make("constraints", model),
                       doctest::Contains("unknown constraint 'rope'"), InputError);
}

TEST_CASE("the constraints model stays after the forces it reads") {
  SceneSetup setup = build_scene("pendulum", {});
  setup.world.add_force(ForceRegistry::instance().make("linear-drag", ParamTable()));
  CHECK(setup.world.forces.back()->kind() == "constraints");
}

TEST_CASE("the multipliers' solver kept from step to step solves as a fresh one when rows change") {
  // The solver keeps its analysis of A's pattern while the pattern stays (for speed only): row
  // sets of the same size coupling other bodies, and a singular set between, must be solved as a
  // solver made for each would, and A lambda = b must hold (A = J W J^T, formed here densely).
  std::vector<BodyInverse> inverse(4);
  for (int b = 0; b < 4; ++b) {
    inverse[b].inv_mass = 1.0 + b;
    inverse[b].inv_inertia = (0.5 + b) * Mat3::Identity();
  }
  auto row = [](int a, int b, const Vec3& n, const Vec3& arm) {
    ConstraintRow r;
    r.body[0] = a, r.body[1] = b;
    r.lin[0] = n, r.lin[1] = -n;
    r.ang[0] = arm.cross(n), r.ang[1] = -arm.cross(n);
    return r;
  };
  const Vec3 n1(1, 0.2, 0), n2(0.1, 1, 0.3), n3(0.3, -0.2, 1), arm(0.1, 0.2, 0.3);
  const std::vector<std::vector<ConstraintRow>> sets = {
      {row(0, 1, n1, arm), row(1, 2, n2, arm), row(2, 3, n3, arm)},  // a chain
      {row(0, 1, n1, arm), row(0, 2, n2, arm), row(0, 3, n3, arm)},  // a star: every pair couples
      {row(0, 1, n1, arm), row(1, 2, n2, arm), row(2, 3, n3, arm)},
      {row(0, 1, n1, arm), row(2, 3, n2, arm), row(1, 2, n3, arm)},  // the chain's rows reordered
      {row(0, 1, n1, arm), row(0, 1, n1, arm), row(2, 3, n3, arm)},  // singular: a row twice
      {row(0, 1, n3, arm), row(1, 2, n1, arm), row(2, 3, n2, arm)},  // the chain, other values
  };
  ConstraintSolver kept;
  for (size_t k = 0; k < sets.size(); ++k) {
    INFO("row set " << k);
    const auto& rows = sets[k];
    kept.factor(rows, inverse);
    ConstraintSolver fresh;
    fresh.factor(rows, inverse);
    const VecX b = VecX::LinSpaced(3, 1.0, 3.0);
    const VecX lambda = kept.solve(b), expected = fresh.solve(b);
    CHECK(kept.rank() == fresh.rank());
    CHECK((lambda.array() == expected.array()).all());  // to the bit
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3, 24), W = Eigen::MatrixXd::Zero(24, 24);
    for (int b4 = 0; b4 < 4; ++b4) {
      W.block<3, 3>(6 * b4, 6 * b4) = inverse[b4].inv_mass * Mat3::Identity();
      W.block<3, 3>(6 * b4 + 3, 6 * b4 + 3) = inverse[b4].inv_inertia;
    }
    for (int r = 0; r < 3; ++r)
      for (int e = 0; e < 2; ++e) {
        J.block<1, 3>(r, 6 * rows[r].body[e]) += rows[r].lin[e].transpose();
        J.block<1, 3>(r, 6 * rows[r].body[e] + 3) += rows[r].ang[e].transpose();
      }
    const Eigen::MatrixXd A = J * W * J.transpose();
    if (kept.rank() == 3)
      CHECK((A * lambda - b).norm() < 1e-12 * b.norm());
    else  // least squares: the residual is orthogonal to A's range
      CHECK((A * (A * lambda - b)).norm() < 1e-10 * A.norm() * b.norm());
  }
}

TEST_CASE("the multipliers' solver factors an unchanged A once, and again at any bit changed") {
  // A step solves at one state several times (the forces, SHAKE's directions, the velocity
  // projection): rows and W blocks bit for bit the last ones are not factored again (for speed
  // only). Any bit of a row's directions or of a W block it reads makes a new factor, which must
  // solve as a fresh solver does.
  std::vector<BodyInverse> inverse(4);
  for (int b = 0; b < 4; ++b) {
    inverse[b].inv_mass = 1.0 + b;
    inverse[b].inv_inertia = (0.5 + b) * Mat3::Identity();
  }
  auto row = [](int a, int b, const Vec3& n) {
    ConstraintRow r;
    r.body[0] = a, r.body[1] = b;
    r.lin[0] = n, r.lin[1] = -n;
    r.ang[0] = Vec3(0.1, 0.2, 0.3).cross(n), r.ang[1] = -r.ang[0];
    return r;
  };
  std::vector<ConstraintRow> rows = {row(0, 1, Vec3(1, 0.2, 0)), row(1, 2, Vec3(0.1, 1, 0.3))};
  ConstraintSolver kept;
  const VecX b = VecX::LinSpaced(2, 1.0, 2.0);
  auto check = [&](long factored) {
    kept.factor(rows, inverse);
    ConstraintSolver fresh;
    fresh.factor(rows, inverse);
    CHECK(kept.factored() == factored);
    const VecX lambda = kept.solve(b), expected = fresh.solve(b);
    CHECK((lambda.array() == expected.array()).all());  // to the bit
  };
  check(1);
  check(1);  // the same rows and blocks: the same factor
  rows[0].lin[0].y() = std::nextafter(0.2, 1.0);
  check(2);
  inverse[2].inv_inertia(1, 1) = std::nextafter(inverse[2].inv_inertia(1, 1), 0.0);
  check(3);
  inverse[3].inv_mass = 7;  // a body no row reads
  check(3);
  rows[0].lin[0].z() = -0.0;  // was +0.0: equal, but not the same bits
  check(4);
  rows[1].body[1] = 3;  // another body, its block equal to none before
  check(5);
}

TEST_CASE("a constraint set's W blocks follow every bit they are made from") {
  // A set keeps each body's W block while its orientation, moments, inverse mass and flags are
  // bit for bit the same (for speed only: a step evaluates at one orientation more than once). A
  // change to any of them must solve as a fresh set does, to the bit.
  World world;
  Random random(11);
  for (int b = 0; b < 3; ++b) {
    BodySpec body;
    body.position = Vec3(b, 0.3 * random.normal(), 0.3 * random.normal());
    body.velocity = Vec3(random.normal(), random.normal(), random.normal());
    body.orientation = Quat(random.normal(), random.normal(), random.normal(), random.normal());
    body.orientation.normalize();
    body.inertia = Vec3(0.1, 0.2, 0.35) * (1 + b);  // unequal moments: the frame matters
    world.add_body(body);
    world.w.col(b) = Vec3(random.normal(), random.normal(), random.normal());
  }
  ParamTable p;
  std::vector<ParamTable> joints(2);
  for (int j = 0; j < 2; ++j) {
    joints[j].set("kind", std::string("ball"));
    joints[j].set("a", double(j));
    joints[j].set("b", double(j + 1));
    joints[j].set("point_a", std::vector<double>{0.5, 0.1, -0.2});
    joints[j].set("point_b", std::vector<double>{-0.5, 0.2, 0.1});
  }
  p.set("constraint", joints);
  ConstraintSet kept(p);
  Positions force = Positions::Random(3, 3), torque = Positions::Random(3, 3);
  auto check = [&](const char* what) {
    INFO(what);
    const ConstraintState s{world, world.x, world.v, world.w, 0.0};
    ConstraintSet fresh(p);
    const VecX lambda = kept.solve(s, force, torque, 0, 0).lambda;
    const VecX expected = fresh.solve(s, force, torque, 0, 0).lambda;
    REQUIRE(lambda.size() == 6);
    CHECK(std::memcmp(lambda.data(), expected.data(), 6 * sizeof(double)) == 0);
  };
  check("as built");
  check("again");
  world.q[1].coeffs().x() = std::nextafter(world.q[1].coeffs().x(), 1.0);
  check("one bit of an orientation");
  world.set_inertia(2, Vec3(0.3, 0.6, std::nextafter(1.05, 2.0)));
  check("one bit of a moment");
  world.inv_mass(0) = std::nextafter(world.inv_mass(0), 0.0);
  check("one bit of an inverse mass");
  world.flags[1] |= kDrivenSpin;
  check("a body's spin driven");
}

TEST_CASE("a point at a body's centre is attached as the turned point, to the bit") {
  // attach() does not turn a centre (+0, +0, +0) by the orientation (for speed only): what it
  // gives must be the very bits the rotation's arithmetic gives, with every sign of zero, for
  // orientations with components of either sign, bodies at -0, and a point at -0 (turned).
  World world;
  Random random(5);
  for (int b = 0; b < 16; ++b) {
    BodySpec body;
    body.position = b % 4 == 0 ? Vec3(-0.0, 0.0, -0.0) : Vec3(random.normal(), 0.0, -0.0);
    body.velocity = b % 3 == 0 ? Vec3(-0.0, -0.0, 0.0) : Vec3(0.0, random.normal(), -0.0);
    body.orientation = Quat(random.normal(), random.normal(), random.normal(), random.normal());
    body.orientation.normalize();
    world.add_body(body);
    world.w.col(b) = b % 2 ? Vec3(random.normal(), -0.0, random.normal()) : Vec3::Zero();
  }
  const ConstraintState s{world, world.x, world.v, world.w, 0.0};
  auto same = [](const Vec3& a, const Vec3& b) {
    return std::memcmp(a.data(), b.data(), 3 * sizeof(double)) == 0;
  };
  for (const Vec3& point : {Vec3(0.0, 0.0, 0.0), Vec3(-0.0, 0.0, 0.0)})
    for (int b = 0; b < world.size(); ++b) {
      INFO("body " << b << ", point x " << point.x());
      const Vec3 arm = world.q[b] * point, w = world.w.col(b);
      const Attachment got = attach(s, b, point);
      CHECK(same(got.arm, arm));
      CHECK(same(got.position, Vec3(world.x.col(b) + arm)));
      CHECK(same(got.velocity, Vec3(world.v.col(b) + w.cross(arm))));
      CHECK(same(got.centripetal, Vec3(w.cross(w.cross(arm)))));
      CHECK(same(attached_position(s, b, point), got.position));
    }
}

TEST_CASE("every constraint kind's C alone is its rows' C to the bit") {
  // SHAKE's sweeps read C alone (Constraint::positions_error, for speed only): it must be the
  // very number evaluate() puts in each row, at any state, for joints at centres and off them.
  World world;
  Random random(7);
  for (int b = 0; b < 2; ++b) {
    BodySpec body;
    body.position = Vec3(random.normal(), random.normal(), random.normal());
    body.velocity = Vec3(random.normal(), random.normal(), random.normal());
    body.orientation = Quat(random.normal(), random.normal(), random.normal(), random.normal());
    body.orientation.normalize();
    world.add_body(body);
    world.w.col(b) = Vec3(random.normal(), random.normal(), random.normal());
  }
  auto table = [](const std::string& kind,
                  std::initializer_list<std::pair<const char*, ParamValue>> values) {
    ParamTable p;
    p.set("kind", kind);
    for (const auto& [key, value] : values) p.set(key, value);
    return p;
  };
  const std::vector<double> off{0.3, -0.2, 0.1}, other{-0.1, 0.4, 0.25};
  const std::vector<ParamTable> tables = {
      table("rod", {{"a", 0.0}, {"b", 1.0}, {"length", 1.5}}),
      table("rod", {{"a", 0.0}, {"b", 1.0}, {"length", 1.5}, {"point_a", off}, {"point_b", other}}),
      table("rod", {{"a", 1.0}, {"anchor", off}, {"length", 0.7}}),
      table("ball", {{"a", 0.0}, {"b", 1.0}}),
      table("ball", {{"a", 0.0}, {"b", 1.0}, {"point_a", off}, {"point_b", other}}),
      table("ball", {{"a", 1.0}, {"anchor", other}}),
      table("hinge", {{"a", 0.0}, {"b", 1.0}, {"point_a", off}}),
      table("hoop", {{"a", 0.0}, {"R", 1.2}, {"omega", 0.8}}),
      table("orientation", {{"a", 0.0}, {"b", 1.0}}),
  };
  for (const ParamTable& p : tables) {
    const auto constraint = ConstraintRegistry::instance().make(p.text("kind", ""), p);
    INFO(constraint->kind() << ", " << constraint->rows() << " rows");
    const ConstraintState s{world, world.x, world.v, world.w, 0.37};
    std::vector<ConstraintRow> rows(constraint->rows());
    std::vector<double> c(rows.size(), -1.0);
    constraint->evaluate(s, rows.data());
    constraint->positions_error(s, c.data());
    for (size_t r = 0; r < rows.size(); ++r) {
      CHECK(std::memcmp(&c[r], &rows[r].c, sizeof(double)) == 0);
      CHECK(rows[r].c != 0);  // a state off the constraint, so the check has something to see
    }
  }
}

}  // namespace stepwise
