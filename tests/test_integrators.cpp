// Translational integrators against closed-form results: convergence orders, long-run energy
// behaviour on an orbit, stability limits and the Langevin thermostat's equipartition.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <vector>

#include <Eigen/Eigenvalues>

#include "core/body_passes.hpp"
#include "core/random.hpp"
#include "core/rotation_scheme.hpp"
#include "core/sweep.hpp"
#include "test_support.hpp"

using namespace stepwise;
using stepwise::test::scene_simulation;

namespace {

double observed_order(const std::string& integrator, const ParamTable& options = ParamTable()) {
  SweepRequest request;
  request.setup = build_scene("oscillator", {});
  request.setup.integrator_options = options;
  request.integrators = {integrator};
  request.dts = {0.04, 0.02, 0.01};
  request.duration = 10;
  const SweepResult result = run_sweep(request);
  return result.series.front().rows.back().order;
}

}  // namespace

TEST_CASE("observed order of convergence on the oscillator matches theory") {
  const std::map<std::string, int> expected = {
      {"euler", 1},           {"symplectic-euler", 1}, {"leapfrog", 2},
      {"velocity-verlet", 2}, {"midpoint", 2},         {"rk4", 4},
      {"newmark", 2},         {"implicit-euler", 1},   {"baoab", 2}};
  for (const auto& entry : expected) {  // (no structured bindings: INFO captures them)
    const std::string& name = entry.first;
    const int order = entry.second;
    const double observed = observed_order(name);
    INFO(std::string(name) << " observed " << observed);
    CHECK(std::abs(observed - order) < 0.2);
    CHECK(IntegratorRegistry::instance().make(name)->info().order == order);
  }
  // Adaptive with a tolerance it never has to enforce runs its base method at the frame step.
  ParamTable loose;
  loose.set("tolerance", 1e3);
  const double adaptive = observed_order("adaptive", loose);
  INFO("adaptive observed " << adaptive);
  CHECK(std::abs(adaptive - 1.0) < 0.2);
}

// Slow (4 x 1e5 steps, 9 s under the sanitizers); the methods' paths are stepped there by quicker
// tests.
TEST_CASE("kepler e=0.5 over 1e5 steps: symplectic methods bounded, explicit Euler drifts out" *
          doctest::test_suite("slow")) {
  auto run = [](const std::string& integrator, double& early_max, double& late_max) {
    Simulation sim = scene_simulation("kepler", integrator, 0.01, {{"e", 0.5}});
    early_max = late_max = 0;
    const long steps = 100000;
    for (long s = 1; s <= steps; ++s) {
      REQUIRE_FALSE(sim.step());
      if (s % 50) continue;
      const double error = std::abs(sim.energy().energy_error);
      if (s <= steps / 10) early_max = std::max(early_max, error);
      if (s > steps * 9 / 10) late_max = std::max(late_max, error);
    }
  };
  double early, late;
  for (const char* name : {"velocity-verlet", "leapfrog", "symplectic-euler", "baoab"}) {
    run(name, early, late);
    INFO(std::string(name) << " early " << early << " late " << late);
    CHECK(late < 1.5 * early);  // bounded: no secular growth over ~160 orbits
    CHECK(late < 0.05);
  }
  // Explicit Euler: the error grows step after step and the orbit spirals outward.
  Simulation euler = scene_simulation("kepler", "euler", 0.01, {{"e", 0.5}});
  std::vector<double> errors;
  for (long checkpoint : {1000L, 10000L, 100000L}) {
    REQUIRE_FALSE(euler.advance(checkpoint - euler.step_count()));
    errors.push_back(euler.energy().energy_error);
  }
  INFO("euler errors " << errors[0] << " " << errors[1] << " " << errors[2]);
  CHECK(errors[0] > 0.05);
  CHECK(errors[1] > 2 * errors[0]);
  CHECK(errors[2] > errors[1]);
  CHECK(euler.energy().total > -0.25);         // E = -1/(2a): the orbit at least doubled
  CHECK(euler.world().x.col(0).norm() > 1.5);  // beyond the exact orbit's apocentre
}

