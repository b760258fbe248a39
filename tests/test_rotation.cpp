// Rigid-body rotation against closed forms: quaternion algebra, convergence orders of the five
// rotation schemes, the Dzhanibekov flip period, torque-free and heavy-top precession rates.
#include <doctest/doctest.h>

#include <cmath>

#include "core/quaternion.hpp"
#include "core/rotation_scheme.hpp"
#include "core/scenes/rigid_scene_helpers.hpp"
#include "core/sweep.hpp"
#include "test_support.hpp"

using namespace stepwise;
using stepwise::test::scene_simulation;

TEST_CASE("quaternion helpers: Hamilton product, rotation, composition, exp/log maps") {
  const Quat z90 = quat::from_axis_angle(Vec3::UnitZ(), M_PI / 2);
  const Quat x90 = quat::from_axis_angle(Vec3::UnitX(), M_PI / 2);
  CHECK((quat::rotate(z90, Vec3::UnitX()) - Vec3::UnitY()).norm() < 1e-15);
  // i j = k, j i = -k (PFC eq 13)
  const Quat i(0, 1, 0, 0), j(0, 0, 1, 0);
  CHECK((quat::product(i, j).coeffs() - Quat(0, 0, 0, 1).coeffs()).norm() == 0);
  CHECK((quat::product(j, i).coeffs() - Quat(0, 0, 0, -1).coeffs()).norm() == 0);
  // x90 then z90 takes y to z then... : y -x90-> z -z90-> z ; x -x90-> x -z90-> y
  const Quat both = quat::compose(x90, z90);
  CHECK((quat::rotate(both, Vec3::UnitY()) - Vec3::UnitZ()).norm() < 1e-15);
  CHECK((quat::rotate(both, Vec3::UnitX()) - Vec3::UnitY()).norm() < 1e-15);
  CHECK((quat::rotate(both, Vec3::UnitZ()) - Vec3::UnitX()).norm() < 1e-15);
  // Our convention matches Eigen's (q * v is q v q*).
  const Quat r = quat::from_axis_angle(Vec3(1, 2, 3), 0.7);
  CHECK((quat::rotate(r, Vec3(0.3, -1, 2)) - r * Vec3(0.3, -1, 2)).norm() < 1e-15);
  CHECK((quat::product(r, quat::conjugate(r)).coeffs() - Quat::Identity().coeffs()).norm() < 1e-15);
  // exp and log are inverse, including near zero and near pi.
  for (const Vec3& v : {Vec3(1e-9, 0, 2e-9), Vec3(0.3, -0.2, 0.9), Vec3(0, 0, 3.1)}) {
    CHECK((quat::log_map(quat::exp_map(v)) - v).norm() < 1e-12);
    CHECK(std::abs(quat::exp_map(v).norm() - 1) < 1e-15);
  }
  Quat drifted = r;
  drifted.coeffs() *= 1.001;
  CHECK(std::abs(quat::renormalised(drifted).norm() - 1) < 1e-15);
}

TEST_CASE("torque-free top with rk4: energy and |L| errors below 1e-8 over 100 flips") {
  SceneSetup setup = build_scene("top", {});
  const Vec3 rate(0.01, 1.0, 0.01);
  const double half_period = flip_half_period(Vec3(1, 2, 3), rate);
  Simulation sim(setup.world, 0.01, "velocity-verlet", "rk4");
  const EnergyReport start = sim.energy();
  const long steps = std::lround(100 * half_period / 0.01);
  double worst_energy = 0, worst_L = 0;
  for (long s = 0; s < steps; s += 100) {
    REQUIRE_FALSE(sim.advance(100));
    const EnergyReport now = sim.energy();
    worst_energy = std::max(worst_energy, std::abs(now.energy_error));
    worst_L = std::max(worst_L,
                       std::abs(now.angular_momentum.norm() / start.angular_momentum.norm() - 1));
  }
  INFO("steps " << steps << " energy " << worst_energy << " |L| " << worst_L);
  CHECK(worst_energy < 1e-8);
  CHECK(worst_L < 1e-8);
}

TEST_CASE("rotation schemes converge at their orders on the tumbling top") {
  SweepRequest request;
  request.setup = build_scene("top", {{"w1", 0.2}, {"w3", 0.3}});
  request.rotations = {"euler", "wang-leapfrog", "buss2", "splitting", "rk4"};
  request.dts = {0.04, 0.02, 0.01};
  request.duration = 8;
  const SweepResult result = run_sweep(request);
  const std::map<std::string, int> expected = {
      {"euler", 1}, {"wang-leapfrog", 2}, {"buss2", 2}, {"splitting", 2}, {"rk4", 4}};
  for (const SweepSeries& s : result.series) {
    const double order = s.rows.back().order;
    INFO(s.rotation << " observed order " << order << " error " << s.rows.back().error);
    CHECK(std::abs(order - expected.at(s.rotation)) < 0.25);
    CHECK(RotationRegistry::instance().make(s.rotation)->info().order == expected.at(s.rotation));
  }
}

