// Rigid contact by impulses (contact treatment `impulse`, core/impulse) against closed forms:
// Newton's restitution at one point, energy kept at e = 1, a box resting and on an incline, the
// friction cone's isotropy and Newton's cradle.
#include <doctest/doctest.h>

#include <cmath>

#include "core/impulse/contact_solver.hpp"
#include "core/random.hpp"
#include "core/simulation.hpp"
#include "test_support.hpp"

using namespace stepwise;

namespace {

// A body over a floor at z = 0, gravity g along `down`, rigid contact with restitution e.
World rigid_world(const BodySpec& body, double e, double mu, double g,
                  const Vec3& down = -Vec3::UnitZ(),
                  ContactTreatment::Solver solver = ContactTreatment::Solver::automatic) {
  World world;
  world.add_body(body);
  ParamTable hooke;
  hooke.set("mu", mu);
  hooke.set("wall", std::vector<ParamTable>{test::floor_wall()});
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  if (g > 0) {
    ParamTable gravity;
    const Vec3 a = g * down;
    gravity.set("g", std::vector<double>{a.x(), a.y(), a.z()});
    world.add_force(ForceRegistry::instance().make("gravity", gravity));
  }
  world.contact.mode = ContactTreatment::Mode::impulse;
  world.contact.restitution = e;
  world.contact.solver = solver;
  return world;
}

BodySpec cube(double half, const Vec3& at, const Quat& q = Quat::Identity()) {
  BodySpec b = shaped_body(box_shape(Vec3::Constant(half)), 1.0, at, q);
  return b;
}

}  // namespace

TEST_CASE("impulse: a sphere meets a floor with Newton's restitution, exactly") {
  for (double e : {0.0, 0.6, 1.0}) {
    BodySpec ball;
    ball.radius = 0.1;
    ball.position = Vec3(0, 0, 0.1005);
    ball.velocity = Vec3(0, 0, -1);
    Simulation sim(rigid_world(ball, e, 0.5, 0), 1e-3);
    const double e0 = sim.energy().total;
    // Step 1 ends 0.5 mm into the floor and takes the overlap out of the position (all but the
    // slop); step 2's impulse acts on the velocity it moves with.
    REQUIRE_FALSE(sim.advance(2));
    CHECK(sim.world().v(2, 0) == doctest::Approx(e).epsilon(1e-14));
    CHECK(sim.world().x(2, 0) >= 0.1 - ImpulseContact::kSlop * 0.1 + e * 1e-3 - 1e-15);
    const EnergyReport r = sim.energy();
    CHECK(r.dissipated == doctest::Approx(0.5 * (1 - e * e)).epsilon(1e-13));
    if (e == 1.0) CHECK(std::abs(r.total - e0) < 1e-15);
    CHECK(std::abs(r.energy_error) < 1e-14);
  }
}

TEST_CASE("impulse: a box's corner rebounds with normal speed ratio e; e = 1 keeps the energy") {
  // A cube tipped on two axes falls onto one corner without gravity; frictionless, so the one
  // impulse is the seed's j = -(1 + e) u_n / (n.K n) along the normal.
  const Quat tilt =
      Quat(Eigen::AngleAxisd(0.5, Vec3::UnitX())) * Quat(Eigen::AngleAxisd(0.4, Vec3::UnitY()));
  for (double e : {0.3, 1.0}) {
    Vec3 low = Vec3::Zero();  // the lowest corner, body frame
    for (int c = 0; c < 8; ++c) {
      const Vec3 corner(c & 1 ? 0.1 : -0.1, c & 2 ? 0.1 : -0.1, c & 4 ? 0.1 : -0.1);
      if ((tilt * corner).z() < (tilt * low).z()) low = corner;
    }
    BodySpec box = cube(0.1, Vec3(0, 0, -(tilt * low).z() + 4e-4), tilt);
    box.velocity = Vec3(0.2, 0, -1);
    Simulation sim(rigid_world(box, e, 0.0, 0), 1e-3);
    const double e0 = sim.energy().total;
    REQUIRE_FALSE(sim.advance(2));
    REQUIRE(sim.impulse_figures().wall_contacts == 1);
    REQUIRE(sim.impulse_figures().impacts == 1);
    const Vec3 r = sim.world().q[0] * low;
    const double un = sim.world().v(2, 0) + sim.world().w.col(0).cross(r).z();
    // Exactly e at the solver's arm (next test); the corner's arm here moved with the overlap's
    // correction, by a fraction of a millimetre: 0.303 for e = 0.3. (scale 0: relative.)
    CHECK(un == doctest::Approx(e).epsilon(1.5e-2).scale(0));
    CHECK(sim.world().w.col(0).norm() > 1);  // an off-centre blow sets it turning
    if (e == 1.0) CHECK(std::abs(sim.energy().total - e0) < 1e-14 * e0);
  }
}