TEST_CASE("stability: central differences at 1.9/omega and 2.1/omega, implicit at 20/omega") {
  auto max_amplitude = [](const std::string& integrator, double dt, long steps) {
    Simulation sim = scene_simulation("oscillator", integrator, dt);  // omega = 1, x0 = 1
    double peak = 0;
    for (long s = 0; s < steps; ++s) {
      if (sim.step()) return HUGE_VAL;
      peak = std::max(peak, std::abs(sim.world().x(0, 0)));
    }
    return peak;
  };
  CHECK(max_amplitude("leapfrog", 1.9, 2000) < 10);
  CHECK(max_amplitude("leapfrog", 2.1, 300) > 1e20);
  CHECK(max_amplitude("velocity-verlet", 1.9, 2000) < 10);
  CHECK(max_amplitude("velocity-verlet", 2.1, 300) > 1e20);
  CHECK(max_amplitude("newmark", 20.0, 1000) <= 1.0 + 1e-9);
  CHECK(max_amplitude("implicit-euler", 20.0, 1000) <= 1.0);
  CHECK(max_amplitude("euler", 0.1, 2000) > 2.0);  // explicit Euler grows at any dt
}

TEST_CASE("newmark average acceleration conserves the oscillator's energy at large dt") {
  Simulation sim = scene_simulation("oscillator", "newmark", 5.0);
  REQUIRE_FALSE(sim.advance(200));
  CHECK(std::abs(sim.energy().energy_error) < 1e-9);
  CHECK(sim.integrator().stats().newton_residual < 1e-10);
}

TEST_CASE("BAOAB ensemble of oscillators: <k x^2> = kT within 3%") {
  const int n = 500;
  const double k = 2.0, kT = 0.7;
  World world;
  ParamTable spring;
  std::vector<ParamTable> links;
  for (int i = 0; i < n; ++i) {
    BodySpec b;
    b.mass = 1.5;
    world.add_body(b);
    ParamTable link;
    link.set("a", double(i));
    link.set("k", k);
    links.push_back(link);
  }
  spring.set("link", links);
  world.add_force(ForceRegistry::instance().make("spring", spring));
  Simulation sim(world, 0.2, "baoab");
  sim.integrator().set_option("temperature", kT);
  sim.integrator().set_option("friction", 1.0);
  sim.set_seed(42);
  REQUIRE_FALSE(sim.advance(250));  // 50 time units of equilibration
  double sum = 0;
  long samples = 0;
  for (int block = 0; block < 200; ++block) {
    REQUIRE_FALSE(sim.advance(5));
    sum += k * sim.world().x.squaredNorm();
    samples += 3 * n;
  }
  const double measured = sum / samples;
  INFO("<k x^2> = " << measured << ", kT = " << kT);
  CHECK(std::abs(measured / kT - 1.0) < 0.03);
}

TEST_CASE("adaptive stepping keeps every accepted local error estimate under tolerance") {
  for (double tolerance : {1e-5, 1e-7}) {
    Simulation sim = scene_simulation("kepler", "adaptive", 0.05, {{"e", 0.7}});
    sim.integrator().set_option("tolerance", tolerance);
    int rejected = 0;
    for (int s = 0; s < 200; ++s) {
      REQUIRE_FALSE(sim.step());
      const IntegratorStats stats = sim.integrator().stats();
      CHECK(stats.max_error_estimate <= tolerance);
      rejected += stats.rejected;
    }
    CHECK(rejected > 0);  // pericentre forced it to shrink the step
  }
}

TEST_CASE("adaptive global error scales as tol^(p/(p+1)) for an order-p base") {
  auto global_error = [](double tolerance) {
    SweepRequest request;
    request.setup = build_scene("oscillator", {});
    request.setup.integrator_options.set("tolerance", tolerance);
    request.integrators = {"adaptive"};
    request.dts = {0.5};
    request.duration = 5;
    return run_sweep(request).series.front().rows.front().error;
  };
  const double slope = std::log(global_error(1e-6) / global_error(1e-8)) / std::log(100.0);
  INFO("slope " << slope);
  CHECK(std::abs(slope - 0.5) < 0.2);
}

TEST_CASE("energy ledger: a damped oscillator's dissipated energy closes the balance") {
  for (const char* name : {"velocity-verlet", "rk4", "newmark", "midpoint"}) {
    Simulation sim = scene_simulation("oscillator", name, 0.01, {{"c", 0.3}});
    REQUIRE_FALSE(sim.advance(2000));
    const EnergyReport r = sim.energy();
    INFO(std::string(name) << " error " << r.energy_error);
    CHECK(r.dissipated > 0.4);  // most of the initial 0.5 is gone
    CHECK(std::abs(r.energy_error) < 1e-4);
  }
}