TEST_CASE("intermediate-axis flip period matches the elliptic-integral closed form within 1%") {
  const Vec3 I(1, 2, 3), rate(0.01, 1.0, 0.01);
  const double predicted = flip_half_period(I, rate);
  Simulation sim = scene_simulation("top", "velocity-verlet", 0.002, {}, "rk4");
  std::vector<double> crossings;
  double previous = rate.y(), previous_t = 0;
  while (crossings.size() < 6 && sim.time() < 20 * predicted) {
    REQUIRE_FALSE(sim.step());
    const double w2 = (sim.world().q[0].conjugate() * sim.world().w.col(0)).y();
    if ((w2 > 0) != (previous > 0))  // interpolate the zero crossing
      crossings.push_back(previous_t + (sim.time() - previous_t) * previous / (previous - w2));
    previous = w2;
    previous_t = sim.time();
  }
  REQUIRE(crossings.size() == 6);
  const double measured = (crossings.back() - crossings.front()) / 5.0;
  INFO("measured " << measured << " predicted " << predicted);
  CHECK(std::abs(measured / predicted - 1) < 0.01);
}

TEST_CASE("symmetric top: body-frame precession rate w3 (I3 - I1)/I1 within 0.5%") {
  const double I1 = 1.0, I3 = 1.6, w3 = 2.0;
  for (const char* scheme : {"rk4", "splitting", "wang-leapfrog", "buss2"}) {
    Simulation sim = scene_simulation("symmetric-top", "velocity-verlet", 0.005, {}, scheme);
    double unwrapped = 0, previous = 0;
    const long steps = 4000;  // 20 s: about 1.9 precession periods
    for (long s = 0; s < steps; ++s) {
      REQUIRE_FALSE(sim.step());
      const Vec3 wb = sim.world().q[0].conjugate() * sim.world().w.col(0);
      const double angle = std::atan2(wb.y(), wb.x());
      unwrapped += std::remainder(angle - previous, 2 * M_PI);
      previous = angle;
    }
    const double measured = unwrapped / sim.time();
    const double expected = w3 * (I3 - I1) / I1;
    INFO(std::string(scheme) << " measured " << measured << " expected " << expected);
    CHECK(std::abs(std::abs(measured) / expected - 1) < 0.005);
  }
}

TEST_CASE("heavy top: slow precession at m g l / (I3 w3) within 2%") {
  Simulation sim = scene_simulation("heavy-top", "velocity-verlet", 0.001, {}, "rk4");
  const double expected = 1.0 * 9.81 * 0.5 / (0.15 * 60.0);
  double unwrapped = 0, previous = std::atan2(sim.world().x(1, 0), sim.world().x(0, 0));
  const long steps = 6000;  // half a precession period
  double lowest = 1e9, highest = -1e9;
  for (long s = 0; s < steps; ++s) {
    REQUIRE_FALSE(sim.step());
    const Vec3 x = sim.world().x.col(0);
    const double azimuth = std::atan2(x.y(), x.x());
    unwrapped += std::remainder(azimuth - previous, 2 * M_PI);
    previous = azimuth;
    lowest = std::min(lowest, x.z());
    highest = std::max(highest, x.z());
  }
  const double measured = unwrapped / sim.time();
  INFO("measured " << measured << " expected " << expected << " height " << lowest << ".."
                   << highest);
  CHECK(std::abs(measured / expected - 1) < 0.02);
  CHECK(highest - lowest < 0.01);  // the top does not fall: only a small nutation
  CHECK(std::abs(sim.energy().energy_error) < 1e-6);
}

TEST_CASE("a torque-free sphere keeps its spin to round-off and its quaternion stays unit") {
  for (const char* scheme : {"euler", "wang-leapfrog", "buss2", "rk4", "splitting"}) {
    Simulation sim = scene_simulation("spinning-spheres", "velocity-verlet", 0.005, {}, scheme);
    const Positions w0 = sim.world().w;
    REQUIRE_FALSE(sim.advance(2000));
    INFO(scheme);
    CHECK((sim.world().w - w0).cwiseAbs().maxCoeff() < 1e-12);
    for (const Quat& q : sim.world().q) CHECK(std::abs(q.norm() - 1) < 1e-14);
  }
}

