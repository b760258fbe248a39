// Constraints by Lagrange multipliers (seed 004): closed-form periods and equilibria, forces that
// do no work, drift control, and sets that are redundant or cannot be kept.
#include <doctest/doctest.h>

#include <cmath>

#include "core/scenes/rigid_scene_helpers.hpp"
#include "core/shapes/shape.hpp"
#include "test_support.hpp"

namespace stepwise {
namespace {

using test::scene_simulation;

// Time between two successive downward crossings of coordinate `axis` of `body` through
// `level`, linearly interpolated; 0 if there were not two within max_steps.
double crossing_period(Simulation& sim, int body, int axis, double level, long max_steps) {
  std::vector<double> crossings;
  double before = sim.world().x(axis, body) - level;
  for (long s = 0; s < max_steps && crossings.size() < 2; ++s) {
    const double t0 = sim.time();
    REQUIRE_FALSE(sim.step());
    const double after = sim.world().x(axis, body) - level;
    if (before > 0 && after <= 0) crossings.push_back(t0 + sim.dt() * before / (before - after));
    before = after;
  }
  return crossings.size() == 2 ? crossings[1] - crossings[0] : 0.0;
}

double figure(const Simulation& sim, const std::string& name) {
  for (const auto& model : sim.world().forces) {
    std::vector<ForceModel::Figure> figures;
    model->figures(sim.world(), figures);
    for (const auto& f : figures)
      if (f.name == name) return f.value;
  }
  FAIL("no figure " << name);
  return 0;
}

const double kPeriod90 = 7.416298709205487;  // 4 K(sin² 45°): the 90° pendulum, in sqrt(L/g)

}  // namespace

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

TEST_CASE("a bead on a spinning hoop settles at cos theta = g/(omega^2 R), or at the bottom") {
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

}  // namespace stepwise

namespace stepwise {
namespace {

// A box (sides a, b, c, mass m) hanging from the world's origin by a joint of `kind` at the
// middle of its top face, turned by `turn`, with the extra keys given.
World hanging_box(const std::string& kind, const Quat& turn, ParamTable joint, double g = 9.81) {
  World world;
  const Vec3 half(0.2, 0.05, 0.5), top(0, 0, 0.5);
  world.add_body(shaped_body(box_shape(half), 1.0, -(turn * top), turn));
  joint.set("kind", kind);
  joint.set("a", 0.0);
  joint.set("point_a", std::vector<double>{top.x(), top.y(), top.z()});
  joint.set("anchor", std::vector<double>{0, 0, 0});
  ParamTable model;
  model.set("constraint", std::vector<ParamTable>{joint});
  world.add_force(ForceRegistry::instance().make("constraints", model));
  add_gravity(world, g);
  return world;
}

}  // namespace

TEST_CASE("a box on a ball joint spins and swings keeping its vertical angular momentum") {
  // Joints at body points couple the translational integrator and the rotation scheme, which
  // step in turn: without drift control the joint drifts at first order in dt whatever the pair
  // (rk4+rk4, velocity-verlet with buss2, wang-leapfrog or splitting: |C| 1.7e-3 at dt 1e-3,
  // 8.4e-4 at 5e-4 over 2 s). Projection keeps it exact, and the rest is second order.
  World world = hanging_box("ball", Quat(Eigen::AngleAxisd(0.5, Vec3::UnitX())), ParamTable());
  const Vec3 spin(0.3, -0.2, 4.0);
  world.set_angular_velocity(0, spin);
  world.v.col(0) = spin.cross(Vec3(world.x.col(0)));  // the joint point at rest
  world.forces.back()->set_tunable("drift", 2);       // projection
  double lz_error[2], energy_error[2];
  for (int k = 0; k < 2; ++k) {
    const double dt = k == 0 ? 1e-3 : 5e-4;
    Simulation sim(world, dt, "velocity-verlet", "buss2");
    const double lz0 = sim.energy().angular_momentum.z();
    REQUIRE_FALSE(sim.advance(long(std::lround(2 / dt))));  // 2 s of a wobbling, precessing swing
    const EnergyReport r = sim.energy();
    lz_error[k] = std::abs(r.angular_momentum.z() / lz0 - 1);
    energy_error[k] = std::abs(r.energy_error);
    CHECK(figure(sim, "max |C|") < 1e-12);
    CHECK((sim.world().q[0] * Vec3(0, 0, 0.5) + sim.world().x.col(0)).norm() < 1e-12);
  }
  MESSAGE("relative Lz error " << lz_error[0] << ", " << lz_error[1] << "; energy error "
                               << energy_error[0] << ", " << energy_error[1]);
  CHECK(lz_error[0] < 1e-7);
  CHECK(lz_error[1] < lz_error[0]);
  CHECK(energy_error[0] < 1e-7);
  CHECK(energy_error[0] / energy_error[1] > 3);  // 4.3: second order
  CHECK(energy_error[0] / energy_error[1] < 5.5);
}

TEST_CASE("a door on a tilted hinge swings with gravity's share along it") {
  // Hinge axis tilted by 60 degrees from the vertical: only g sin 60 acts in the door's plane.
  // The box (a = 0.4 across, c = 1 down from the hinge) swings about the axis through its top
  // face: small-swing period 2 pi sqrt(I / (m g_eff d)), I = m (a^2 + c^2)/12 + m d^2, d = c/2.
  const double tilt = M_PI / 3, g = 9.81, d = 0.5;
  const double inertia = (0.4 * 0.4 + 1.0) / 12 + d * d;
  const double period = 2 * M_PI * std::sqrt(inertia / (g * std::sin(tilt) * d));
  // The axis along y turned by `tilt` about x; the box hangs in the plane the axis allows, swung
  // 2 degrees about the axis.
  const Quat lean(Eigen::AngleAxisd(tilt - M_PI / 2, Vec3::UnitX()));
  const Vec3 axis = lean * Vec3::UnitY();
  const Quat turn = Quat(Eigen::AngleAxisd(2 * M_PI / 180, axis)) * lean;
  ParamTable hinge;
  hinge.set("axis_a", std::vector<double>{0, 1, 0});
  hinge.set("axis_b", std::vector<double>{axis.x(), axis.y(), axis.z()});
  Simulation sim(hanging_box("hinge", turn, hinge, g), 2.5e-4, "rk4", "rk4");
  // The centre crosses the plane through the axis and the vertical.
  const Vec3 normal = axis.cross(Vec3::UnitZ()).normalized();
  std::vector<double> crossings;
  double before = normal.dot(sim.world().x.col(0));
  while (crossings.size() < 2 && sim.time() < 6) {
    const double t0 = sim.time();
    REQUIRE_FALSE(sim.step());
    const double after = normal.dot(sim.world().x.col(0));
    if (before > 0 && after <= 0) crossings.push_back(t0 + sim.dt() * before / (before - after));
    before = after;
  }
  REQUIRE(crossings.size() == 2);
  MESSAGE("tilted hinge: " << crossings[1] - crossings[0] << " vs " << period);
  CHECK(std::abs((crossings[1] - crossings[0]) / period - 1) < 1e-3);
  // It turns about the axis only.
  CHECK(sim.world().w.col(0).cross(axis).norm() < 1e-6 * (1 + sim.world().w.col(0).norm()));
}

TEST_CASE("an orientation constraint holds a body against a torque, alone or welded to another") {
  // A box held at its top by a ball joint and its orientation fixed: gravity's pull on its
  // off-centre mass cannot turn it, so it stays exactly where it was.
  const Quat turn(Eigen::AngleAxisd(0.7, Vec3::UnitY()));
  World world = hanging_box("ball", turn, ParamTable());
  ParamTable fixed, model;
  fixed.set("kind", std::string("orientation"));
  fixed.set("a", 0.0);
  fixed.set("target", std::vector<double>{turn.w(), turn.x(), turn.y(), turn.z()});
  REQUIRE(world.forces.back()->kind() == "constraints");
  world.forces.back()->save(model);
  std::vector<ParamTable> constraints = model.tables("constraint");
  constraints.push_back(fixed);
  model.set("constraint", constraints);
  world.forces.back() = ForceRegistry::instance().make("constraints", model);
  const Vec3 start = world.x.col(0);
  Simulation sim(world, 1e-3, "rk4", "rk4");
  REQUIRE_FALSE(sim.advance(1000));
  CHECK((sim.world().x.col(0) - start).norm() < 1e-9);
  CHECK(sim.world().q[0].angularDistance(turn) < 1e-9);
  CHECK(figure(sim, "rank") == 6);

  // Two boxes welded (a ball joint where they meet and their relative orientation fixed) tumble
  // through free fall as one rigid body.
  World pair;
  for (double x : {0.0, 1.0})
    pair.add_body(shaped_body(box_shape(Vec3(0.5, 0.1, 0.2)), 1.0, Vec3(x, 0, 0)));
  ParamTable joint, weld, welded;
  joint.set("kind", std::string("ball"));
  joint.set("a", 1.0), joint.set("b", 0.0);
  joint.set("point_a", std::vector<double>{-0.5, 0, 0});
  joint.set("point_b", std::vector<double>{0.5, 0, 0});
  weld.set("kind", std::string("orientation"));
  weld.set("a", 1.0), weld.set("b", 0.0);
  welded.set("constraint", std::vector<ParamTable>{joint, weld});
  welded.set("drift", std::string("projection"));
  pair.add_force(ForceRegistry::instance().make("constraints", welded));
  add_gravity(pair, 9.81);
  const Vec3 spin(1.0, 2.0, 3.0), centre(0.5, 0, 0);
  for (int i = 0; i < 2; ++i) {
    pair.set_angular_velocity(i, spin);
    pair.v.col(i) = spin.cross(Vec3(pair.x.col(i)) - centre);
  }
  Simulation tumble(pair, 1e-3, "velocity-verlet", "buss2");
  REQUIRE_FALSE(tumble.advance(1000));
  const World& w = tumble.world();
  CHECK(w.q[0].angularDistance(w.q[1]) < 1e-10);
  CHECK(std::abs((w.x.col(1) - w.x.col(0)).norm() - 1) < 1e-10);
  CHECK((w.w.col(0) - w.w.col(1)).norm() < 1e-8);
  // (With rk4 for both halves the same run ends at 6e-3: RK4's stages see the orientations
  // already stepped, so the split costs it more than Verlet's symmetric one.)
  CHECK(std::abs(tumble.energy().energy_error) < 1e-5);
}
}  // namespace stepwise

namespace stepwise {
namespace {

// The bobs a generalised-coordinates World stands for.
std::vector<ForceModel::Shown> bobs(const Simulation& sim) {
  std::vector<ForceModel::Shown> out;
  for (const auto& model : sim.world().forces)
    if (model->shown_bodies(sim.world(), out)) break;
  return out;
}

}  // namespace

TEST_CASE("generalised coordinates: the pendulums in their angles") {
  const double L = 1.3, g = 9.81;
  SUBCASE("the 90 degree period") {
    Simulation sim = scene_simulation("pendulum", "rk4", 1e-3,
                                      {{"length", L}, {"formulation", std::string("generalised")}});
    // Body 0 is the angle itself: it crosses zero where the bob passes under the pivot.
    const double error =
        crossing_period(sim, 0, 0, 0.0, 20000) / (kPeriod90 * std::sqrt(L / g)) - 1;
    MESSAGE("generalised, rk4: relative period error " << error);
    CHECK(std::abs(error) < 1e-4);
    const auto shown = bobs(sim);
    REQUIRE(shown.size() == 1);
    const double theta = sim.world().x(0, 0);
    CHECK((shown[0].position - (Vec3(0, 0, L) + L * Vec3(std::sin(theta), 0, -std::cos(theta))))
              .norm() < 1e-14);
  }
  SUBCASE("the double pendulum's normal modes") {
    for (int mode : {-1, 1}) {
      const double omega = std::sqrt((2 + mode * std::sqrt(2.0)) * g / L);
      Simulation sim = scene_simulation("double-pendulum", "rk4", 2e-4,
                                        {{"length", L},
                                         {"angle1", 0.5},
                                         {"angle2", -mode * std::sqrt(2.0) * 0.5},
                                         {"formulation", std::string("generalised")}});
      const double period = crossing_period(sim, 0, 0, 0.0, 200000);
      CAPTURE(mode);
      CHECK(std::abs(period * omega / (2 * M_PI) - 1) < 1e-3);
    }
  }
  SUBCASE("energy: RK4's own error, fourth order; the ledger counts the bobs' kinetic energy") {
    double errors[2];
    for (int k = 0; k < 2; ++k) {
      const double dt = k == 0 ? 4e-3 : 2e-3;
      Simulation sim = scene_simulation("double-pendulum", "rk4", dt,
                                        {{"formulation", std::string("generalised")}});
      REQUIRE_FALSE(sim.advance(long(std::lround(2.0 / dt))));
      errors[k] = std::abs(sim.energy().energy_error);
      double kinetic = 0;
      for (const auto& b : bobs(sim)) kinetic += 0.5 * b.mass * b.velocity.squaredNorm();
      CHECK(sim.energy().kinetic == doctest::Approx(kinetic).epsilon(1e-14));
    }
    MESSAGE("generalised energy error " << errors[0] << " at dt 4e-3, " << errors[1] << " at 2e-3");
    CHECK(errors[0] < 1e-5);
    CHECK(errors[0] / errors[1] > 10);  // 31 measured: fourth order or better
    CHECK(errors[0] / errors[1] < 40);
  }
}

TEST_CASE("multipliers and generalised coordinates agree on the double pendulum to RK4's order") {
  // From 120 and 150 degrees (chaotic, so a short second), the bobs of the two formulations at
  // two steps: their difference is both methods' error, shrinking as dt^4.
  double gap[2];
  for (int k = 0; k < 2; ++k) {
    const double dt = k == 0 ? 4e-3 : 2e-3;
    Simulation rods =
        scene_simulation("double-pendulum", "rk4", dt, {{"drift", std::string("none")}});
    Simulation angles = scene_simulation("double-pendulum", "rk4", dt,
                                         {{"formulation", std::string("generalised")}});
    const long steps = std::lround(1.0 / dt);
    REQUIRE_FALSE(rods.advance(steps));
    REQUIRE_FALSE(angles.advance(steps));
    const auto shown = bobs(angles);
    gap[k] = std::max((rods.world().x.col(0) - shown[0].position).norm(),
                      (rods.world().x.col(1) - shown[1].position).norm());
  }
  MESSAGE("largest bob gap " << gap[0] << " at dt 4e-3, " << gap[1] << " at 2e-3");
  CHECK(gap[0] < 1e-4);
  CHECK(gap[0] / gap[1] > 10);
}

}  // namespace stepwise

namespace stepwise {

TEST_CASE("a closed loop: a four-bar linkage of hinges is redundant in 3-D, reported and solved") {
  // Ground A-D, crank A-B, coupler B-C, rocker D-C, every joint a hinge along y: 3 moving links
  // (18 freedoms) under 4 hinges (20 rows) leave one freedom, so J W Jt has rank 17 of 20.
  const Vec3 A(0, 0, 0), B(0.5, 0, 1), C(2.2, 0, 1.2), D(2, 0, 0);
  World world;
  struct Bar {
    Vec3 from, to;
  };
  const Bar bars[] = {{A, B}, {B, C}, {D, C}};
  for (const Bar& b : bars) {
    const Vec3 d = b.to - b.from;
    const Quat turn(Eigen::AngleAxisd(std::atan2(d.x(), d.z()), Vec3::UnitY()));
    world.add_body(
        shaped_body(box_shape(Vec3(0.05, 0.05, 0.5 * d.norm())), 1.0, 0.5 * (b.from + b.to), turn));
  }
  auto half = [&](int i) { return 0.5 * (bars[i].to - bars[i].from).norm(); };
  auto hinge = [](int a, double za, int b, double zb, const Vec3& anchor) {
    ParamTable t;
    t.set("kind", std::string("hinge"));
    t.set("a", double(a));
    t.set("point_a", std::vector<double>{0, 0, za});
    if (b >= 0) {
      t.set("b", double(b));
      t.set("point_b", std::vector<double>{0, 0, zb});
    } else {
      t.set("anchor", std::vector<double>{anchor.x(), anchor.y(), anchor.z()});
    }
    t.set("axis_a", std::vector<double>{0, 1, 0});
    t.set("axis_b", std::vector<double>{0, 1, 0});
    return t;
  };
  ParamTable model;
  model.set("constraint", std::vector<ParamTable>{
                              hinge(0, -half(0), -1, 0, A), hinge(1, -half(1), 0, half(0), A),
                              hinge(1, half(1), 2, half(2), A), hinge(2, -half(2), -1, 0, D)});
  model.set("drift", std::string("projection"));
  world.add_force(ForceRegistry::instance().make("constraints", model));
  add_gravity(world, 9.81);
  Simulation sim(world, 1e-3, "velocity-verlet", "buss2");
  REQUIRE_FALSE(sim.advance(1000));
  CHECK(figure(sim, "rows") == 20);
  CHECK(figure(sim, "rank") == 17);
  CHECK(figure(sim, "max |C|") < 1e-10);
  CHECK(sim.world().x.allFinite());
  // It moved (one freedom, under gravity), and the crank still turns about A in the x-z plane.
  CHECK((sim.world().x.col(0) - world.x.col(0)).norm() > 0.05);
  CHECK(std::abs(sim.world().x(1, 0)) < 1e-10);
  CHECK(std::abs(sim.energy().energy_error) < 1e-3);
}

}  // namespace stepwise

namespace stepwise {

TEST_CASE("a projection restarts the methods' carried state from the corrected one") {
  // Leapfrog keeps half-step velocities; unless it restarts from the projected velocities, the
  // projection is undone at the next step (the ledger ended at 2e-3 so; velocity Verlet 1e-5).
  Simulation sim =
      scene_simulation("pendulum", "leapfrog", 2e-3, {{"drift", std::string("projection")}});
  REQUIRE_FALSE(sim.advance(2000));
  CHECK(std::abs(sim.energy().energy_error) < 1e-4);
  CHECK(figure(sim, "max |C|") < 1e-12);
  CHECK(figure(sim, "max |dC/dt|") < 1e-12);
}

}  // namespace stepwise

namespace stepwise {

TEST_CASE("a projection leaves the methods' state of bodies it does not move alone") {
  // A tumbling box beside a projected pendulum turns under Wang's leapfrog exactly as alone:
  // only a correction that changed spins restarts the rotation scheme's half-step spins.
  auto tumbling = [] {
    World world;
    world.add_body(shaped_body(box_shape(Vec3(0.3, 0.2, 0.1)), 1.0, Vec3(5, 0, 0)));
    world.set_angular_velocity(0, Vec3(0.1, 3.0, 0.2));
    return world;
  };
  World both = tumbling();
  BodySpec bob;
  bob.position = Vec3(1, 0, 0);
  both.add_body(bob);
  ParamTable rod, model;
  rod.set("kind", std::string("rod"));
  rod.set("a", 1.0);
  rod.set("anchor", std::vector<double>{0, 0, 0});
  rod.set("length", 1.0);
  model.set("constraint", std::vector<ParamTable>{rod});
  model.set("drift", std::string("projection"));
  both.add_force(ForceRegistry::instance().make("constraints", model));
  add_gravity(both, 9.81);
  Simulation alone(tumbling(), 1e-3, "velocity-verlet", "wang-leapfrog");
  Simulation beside(both, 1e-3, "velocity-verlet", "wang-leapfrog");
  REQUIRE_FALSE(alone.advance(500));
  REQUIRE_FALSE(beside.advance(500));
  CHECK(alone.world().q[0].coeffs() == beside.world().q[0].coeffs());
  CHECK(alone.world().w.col(0) == beside.world().w.col(0));
}

}  // namespace stepwise

namespace stepwise {

TEST_CASE("a hinge between two bodies turning off its axis keeps its axes aligned") {
  // Two hinged boxes tumbling about a direction across the hinge while turning about it relative
  // to each other: the axis rows' velocity terms are nonzero here (every other hinge test turns
  // about the axis alone, where they vanish).
  World pair;
  for (double x : {0.0, 1.0})
    pair.add_body(shaped_body(box_shape(Vec3(0.5, 0.1, 0.2)), 1.0, Vec3(x, 0, 0)));
  ParamTable hinge, model;
  hinge.set("kind", std::string("hinge"));
  hinge.set("a", 1.0), hinge.set("b", 0.0);
  hinge.set("point_a", std::vector<double>{-0.5, 0, 0});
  hinge.set("point_b", std::vector<double>{0.5, 0, 0});
  hinge.set("axis_a", std::vector<double>{0, 1, 0});
  hinge.set("axis_b", std::vector<double>{0, 1, 0});
  model.set("constraint", std::vector<ParamTable>{hinge});
  pair.add_force(ForceRegistry::instance().make("constraints", model));
  // Box 1 also turns about the hinge relative to box 0; the joint point itself is at rest.
  const Vec3 joint(0.5, 0, 0), spins[2] = {Vec3(2.0, 0.5, 3.0), Vec3(2.0, 2.5, 3.0)};
  for (int i = 0; i < 2; ++i) {
    pair.set_angular_velocity(i, spins[i]);
    pair.v.col(i) = spins[i].cross(Vec3(pair.x.col(i)) - joint);
  }
  Simulation sim(pair, 2.5e-4, "rk4", "rk4");
  REQUIRE_FALSE(sim.advance(4000));  // 1 s
  const World& w = sim.world();
  const double misaligned = (w.q[0] * Vec3::UnitY()).cross(w.q[1] * Vec3::UnitY()).norm();
  MESSAGE("hinge axes apart by " << misaligned << " rad, max |C| " << figure(sim, "max |C|"));
  // Without drift control the translation/rotation split leaves a first-order drift (2.2e-3 rad
  // here); without the axis rows' velocity terms the axes part by 0.67 rad.
  CHECK(misaligned < 1e-2);
  CHECK(figure(sim, "max |C|") < 1e-2);
}

}  // namespace stepwise