TEST_CASE("drag: exact velocity decay and the dissipated energy closes the ledger") {
  for (const char* model : {"linear-drag", "quadratic-drag"}) {
    World world;
    BodySpec b;
    b.mass = 2.0;
    b.velocity = Vec3(3, 0, 0);
    b.angular_velocity = Vec3(0, 0, 4);
    world.add_body(b);
    ParamTable p;
    p.set("c", 0.5);
    p.set("c_rot", 0.001);
    world.add_force(ForceRegistry::instance().make(model, p));
    for (const char* integrator : {"velocity-verlet", "rk4", "implicit-euler", "newmark"}) {
      Simulation sim(world, 1e-3, integrator, "buss2");
      REQUIRE_FALSE(sim.advance(2000));  // t = 2
      const double v = sim.world().v(0, 0);
      const double expected = std::string(model) == "linear-drag" ? 3.0 * std::exp(-0.5 * 2 / 2.0)
                                                                  : 3.0 / (1 + 0.5 * 3.0 * 2 / 2.0);
      const EnergyReport r = sim.energy();
      INFO(std::string(model) << " with " << std::string(integrator) << ": v " << v << " expected "
                              << expected << " ledger error " << r.energy_error);
      CHECK(std::abs(v / expected - 1) < 1e-3);
      CHECK(r.dissipated > 0.5 * 2.0 * (9 - expected * expected) * 0.99);
      // Backward Euler's own numerical damping (m |dv|^2 / 2 per step) shows in the ledger.
      CHECK(std::abs(r.energy_error) < (std::string(integrator) == "implicit-euler" ? 1e-3 : 1e-5));
    }
  }
}

namespace {
// The spring's force law without an analytic Jacobian, to exercise the finite-difference path.
class PlainSpring final : public ForceModel {
 public:
  std::string kind() const override { return "plain-spring"; }
  std::unique_ptr<ForceModel> clone() const override {
    return std::make_unique<PlainSpring>(*this);
  }
  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    const Vec3 d = s.x.col(0) - s.x.col(1);
    const Vec3 f = -30.0 * (d.norm() - 1.0) * d.normalized() -
                   0.7 * (s.v.col(0) - s.v.col(1)).dot(d.normalized()) * d.normalized();
    out.force.col(0) += f;
    out.force.col(1) -= f;
  }
  void save(ParamTable&) const override {}
};
}  // namespace

TEST_CASE("finite-difference Jacobians match the analytic ones") {
  auto two_bodies = [] {
    World world;
    BodySpec a, b;
    a.position = Vec3(0.1, 0.2, -0.3);
    b.position = Vec3(1.2, -0.4, 0.5);
    a.velocity = Vec3(0.3, -0.1, 0.2);
    world.add_body(a);
    world.add_body(b);
    return world;
  };
  World analytic_world = two_bodies(), fd_world = two_bodies();
  ParamTable link, spring;
  link.set("a", 0.0);
  link.set("b", 1.0);
  link.set("k", 30.0);
  link.set("rest", 1.0);
  link.set("damping", 0.7);
  spring.set("link", std::vector<ParamTable>{link});
  analytic_world.add_force(ForceRegistry::instance().make("spring", spring));
  fd_world.add_force(std::make_unique<PlainSpring>());
  Simulation analytic(analytic_world, 0.01), fd(fd_world, 0.01);
  SparseMatrix Ka, Ca, Kf, Cf;
  Dynamics(analytic, 0, 0.01).jacobians(analytic.world().x, analytic.world().v, 0, Ka, Ca);
  Dynamics(fd, 0, 0.01).jacobians(fd.world().x, fd.world().v, 0, Kf, Cf);
  CHECK(Eigen::MatrixXd(Cf - Ca).norm() < 1e-7);
  // The analytic stiffness leaves out the dashpot's dependence on the direction (a Newton
  // approximation); at rest relative velocity along the link it is exact.
  CHECK(Eigen::MatrixXd(Kf - Ka).norm() / Eigen::MatrixXd(Ka).norm() < 0.05);
  CHECK(Eigen::MatrixXd(Kf).norm() > 10);
}