TEST_CASE("buss2 steps spheres four at a time exactly as one at a time") {
  // Eight spheres (two lane groups) and a box after them (the scalar path) under an active torque
  // and a self-propelling force: each body stepped in the group must match it stepped alone.
  Random random(3);
  std::vector<BodySpec> specs;
  for (int i = 0; i < 9; ++i) {
    BodySpec b;
    b.radius = random.uniform(0.2, 0.5);
    if (i == 8) b.shape = box_shape(Vec3(0.3, 0.2, 0.1));
    b.mass = random.uniform(0.5, 2.0);
    b.position = Vec3(2.0 * i, 0, 0);
    b.orientation =
        Quat(random.normal(), random.normal(), random.normal(), random.normal()).normalized();
    b.angular_velocity = Vec3(random.normal(), random.normal(), random.normal());
    specs.push_back(b);
  }
  ParamTable active;
  active.set("force", 0.5);
  active.set("torque", std::vector<double>{0.3, -0.2, 0.1});
  auto simulation = [&](const std::vector<BodySpec>& bodies) {
    World world;
    for (const BodySpec& b : bodies) world.add_body(b);
    world.add_force(ForceRegistry::instance().make("active", active));
    // A rotational drag reads the spins between the halves, so the first half's w counts too.
    ParamTable drag;
    drag.set("c", 0.0);
    drag.set("c_rot", 0.2);
    world.add_force(ForceRegistry::instance().make("linear-drag", drag));
    return Simulation(world, 0.01, "velocity-verlet", "buss2");
  };
  test::check_each_alone_as_together(specs, simulation, 200,
                                     [](const World& alone, const World& together, int i) {
                                       CHECK(alone.q[0].coeffs() == together.q[i].coeffs());
                                       CHECK(alone.w.col(0) == together.w.col(i));
                                       CHECK(alone.x.col(0) == together.x.col(i));
                                     });
}

TEST_CASE("buss2: a sphere standing still keeps its orientation bit for bit, turning ones turn") {
  // Ten free spheres, no torque. Standing still (no spin): a whole lane group (0-3), two of a
  // mixed group (5, 6) and one of the scalar tail (8). Their quaternions are unit only to
  // round-off (|q|^2 = 1 + 4e-15), so a renormalisation would change their bits; they must keep
  // them. The spinning ones turn and stay unit, and every sphere stepped in its group
  // matches it stepped alone.
  Random random(5);
  std::vector<BodySpec> specs;
  for (int i = 0; i < 10; ++i) {
    BodySpec b;
    b.radius = 0.3;
    b.position = Vec3(2.0 * i, 0, 0);
    b.orientation =
        Quat(random.normal(), random.normal(), random.normal(), random.normal()).normalized();
    b.orientation.coeffs() *= 1 + 2e-15;  // unit to round-off, not to the bit
    const bool still = i < 4 || i == 5 || i == 6 || i == 8;
    if (!still) b.angular_velocity = Vec3(random.normal(), random.normal(), random.normal());
    specs.push_back(b);
  }
  auto simulation = [](const std::vector<BodySpec>& bodies) {
    World world;
    for (const BodySpec& b : bodies) world.add_body(b);
    return Simulation(world, 0.01, "velocity-verlet", "buss2");
  };
  Simulation sim = simulation(specs);
  const std::vector<Quat> start = sim.world().q;
  REQUIRE_FALSE(sim.advance(100));
  for (int i = 0; i < 10; ++i) {
    INFO("sphere " << i);
    REQUIRE(start[i].squaredNorm() != 1.0);
    if (specs[i].angular_velocity == Vec3::Zero()) {
      CHECK(sim.world().q[i].coeffs() == start[i].coeffs());
    } else {
      CHECK(std::abs(sim.world().q[i].dot(start[i])) < 0.9999);
      CHECK(std::abs(sim.world().q[i].norm() - 1) < 1e-14);
    }
  }
  test::check_each_alone_as_together(specs, simulation, 100,
                                     [](const World& alone, const World& together, int i) {
                                       CHECK(alone.q[0].coeffs() == together.q[i].coeffs());
                                       CHECK(alone.w.col(0) == together.w.col(i));
                                     });
}

TEST_CASE("free spheres are told four at a time as one at a time would tell them") {
  // Four spheres, then one of them made unequal in each of its moments or flagged: the test of
  // the four side by side (as stored, masked) must give the answer of the scalar loop.
  World world;
  for (int i = 0; i < 4; ++i) {
    BodySpec b;
    b.radius = 0.1 * (i + 1);
    b.mass = 1.0 + i;
    world.add_body(b);
  }
  auto one_at_a_time = [&world] {
    for (int i = 0; i < 4; ++i)
      if (!rotates_freely(world, i) || !world.isotropic(i)) return false;
    return true;
  };
  REQUIRE(free_spheres(world, 0, 4));
  for (int body = 0; body < 4; ++body)
    for (int axis = 0; axis < 3; ++axis) {
      const double kept = world.inertia(axis, body);
      Vec3 unequal = world.inertia.col(body);
      unequal(axis) = kept * (1 + 1e-15);  // the least difference still unequal
      world.set_inertia(body, unequal);
      INFO("body " << body << ", axis " << axis);
      CHECK_FALSE(one_at_a_time());
      CHECK(free_spheres(world, 0, 4) == one_at_a_time());
      unequal(axis) = kept;
      world.set_inertia(body, unequal);
    }
  for (int body = 0; body < 4; ++body)
    for (std::uint8_t flag : {kFixed, kDriven, kPivot, kDrivenSpin}) {
      world.flags[body] = flag;
      INFO("body " << body << ", flag " << int(flag));
      CHECK_FALSE(free_spheres(world, 0, 4));
      world.flags[body] = 0;
    }
  CHECK(free_spheres(world, 0, 4));
}