TEST_CASE(
    "impulse: one point's impulse is the seed's j = -(1 + e) u_n / (1/M + n.(I^-1 (r x n)) x r)") {
  // A box of unequal sides, turned, against a sphere: one contact point, frictionless.
  World world;
  const Quat q(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  BodySpec box = shaped_body(box_shape(Vec3(0.3, 0.2, 0.1)), 2.0, Vec3::Zero(), q);
  box.velocity = Vec3(0.5, -1, 0.2);
  box.angular_velocity = Vec3(3, -1, 2);
  BodySpec ball;
  ball.radius = 0.1;
  ball.mass = 0.7;
  ball.position = Vec3(0.1, 0.2, 0.6);
  ball.velocity = Vec3(-0.3, 0.1, -2);
  ball.angular_velocity = Vec3(1, 1, 0);
  world.add_body(box);
  world.add_body(ball);
  ForceModel::RigidContact c{
      1, 0, Vec3(0.12, 0.18, 0.45), Vec3(0.1, 0.3, 1).normalized(), 1e-4, 7, 0.0, Vec3::Zero()};
  auto normal_speed = [&](const World& w) {
    const Vec3 ra = c.position - w.x.col(1), rb = c.position - w.x.col(0);
    return c.normal.dot(w.v.col(1) + w.w.col(1).cross(ra) - w.v.col(0) - w.w.col(0).cross(rb));
  };
  const double before = normal_speed(world);
  REQUIRE(before < -1);
  // The seed's denominator, both bodies: 1/M_a + 1/M_b + n.(I_a^-1 (r_a x n)) x r_a + ...
  const Vec3 ra = c.position - world.x.col(1), rb = c.position - world.x.col(0), n = c.normal;
  const Mat3 R = q.toRotationMatrix();
  const Mat3 inv_box = R * world.inertia.col(0).cwiseInverse().asDiagonal() * R.transpose();
  const double ball_inertia = world.inertia(0, 1);  // 2/5 m r^2, the same about every axis
  const double denominator = 1 / 2.0 + 1 / 0.7 + n.dot((ra.cross(n) / ball_inertia).cross(ra)) +
                             n.dot((inv_box * rb.cross(n)).cross(rb));
  const double e = 0.4, j = -(1 + e) * before / denominator;
  ContactTreatment treatment;
  treatment.restitution = e;
  ImpulseContact solver;
  const Vec3 ball_v = world.v.col(1);
  solver.resolve_velocities(world, treatment, {c}, VecX::Zero(2));
  CHECK(normal_speed(world) == doctest::Approx(-e * before).epsilon(1e-13));
  CHECK(j > 1);
  CHECK((0.7 * (world.v.col(1) - ball_v) - j * n).norm() < 1e-12 * j);
}

// The solvers that hold resting contact exactly: Gauss-Seidel with subspace minimisation
// (automatic) and Lemke's method on the friction pyramid.
const ContactTreatment::Solver kExactSolvers[] = {ContactTreatment::Solver::automatic,
                                                  ContactTreatment::Solver::lemke};

TEST_CASE("impulse: a box resting on a floor stays put to round-off") {
  for (const auto solver : kExactSolvers) {
    CAPTURE(int(solver));
    Simulation sim(rigid_world(cube(0.2, Vec3(0, 0, 0.2)), 0.5, 0.5, 9.81, -Vec3::UnitZ(), solver),
                   1e-3);
    REQUIRE_FALSE(sim.advance(1000));
    const Vec3 x1 = sim.world().x.col(0);
    const Quat q1 = sim.world().q[0];
    REQUIRE_FALSE(sim.advance(9000));
    CHECK((sim.world().x.col(0) - x1).norm() < 1e-9 * 9);  // no creep above 1e-9 per second
    // On its face, in the floor by no more than the slop (of the bounding radius 0.2 sqrt 3).
    CHECK(std::abs(sim.world().x(2, 0) - 0.2) < ImpulseContact::kSlop * 0.2 * std::sqrt(3.0));
    CHECK(sim.world().q[0].angularDistance(q1) < 1e-12);
    CHECK(sim.energy().wall_contacts == 1);
    CHECK(std::abs(sim.energy().energy_error) < 1e-12);
  }
}

TEST_CASE("impulse: a box on an incline holds below tan(theta) = mu and slides above it" *
          doctest::test_suite("slow")) {
  // The floor stays level and gravity leans: an incline of angle theta.
  const double mu = 0.5, g = 9.81;
  // From 0.1 s (the first step falls onto the floor) to 0.1 s + `seconds`: distance and speed
  // gained along the slope.
  for (const auto solver : kExactSolvers) {
    CAPTURE(int(solver));
    auto run = [&](double degrees, double seconds) {
      const double theta = degrees * M_PI / 180;
      const Vec3 down(std::sin(theta), 0, -std::cos(theta));
      Simulation sim(rigid_world(cube(0.1, Vec3(0, 0, 0.1)), 0.0, mu, g, down, solver), 1e-3);
      REQUIRE_FALSE(sim.advance(100));
      const double x0 = sim.world().x(0, 0), v0 = sim.world().v(0, 0);
      REQUIRE_FALSE(sim.advance(long(std::lround(seconds / 1e-3))));
      CHECK(sim.world().q[0].angularDistance(Quat::Identity()) < 1e-9);  // on its face: no tipping
      return std::pair{sim.world().x(0, 0) - x0, sim.world().v(0, 0) - v0};
    };
    const auto [crept, gained] = run(20, 10.0);  // tan 20 deg = 0.36 < 0.5
    CHECK(std::abs(crept) < 1e-12);
    CHECK(std::abs(gained) < 1e-12);
    const auto [slid, speed] = run(35, 1.0);  // tan 35 deg = 0.70 > 0.5
    const double theta = 35 * M_PI / 180, a = g * (std::sin(theta) - mu * std::cos(theta));
    CHECK(speed == doctest::Approx(a * 1.0).epsilon(5e-3));
    CHECK(slid > 0.5 * a);
  }
}

TEST_CASE("impulse: the friction cone is round: a box stops as far pushed along x or diagonally" *
          doctest::test_suite("slow")) {
  const double mu = 0.5, g = 9.81, v0 = 1.0;
  // Lemke's pyramid too (8 sides): its first edge lies against the sliding, whichever way.
  for (const auto solver : kExactSolvers) {
    CAPTURE(int(solver));
    auto distance = [&](const Vec3& direction) {
      BodySpec box = cube(0.1, Vec3(0, 0, 0.1));
      box.velocity = v0 * direction.normalized();
      Simulation sim(rigid_world(box, 0.0, mu, g, -Vec3::UnitZ(), solver), 1e-4);
      REQUIRE_FALSE(sim.advance(4000));  // 0.4 s; it stops after v0 / (mu g) = 0.2 s
      CHECK(sim.world().v.col(0).head<2>().norm() < 1e-12);
      const Vec3 moved(sim.world().x(0, 0), sim.world().x(1, 0), 0);
      CHECK(moved.normalized().dot(direction.normalized()) > 1 - 1e-12);  // straight on
      return moved.norm();
    };
    const double along_x = distance(Vec3::UnitX()), diagonal = distance(Vec3(1, 1, 0));
    // (scale 0: relative tolerances; doctest's default adds 1 to the scale, which for a 0.1 m
    // slide would pass 10%.)
    CHECK(diagonal == doctest::Approx(along_x).epsilon(1e-2).scale(0));
    CHECK(along_x == doctest::Approx(v0 * v0 / (2 * mu * g)).epsilon(1e-2).scale(0));
    // Half-way between two of the pyramid's edges, had they not been turned to the sliding.
    const double between = distance(Vec3(std::cos(M_PI / 8), std::sin(M_PI / 8), 0));
    CHECK(between == doctest::Approx(along_x).epsilon(1e-2).scale(0));
  }
}

TEST_CASE("impulse: Newton's cradle passes the blow on, the last ball leaves with it") {
  // e = 1: ball 0 stops, the middle balls stay, ball 4 leaves with ball 0's speed: the
  // sequential-impulse result. Penalty (Hertz, e = 1) leaves the first balls moving.
  auto run = [](bool impulse) {
    Simulation sim = test::scene_simulation("newtons-cradle", "velocity-verlet",
                                            impulse ? 1e-4 : 2e-5, {{"n", 5.0}});
    ContactTreatment rigid;
    rigid.mode = ContactTreatment::Mode::impulse;
    rigid.restitution = 1.0;
    if (impulse) sim.set_contact(rigid);
    double speed = 0;  // ball 0's at the bottom
    while (sim.time() < 0.6) {
      speed = std::max(speed, sim.world().v(0, 0));
      REQUIRE_FALSE(sim.step());
    }
    Eigen::VectorXd vx = sim.world().v.row(0).transpose() / speed;
    return vx;
  };
  const Eigen::VectorXd rigid = run(true), penalty = run(false);
  for (int i = 0; i < 4; ++i) CHECK(std::abs(rigid(i)) < 1e-4);
  CHECK(rigid(4) > 0.95);  // 0.09 s into its swing up: 0.954 of the speed
  // Penalty: the first balls keep a tenth of the speed and more, the last leaves with less.
  CHECK(penalty.head<4>().cwiseAbs().maxCoeff() > 0.05);
  CHECK(penalty(4) < rigid(4));
}

TEST_CASE("impulse: a stack of ten boxes stands ten seconds without moving" *
          doctest::test_suite("slow")) {
  // With Gauss-Seidel alone (solver = pgs, 200 sweeps a step) it creeps: the exact solve of the
  // touching and sticking points between sweeps is what holds it.
  auto creep = [](ContactTreatment::Solver solver) {
    Simulation sim = test::scene_simulation("box-stack", "velocity-verlet", 2e-3, {{"n", 10.0}});
    ContactTreatment rigid;
    rigid.mode = ContactTreatment::Mode::impulse;
    rigid.solver = solver;
    sim.set_contact(rigid);
    REQUIRE_FALSE(sim.advance(500));  // 1 s: the placements' overlaps are taken out
    const Positions x1 = sim.world().x;
    const std::vector<Quat> q1 = sim.world().q;
    REQUIRE_FALSE(sim.advance(5000));  // 10 s more
    CHECK(sim.impulse_figures().contacts == 10);
    CHECK(sim.impulse_figures().impacts == 0);
    double turn = 0;
    for (int i = 0; i < 10; ++i) turn = std::max(turn, sim.world().q[i].angularDistance(q1[i]));
    // The contact forces the Inspector lists (resting impulse over the step): the floor carries
    // all ten boxes, the bottom box the nine above it.
    std::vector<ForceModel::ContactReport> points;
    sim.rigid_contact_points(0, points);
    double floor = 0, above = 0;
    for (const auto& p : points) (p.other < 0 ? floor : above) += p.normal_force;
    if (solver == ContactTreatment::Solver::automatic) {
      CHECK(floor == doctest::Approx(10 * 9.81).epsilon(1e-9));
      CHECK(above == doctest::Approx(9 * 9.81).epsilon(1e-9));
    }
    return std::pair{(sim.world().x - x1).cwiseAbs().maxCoeff(), turn};
  };
  const auto [moved, turned] = creep(ContactTreatment::Solver::automatic);
  CHECK(moved < 1e-9 * 10);  // no creep above 1e-9 per second
  CHECK(turned < 1e-10);
  const double pgs = creep(ContactTreatment::Solver::pgs).first;
  CHECK(pgs > 1e-6);
}

TEST_CASE("impulse: Lemke's method holds a stack of three boxes ten seconds, exactly" *
          doctest::test_suite("slow")) {
  Simulation sim = test::scene_simulation("box-stack", "velocity-verlet", 2e-3, {{"n", 3.0}});
  ContactTreatment rigid;
  rigid.mode = ContactTreatment::Mode::impulse;
  rigid.solver = ContactTreatment::Solver::lemke;
  sim.set_contact(rigid);
  REQUIRE_FALSE(sim.advance(500));  // 1 s: the placements' overlaps are taken out
  const Positions x1 = sim.world().x;
  REQUIRE_FALSE(sim.advance(5000));
  CHECK(sim.impulse_figures().contacts == 3);
  CHECK(sim.impulse_figures().sweeps == 0);  // solved by pivoting, not by the fallback
  // Exact to round-off, not merely below the 1e-9 per second asked of every solver: each answer
  // is solved again on its basis (without, 2.6e-12 and 2.7e-13).
  CHECK((sim.world().x - x1).cwiseAbs().maxCoeff() < 1e-13);
  CHECK(std::abs(sim.energy().energy_error) < 1e-14);
  std::vector<ForceModel::ContactReport> points;
  sim.rigid_contact_points(0, points);
  double floor = 0, above = 0;
  for (const auto& p : points) (p.other < 0 ? floor : above) += p.normal_force;
  CHECK(floor == doctest::Approx(3 * 9.81).epsilon(1e-9));
  CHECK(above == doctest::Approx(2 * 9.81).epsilon(1e-9));
}

TEST_CASE("impulse: Housner's rocking block keeps 1 - 3/2 sin^2(alpha) of its spin per impact") {
  // e = 0 at the striking edge; the block rocks on its edges without sliding (mu = 0.8).
  const double width = 0.2, height = 1.0, alpha = std::atan2(width, height);
  Simulation sim =
      test::scene_simulation("rocking-block", "velocity-verlet", 2e-4, {{"tilt", 5.0}});
  ContactTreatment rigid;
  rigid.mode = ContactTreatment::Mode::impulse;
  rigid.restitution = 0;
  sim.set_contact(rigid);
  double before = 0, ratio = 0;
  for (int step = 0; step < 20000 && ratio == 0; ++step) {
    before = sim.world().w(1, 0);
    REQUIRE_FALSE(sim.step());
    if (step > 10 && sim.impulse_figures().impacts > 0) ratio = sim.world().w(1, 0) / before;
  }
  REQUIRE(ratio != 0);
  CHECK(std::abs(before) > 0.5);  // it struck, not merely settled
  CHECK(ratio == doctest::Approx(1 - 1.5 * std::pow(std::sin(alpha), 2)).epsilon(5e-3));
}

TEST_CASE("impulse: a pivoted pendulum strikes a ball: its moment about the pivot takes the blow") {
  // A bar hanging from a pivot swings into a ball at rest, e = 1, no friction, no gravity. At
  // distance d below the pivot: the ball leaves at v = (1 + e) w d / (1 + m d^2 / I_p) and the
  // bar keeps w' = w - m v d / I_p (its moment of inertia about the pivot, I_p).
  const double mass = 2, ball = 0.5, radius = 0.05, w = 2;
  World world;
  BodySpec bar = shaped_body(box_shape(Vec3(0.05, 0.05, 0.5)), mass, Vec3(0, 0, 0.5));
  bar.flags = kPivot;
  bar.pivot = Vec3(0, 0, 1);
  bar.angular_velocity = Vec3(0, -w, 0);  // its bottom moves along +x at w
  world.add_body(bar);
  BodySpec target;
  target.radius = radius;
  target.mass = ball;
  target.position = Vec3(0.05 + radius + 1e-4, 0, radius);
  world.add_body(target);
  ParamTable hooke;
  hooke.set("mu", 0.0);
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  world.contact.mode = ContactTreatment::Mode::impulse;
  world.contact.restitution = 1.0;
  Simulation sim(world, 1e-5);
  const double e0 = sim.energy().total;
  // Angular momentum about the pivot, which the pivot's reaction cannot change.
  auto about_pivot = [&](const World& x) {
    return x.L(1, 0) + ball * (x.x.col(1) - Vec3(0, 0, 1)).cross(x.v.col(1)).y();
  };
  const double L0 = about_pivot(sim.world());
  REQUIRE_FALSE(sim.advance(100));  // 1e-3 s: it strikes at 5e-5 s
  const double d = 1 - radius;
  const double Ip = mass / 12 * (0.1 * 0.1 + 1.0) + mass * 0.5 * 0.5;
  const double v = 2 * w * d / (1 + ball * d * d / Ip);
  // The point of contact sits a step's overlap (2e-5) off d.
  CHECK(sim.world().v(0, 1) == doctest::Approx(v).epsilon(1e-4).scale(0));
  CHECK(-sim.world().w(1, 0) == doctest::Approx(w - ball * v * d / Ip).epsilon(1e-3).scale(0));
  CHECK(std::abs(about_pivot(sim.world()) - L0) < 1e-14 * std::abs(L0));
  CHECK(sim.world().v.col(0).norm() == 0);  // the bar's centre moves only by turning
  CHECK((sim.world().x.col(0) - Vec3(0, 0, 1)).norm() == doctest::Approx(0.5).epsilon(1e-14));
  CHECK(std::abs(sim.energy().total - e0) < 1e-12 * e0);
}

TEST_CASE(
    "impulse: rolling and twisting resistance slow a ball at 5/7 mu_roll g and mu_twist g / (2/5 "
    "R)") {
  // The penalty laws' coefficients, here as angular impulses at the contact bounded by
  // mu_roll R P_n and mu_twist R P_n; a ball that stops stays stopped, exactly.
  const double R = 0.1, g = 9.81, mu_roll = 0.1, mu_twist = 0.1;
  auto run = [&](const Vec3& v0, const Vec3& w0, double seconds) {
    BodySpec ball;
    ball.radius = R;
    ball.position = Vec3(0, 0, R);
    ball.velocity = v0;
    ball.angular_velocity = w0;
    World world = rigid_world(ball, 0.0, 0.5, g);
    ParamTable resist;
    resist.set("mu", 0.5);
    resist.set("mu_roll", mu_roll);
    resist.set("mu_twist", mu_twist);
    resist.set("wall", std::vector<ParamTable>{test::floor_wall()});
    world.forces[0] = ForceRegistry::instance().make("hooke", resist);
    Simulation sim(world, 1e-3);
    REQUIRE_FALSE(sim.advance(long(std::lround(seconds / 1e-3))));
    return std::pair{Vec3(sim.world().v.col(0)), Vec3(sim.world().w.col(0))};
  };
  // Rolling at 1 m/s: decelerates at 5/7 mu_roll g, stops at 1.43 s and stays.
  const double a = 5.0 / 7.0 * mu_roll * g;
  const Vec3 v0(1, 0, 0), w0(0, 1 / R, 0);
  CHECK(run(v0, w0, 0.5).first.x() == doctest::Approx(1 - a * 0.5).epsilon(1e-2).scale(0));
  const auto [v_end, w_end] = run(v0, w0, 2.0);
  CHECK(v_end.head<2>().norm() < 1e-12);  // (v_z: Verlet's half kick, -g dt / 2, at rest)
  CHECK(w_end.norm() < 1e-12);
  // Spinning about the normal at 10 rad/s: mu_twist m g R against I = 2/5 m R^2.
  const double alpha = mu_twist * g / (0.4 * R);
  CHECK(run(Vec3::Zero(), Vec3(0, 0, 10), 0.2).second.z() ==
        doctest::Approx(10 - alpha * 0.2).epsilon(1e-2).scale(0));
  CHECK(run(Vec3::Zero(), Vec3(0, 0, 10), 0.5).second.norm() < 1e-12);
}

TEST_CASE("impulse: a copy of a run (its warm starts with it) continues bit for bit") {
  Simulation sim = test::scene_simulation("dice", "velocity-verlet", 2e-3, {{"n", 8.0}});
  ContactTreatment rigid;
  rigid.mode = ContactTreatment::Mode::impulse;
  rigid.restitution = 0.3;
  sim.set_contact(rigid);
  REQUIRE_FALSE(sim.advance(300));
  REQUIRE(sim.impulse_figures().contacts > 0);
  std::unique_ptr<Simulation> copy = Simulation::make_run(sim.copy());
  REQUIRE_FALSE(sim.advance(200));
  REQUIRE_FALSE(copy->advance(200));
  CHECK(copy->world().x == sim.world().x);
  CHECK(copy->world().L == sim.world().L);
  CHECK(copy->energy().corrected == sim.energy().corrected);
  CHECK(copy->energy().dissipated == sim.energy().dissipated);
}

TEST_CASE("impulse: every integrator bounces a ball with Newton's e, in its drift or after it") {
  for (const std::string& name : IntegratorRegistry::instance().names()) {
    CAPTURE(name);
    BodySpec ball;
    ball.radius = 0.1;
    ball.position = Vec3(0, 0, 0.1005);
    ball.velocity = Vec3(0, 0, -1);
    Simulation sim(rigid_world(ball, 0.7, 0.5, 0), 1e-3, name);
    REQUIRE_FALSE(sim.advance(2));
    CHECK(sim.world().v(2, 0) == doctest::Approx(0.7).epsilon(1e-12));
    // Kick-drift methods take the impulses on their drift velocity; the others after the step.
    const bool drifts = name == "velocity-verlet" || name == "symplectic-euler";
    CHECK(sim.impulses_in_drift() == drifts);
  }
}

TEST_CASE(
    "impulse: a sliding point's friction is on the cone against its sliding, from any start") {
  // Maximal dissipation: |P| = cap and u = a + K P points against P. The sweeps start each
  // point from its last root (a guess right or left of the new one): every start must end
  // at the same answer.
  Random random(11);
  int checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double angle = random.uniform(0, M_PI);
    Eigen::Matrix2d axes;
    axes << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
    const Eigen::Vector2d eigen(random.uniform(0.1, 1), random.uniform(1, 20));
    const Eigen::Matrix2d K = axes * eigen.asDiagonal() * axes.transpose();
    const Eigen::Vector2d a(random.normal(), random.normal());
    const double cap = random.uniform(0.01, 1) * a.norm() / eigen(0);
    if ((K.inverse() * a).norm() <= cap) continue;  // it would stick: not a sliding point
    const Eigen::Vector2d P = sliding_impulse(axes, eigen, a, cap);
    const Eigen::Vector2d u = a + K * P;
    CAPTURE(trial);
    REQUIRE(std::abs(P.norm() - cap) < 1e-12 * cap);
    REQUIRE((P / cap + u.normalized()).norm() < 1e-9);
    double root = -1;
    sliding_impulse(axes, eigen, a, cap, &root);
    for (double start : {0.0, 0.5 * root, 0.999 * root, root, 1.001 * root, 3 * root, 1e9}) {
      double guess = start;
      const Eigen::Vector2d from = sliding_impulse(axes, eigen, a, cap, &guess);
      CAPTURE(start);
      CHECK((from - P).norm() < 1e-12 * cap);
      CHECK(std::abs(guess - root) <= 1e-9 * std::max(root, cap * eigen(1)));
    }
    ++checked;
  }
  CHECK(checked > 1000);
}