TEST_CASE("kicks with nothing to book step four bodies side by side as one at a time") {
  // Gravity and a central field track no body work: Verlet's kicks scale the velocities four
  // bodies at a time as stored, with nothing booked, and gravity adds m g the same way. Each of
  // nine bodies with its own mass and place must move as it moves alone (the scalar path).
  Random random(5);
  std::vector<BodySpec> specs;
  for (int i = 0; i < 9; ++i) {
    BodySpec b;
    b.mass = random.uniform(0.5, 3.0);
    b.radius = 0.1;
    b.position = Vec3(random.uniform(1, 2), random.uniform(-1, 1), random.uniform(-1, 1));
    b.velocity = Vec3(random.normal(), random.normal(), random.normal());
    specs.push_back(b);
  }
  auto simulation = [](const std::vector<BodySpec>& bodies) {
    World world;
    for (const BodySpec& b : bodies) world.add_body(b);
    ParamTable g, field;
    g.set("g", std::vector<double>{0.3, -0.7, -9.81});
    field.set("GM", 2.0);
    world.add_force(ForceRegistry::instance().make("gravity", g));
    world.add_force(ForceRegistry::instance().make("central", field));
    return Simulation(world, 0.001, "velocity-verlet");
  };
  test::check_each_alone_as_together(specs, simulation, 300,
                                     [](const World& alone, const World& together, int i) {
                                       CHECK(alone.v.col(0) == together.v.col(i));
                                       CHECK(alone.x.col(0) == together.x.col(i));
                                     });
}

TEST_CASE("fused passes run block by block, in queue order, with sums as one loop would make") {
  const int n = 1000;  // three full blocks and a short one
  std::vector<double> values(n);
  Random random(11);
  for (double& v : values) v = random.normal() * std::pow(10.0, random.uniform(-8, 8));
  BodyPasses passes;
  passes.set_block(256);
  std::vector<std::pair<char, int>> calls;
  std::vector<int> finished;
  double total = 0;
  passes.add(
      [&](int, int begin, int end) {
        calls.push_back({'a', begin});
        for (int i = begin; i < end; ++i) total += values[i];
      },
      [&] { finished.push_back(1); });
  passes.add(
      [&](int, int begin, int end) {
        calls.push_back({'b', begin});
        CHECK(end - begin <= 256);
      },
      [&] { finished.push_back(2); });
  passes.run(nullptr, n);
  double plain = 0;
  for (double v : values) plain += v;
  CHECK(total == plain);  // bit for bit: the same additions in the same order
  const std::vector<std::pair<char, int>> expected = {
      {'a', 0}, {'b', 0}, {'a', 256}, {'b', 256}, {'a', 512}, {'b', 512}, {'a', 768}, {'b', 768}};
  CHECK(calls == expected);
  CHECK(finished == std::vector<int>{1, 2});
  CHECK(passes.empty());
}

// In place, the step's evaluation writes over the start evaluation's loads; carried (advance), a
// step's closing passes run with the next step's opening ones. Both against a second set of
// arrays one step at a time, bit for bit, for the given methods on scenes whose loads change
// every step (so reading the arrays' stale contents shows): bonded cubes with driven ends
// (torques, external work) and with local damping, spheres slumping in contact (drag booked),
// dice landing (the shape path; and under impulses), noisy active spheres (BAOAB's draws) and
// disks settling in the plane (the 2-D loads' pass).
static void check_in_place_and_carried(
    const std::vector<std::pair<std::string, std::string>>& methods) {
  struct Case {
    std::string scene;
    std::map<std::string, ParamValue> params;
    long steps;
    bool impulse = false;  // rigid contact by impulses instead of penalty springs
  };
  const std::vector<Case> cases = {
      {"cube-chain", {{"rate", 0.5}}, 150},
      {"cube-chain", {{"local_damping", 0.3}, {"rate", 0.5}}, 150},
      {"column-collapse", {{"width", 4.0}, {"depth", 3.0}, {"height", 8.0}}, 150},
      {"dice", {{"n", 6.0}}, 300},
      {"dice", {{"n", 6.0}}, 300, true},
      {"active-brownian", {{"n", 40.0}}, 150},
      {"disk-settle", {{"n", 60.0}}, 300}};
  auto run = [](const Case& c, const std::string& integrator, const std::string& rotation,
                bool in_place, bool carried) {
    SceneSetup setup = build_scene(c.scene, c.params);
    if (c.impulse) setup.world.contact.set_mode("impulse", "test");
    Simulation sim(setup.world, setup.dt, integrator, rotation);
    sim.set_in_place(in_place);
    stepwise::test::take_steps(sim, c.steps, carried);
    return stepwise::test::run_end(sim);
  };
  for (const Case& c : cases)
    for (const auto& method : methods) {
      const std::string &integrator = method.first, &rotation = method.second;
      const stepwise::test::RunEnd reference = run(c, integrator, rotation, false, false);
      INFO(c.scene << (c.impulse ? " (impulse)" : "") << ", " << integrator << ", " << rotation);
      for (const bool in_place : {false, true})
        for (const bool carried : {false, true}) {
          if (!in_place && !carried) continue;
          INFO("in place " << in_place << ", carried " << carried);
          stepwise::test::check_same(run(c, integrator, rotation, in_place, carried), reference);
        }
    }
}

TEST_CASE("in place and carried across steps equals a second set of arrays one step at a time") {
  // Verlet (kick, drift, kick: the fused and carried passes) and RK4 (trial evaluations) with
  // Buss2, and Verlet with Wang's leapfrog (a scheme that does not go by ranges).
  check_in_place_and_carried(
      {{"velocity-verlet", "buss2"}, {"rk4", "buss2"}, {"velocity-verlet", "wang-leapfrog"}});
}

TEST_CASE("in place and carried equal one step at a time, for every method" *
          doctest::test_suite("slow")) {
  // Every integrator with Buss2, every rotation scheme with Verlet (the sanitized CI run leaves
  // this out: the case above takes the same paths).
  std::vector<std::pair<std::string, std::string>> methods;
  for (const std::string& name : IntegratorRegistry::instance().names())
    methods.push_back({name, "buss2"});
  for (const std::string& name : RotationRegistry::instance().names())
    if (name != "buss2") methods.push_back({"velocity-verlet", name});
  check_in_place_and_carried(methods);
}

TEST_CASE("drag loads cleared and booked only where marked give the whole arrays' ledger") {
  // Contacts mark the bodies they add drag loads to (DragMarks), and the step clears and books
  // only those when few are marked. A drag model of zero coefficients marks nothing, so with it
  // every array is cleared and booked whole; it adds only zeros, so both runs must agree bit for
  // bit: sphere pairs and walls (settle, falling then piling), boxes through the collision
  // table (dice), WCA's spin friction (spinning spheres) and the plane's pass (disk-settle).
  struct Case {
    std::string scene;
    std::map<std::string, ParamValue> params;
    long steps;
  };
  const std::vector<Case> cases = {
      {"settle", {{"n", 512.0}, {"nx", 8.0}, {"ny", 8.0}, {"nz", 8.0}}, 1500},
      {"dice", {{"n", 6.0}}, 300},
      {"wca", {}, 300},  // (below: spinning spheres with spin friction)
      {"disk-settle", {{"n", 200.0}}, 1500}};
  for (const Case& c : cases) {
    INFO(c.scene);
    auto run = [&c](bool unmarked_drag) {
      SceneSetup setup;
      if (c.scene == "wca") {  // a 3 x 3 x 3 lattice of spinning, overlapping spheres
        ParamTable wca;
        wca.set("spin_friction", 0.5);
        setup.world.add_force(ForceRegistry::instance().make("wca", wca));
        for (int i = 0; i < 27; ++i) {
          BodySpec b;
          b.radius = 0.5;
          b.position = 0.95 * Vec3(i % 3, i / 3 % 3, i / 9);
          b.angular_velocity = Vec3(std::sin(i), std::cos(3 * i), 0.5);
          setup.world.add_body(b);
        }
        setup.dt = 1e-3;
      } else {
        setup = build_scene(c.scene, c.params);
      }
      if (unmarked_drag) {
        ParamTable zero;
        zero.set("c", 0.0);
        zero.set("c_rot", 0.0);
        setup.world.add_force(ForceRegistry::instance().make("linear-drag", zero));
      }
      Simulation sim(setup.world, setup.dt, "velocity-verlet", "buss2");
      stepwise::test::take_steps(sim, c.steps, true);
      return stepwise::test::run_end(sim);
    };
    const stepwise::test::RunEnd marked = run(false), whole = run(true);
    CHECK(marked.energy.dissipated != 0);  // (spin friction may feed energy in)
    stepwise::test::check_same(marked, whole);
  }
}

TEST_CASE("a run that goes non-finite inside advance names the step and body that step() names") {
  // advance looks at a step's finiteness one sweep later (with the next step's opening passes)
  // and must still name the step it happened in and its first bad body, and stop there. Two
  // ways to fail: spheres settling at 40 times their time step (every contact gains energy until
  // positions and potential overflow together), and a body whose kinetic energy overflows at
  // a late step while the potential stays finite (the failure found one sweep late).
  SceneSetup settle = build_scene("settle", {{"n", 64.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 4.0}});
  World fast;
  for (int i = 0; i < 4; ++i) {
    BodySpec b;
    b.position = Vec3(i, 0, 0);
    b.velocity = Vec3(0, 0, i == 2 ? -1.3e154 : 0.0);
    fast.add_body(b);
  }
  // Pushed on, body 2's v^2 passes 1.8e308 after about 400 steps; nothing has a potential.
  ParamTable push;
  push.set("body", 2.0);
  push.set("force", std::vector<double>{0, 0, -1e150});
  fast.add_force(ForceRegistry::instance().make("point-force", push));
  const std::vector<std::pair<World, double>> runs = {{settle.world, 40 * settle.dt}, {fast, 1.0}};
  for (const auto& run : runs) {
    const World& world = run.first;  // named locals: clang 14 cannot capture bindings in INFO
    const double dt = run.second;
    long expected_step = -1;
    int expected_body = -2;
    double expected_time = 0;
    Simulation by_steps(world, dt);
    for (long s = 0; s < 100000 && expected_step < 0; ++s)
      if (auto failure = by_steps.step())
        expected_step = failure->step, expected_body = failure->body, expected_time = by_steps.time();
    REQUIRE(expected_step > 0);
    Simulation sim(world, dt);
    const auto failure = sim.advance(100000);
    REQUIRE(failure);
    INFO(world.size() << " bodies, failing at step " << expected_step << " in body " << expected_body);
    CHECK(failure->step == expected_step);
    CHECK(failure->body == expected_body);
    CHECK(sim.step_count() == expected_step);
    CHECK(sim.time() == expected_time);
  }
}

TEST_CASE("spring-chain's exact normal modes: the dense eigenproblem's, and a fine Verlet run's") {
  const double k = 100, m = 1.3, pluck = 0.3, t = 2.7;
  auto chain = [&](int n) {
    return build_scene("spring-chain", {{"n", double(n)}, {"k", k}, {"m", m}, {"pluck", pluck}});
  };
  for (int n : {1, 2, 7, 40}) {
    SceneSetup setup = chain(n);
    REQUIRE(setup.exact);
    CHECK((setup.exact(0) - setup.world.x).cwiseAbs().maxCoeff() < 1e-12);
    // The modes of K = k tridiag(-1, 2, -1) (last diagonal k) from a dense eigensolver.
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) {
      K(i, i) = i == n - 1 ? k : 2 * k;
      if (i + 1 < n) K(i, i + 1) = K(i + 1, i) = -k;
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> modes(K);
    const Eigen::VectorXd omega = (modes.eigenvalues() / m).cwiseSqrt();
    const Eigen::VectorXd u =
        modes.eigenvectors() * (modes.eigenvectors().row(n - 1).transpose() * pluck)
                                   .cwiseProduct((omega * t).array().cos().matrix());
    const Positions exact = setup.exact(t);
    for (int i = 0; i < n; ++i)
      CHECK(exact(0, i) == doctest::Approx(i + 1.0 + u(i)).epsilon(1e-11));
  }
  // Velocity Verlet converges on it at second order.
  auto verlet_error = [&](double dt) {
    SceneSetup setup = chain(40);
    Simulation sim(setup.world, dt, "velocity-verlet");
    REQUIRE_FALSE(sim.advance(std::lround(t / dt)));
    return (sim.world().x - setup.exact(t)).cwiseAbs().maxCoeff();
  };
  const double coarse = verlet_error(2e-3), fine = verlet_error(1e-3);
  CHECK(fine < 1e-3 * pluck);
  CHECK(coarse / fine == doctest::Approx(4).epsilon(0.05));
}

TEST_CASE("slow: spring-chain builds at once at any length, its closed form up to 10,000 masses" *
          doctest::test_suite("slow")) {
  // A dense eigensolver at each build took 91 s at 5,000 masses. (Slow only under the
  // sanitizers, whose allocator makes a World's growth body by body quadratic.)
  CHECK(build_scene("spring-chain", {{"n", 10000.0}}).exact);
  const SceneSetup longest = build_scene("spring-chain", {{"n", 100000.0}});
  CHECK(longest.world.size() == 100000);
  CHECK_FALSE(longest.exact);
}
