// Bodies of every shape touch through the collision table: rest heights against closed forms,
// manifolds, momentum and the energy ledger, and the general path against the sphere kernel.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "core/collision/collision.hpp"
#include "core/collision/separating_axis.hpp"
#include "core/random.hpp"
#include "core/simulation.hpp"

using namespace stepwise;

namespace {

ParamTable wall_table(const Vec3& point, const Vec3& normal) {
  ParamTable t;
  t.set("point", std::vector<double>{point.x(), point.y(), point.z()});
  t.set("normal", std::vector<double>{normal.x(), normal.y(), normal.z()});
  return t;
}

// A body on a hooke floor at z = 0 under gravity g.
World on_floor(const BodySpec& body, double kn, double g, double mu = 0.5, double mu_twist = 0) {
  World world;
  world.add_body(body);
  ParamTable hooke;
  hooke.set("kn", kn);
  hooke.set("mu", mu);
  if (mu_twist > 0) hooke.set("mu_twist", mu_twist);
  hooke.set("wall", std::vector<ParamTable>{wall_table(Vec3::Zero(), Vec3::UnitZ())});
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  ParamTable gravity;
  gravity.set("g", std::vector<double>{0, 0, -g});
  world.add_force(ForceRegistry::instance().make("gravity", gravity));
  return world;
}

// b as a sphere of radius r (the lane kernels) or as a clump of one centred pebble of it (the
// collision table and shape_contacts.hpp).
void sphere_or_pebble(BodySpec& b, double r, bool clump) {
  if (clump) {
    b.shape = clump_shape({{Vec3::Zero(), r}}, true);
    b.inertia = Vec3::Constant(0.4 * r * r);
  } else {
    b.radius = r;
  }
}

}  // namespace

TEST_CASE("a clump rests on its pebbles, a box on its four corners") {
  const double kn = 2000, g = 9.81;
  SUBCASE("two pebbles of radius 0.1 at +-0.3: centre at 0.1 - m g / (2 kn)") {
    BodySpec clump =
        clump_body({{Vec3(-0.3, 0, 0), 0.1}, {Vec3(0.3, 0, 0), 0.1}}, 1.0, Vec3(0, 0, 0.3));
    Simulation sim(on_floor(clump, kn, g), 1e-4);
    REQUIRE_FALSE(sim.advance(40000));
    const double rest = 0.1 - 1.0 * g / (2 * kn);
    CHECK(std::abs(sim.world().x(2, 0) - rest) < 1e-6);
    CHECK(sim.energy().wall_contacts == 2);
    CHECK(sim.world().v.col(0).norm() < 1e-6);
  }
  SUBCASE("a box of half-extent 0.2: centre at 0.2 - m g / (4 kn)") {
    BodySpec box;
    box.shape = box_shape(Vec3::Constant(0.2));
    box.mass = 2.0;
    box.position = Vec3(0, 0, 0.25);
    Simulation sim(on_floor(box, kn, g), 1e-4);
    REQUIRE_FALSE(sim.advance(40000));
    const double rest = 0.2 - 2.0 * g / (4 * kn);
    CHECK(std::abs(sim.world().x(2, 0) - rest) < 1e-6);
    CHECK(sim.energy().wall_contacts == 4);
  }
  SUBCASE("a tetrahedron comes to rest on a face, three corners down") {
    BodySpec tetra =
        shaped_body(polyhedron_shape({{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}), 1.0,
                    Vec3(0, 0, 2), Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 0).normalized())));
    Simulation sim(on_floor(tetra, 20000, g), 1e-4);
    REQUIRE_FALSE(sim.advance(60000));
    CHECK(sim.energy().wall_contacts == 3);
    // A regular tetrahedron of edge a rests with its centroid a / (2 sqrt 6) above a face.
    const double a = 2 * std::sqrt(2.0);
    CHECK(std::abs(sim.world().x(2, 0) - (a / (2 * std::sqrt(6.0)) - g / (3 * 20000.0))) < 1e-5);
  }
}

TEST_CASE("points that vanish in one step book their energy, the pair touching nothing after") {
  // A box pressed 0.01 into the floor and another pressed 0.01 into its side, at rest, then both
  // lifted clear by hand (within the list's skin): every point stops touching at once with its
  // depth, not by approaching zero, so the energy it held is booked as made by the manifold.
  BodySpec a, b;
  a.shape = b.shape = box_shape(Vec3::Constant(0.2));
  a.position = Vec3(0, 0, 0.19);
  b.position = Vec3(0.39, 0, 0.49);
  World world = on_floor(a, 2000, 0.0);
  world.add_body(b);
  Simulation sim(world, 1e-4);
  REQUIRE_FALSE(sim.step());
  const EnergyReport before = sim.energy();
  REQUIRE(before.wall_contacts == 4);
  REQUIRE(before.contacts == 8);
  REQUIRE(before.potential > 0.1);
  sim.world().x(2, 0) += 0.03;
  sim.world().x(0, 1) += 0.03;
  sim.invalidate();
  REQUIRE_FALSE(sim.step());
  const EnergyReport after = sim.energy();
  CHECK(after.contacts == 0);
  CHECK(after.potential == 0);
  // (to 1e-8: the potential also holds the tangential springs' 2e-9, let go as dissipation)
  CHECK(after.corrected - before.corrected == doctest::Approx(-before.potential).epsilon(1e-8));
}

TEST_CASE("a body's contact points, as the Inspector lists them, carry its weight") {
  // A box on a floor with a sphere resting on it: the box has four floor corners and the sphere
  // on top; the sphere one point, pushing it up.
  const double kn = 1e4, g = 9.81;
  World world = on_floor(shaped_body(box_shape(Vec3::Constant(0.2)), 2.0, Vec3(0, 0, 0.2)), kn, g);
  BodySpec ball;
  ball.mass = 0.5;
  ball.radius = 0.1;
  ball.position = Vec3(0.05, 0, 0.5);
  world.add_body(ball);
  Simulation sim(world, 1e-4);
  REQUIRE_FALSE(sim.advance(60000));
  std::vector<ForceModel::ContactReport> box, sphere;
  for (const auto& model : sim.world().forces) {
    model->contact_points(sim.world(), 0, box);
    model->contact_points(sim.world(), 1, sphere);
  }
  REQUIRE(box.size() == 5);
  double up = 0;
  int floor = 0;
  for (const auto& c : box) {
    floor += c.other == -1;
    up += c.normal_force * c.normal.z();
    CHECK(c.depth > 0);
  }
  CHECK(floor == 4);
  // Floor pushes up with both weights, the sphere down with its own: net the box's weight.
  CHECK(up == doctest::Approx(2.0 * g).epsilon(1e-6));
  REQUIRE(sphere.size() == 1);
  CHECK(sphere[0].other == 0);
  CHECK((sphere[0].normal - Vec3::UnitZ()).norm() < 1e-3);  // the box tilts a little under it
  CHECK(sphere[0].normal_force == doctest::Approx(0.5 * g).epsilon(1e-6));
  CHECK(std::abs(sphere[0].position.z() - 0.4) < 1e-3);  // on the box's top face, to a mm
  // Sphere pairs and sphere walls come from the sphere path: a ball on the floor.
  World alone = on_floor(ball, kn, g);
  Simulation rest(alone, 1e-4);
  REQUIRE_FALSE(rest.advance(40000));
  std::vector<ForceModel::ContactReport> on;
  for (const auto& model : rest.world().forces) model->contact_points(rest.world(), 0, on);
  REQUIRE(on.size() == 1);
  CHECK(on[0].other == -1);
  CHECK(on[0].depth == doctest::Approx(0.5 * g / kn).epsilon(1e-6));
  CHECK(on[0].normal_force == doctest::Approx(0.5 * g).epsilon(1e-6));
}

TEST_CASE("box-box manifolds: four points face to face, one edge to edge") {
  const ShapePtr box = box_shape(Vec3::Constant(0.5));
  PairCache cache;
  Contacts out;
  const Placement below{*box, Vec3::Zero(), Mat3::Identity()};
  SUBCASE("face on face, offset sideways: four corners of the overlap") {
    const Placement above{*box, Vec3(0.3, 0.2, 0.99), Mat3::Identity()};
    CollisionTable::instance().collide(above, below, cache, out);
    REQUIRE(out.size() == 4);
    for (const ContactPoint& p : out) {
      CHECK((p.normal - Vec3::UnitZ()).norm() < 1e-15);
      CHECK(std::abs(p.depth - 0.01) < 1e-12);
      CHECK(std::abs(p.position.z() - 0.495) < 1e-12);
    }
  }
  SUBCASE("crossed edges: one point between the edges, normal along their cross product") {
    // Each box turned 45 degrees so an edge points at the other, the edges crossed at right angles.
    const Mat3 ra = Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX()).toRotationMatrix();
    const Mat3 rb = Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY()).toRotationMatrix();
    const double reach = 2 * 0.5 * std::sqrt(2.0);
    const Placement a{*box, Vec3(0, 0, reach - 0.02), ra};
    const Placement b{*box, Vec3::Zero(), rb};
    CollisionTable::instance().collide(a, b, cache, out);
    REQUIRE(out.size() == 1);
    CHECK((out[0].normal - Vec3::UnitZ()).norm() < 1e-12);
    CHECK(std::abs(out[0].depth - 0.02) < 1e-12);
    CHECK((out[0].position - Vec3(0, 0, 0.5 * std::sqrt(2.0) - 0.01)).norm() < 1e-12);
  }
  SUBCASE("apart: nothing, and the cached axis still separates them next time") {
    const Placement far{*box, Vec3(0, 0, 1.2), Mat3::Identity()};
    CollisionTable::instance().collide(far, below, cache, out);
    CHECK(out.empty());
    CHECK(cache.axis >= 0);
  }
}

TEST_CASE("a manifold's points: distinct features, the same whichever incident face brought them") {
  // The tangential springs are kept per feature: two points sharing one would share a spring,
  // and a point renamed when another face of its body became the incident one loses its spring.
  const ShapePtr box = box_shape(Vec3(0.3, 0.2, 0.15));
  const ShapePtr gem = polyhedron_shape(
      {{0, 0, 0.4}, {0, 0, -0.4}, {0.3, 0, 0}, {-0.3, 0, 0}, {0, 0.25, 0}, {0, -0.25, 0}});
  Random random(29);
  int points = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const ShapePtr& a = trial % 3 == 2 ? gem : box;
    const ShapePtr& b = trial % 3 == 0 ? box : gem;
    const Placement pa{*a, Vec3::Zero(), random_orientation(random).toRotationMatrix()};
    const Placement pb{*b, 0.45 * Vec3(random.normal(), random.normal(), random.normal()),
                       random_orientation(random).toRotationMatrix()};
    PairCache cache;
    Contacts out;
    CollisionTable::instance().collide(pa, pb, cache, out);
    points += int(out.size());
    for (size_t k = 0; k < out.size(); ++k)
      for (size_t m = k + 1; m < out.size(); ++m) {
        CAPTURE(trial);
        CHECK(out[k].feature != out[m].feature);
      }
  }
  CHECK(points > 3000);
  // A cube standing on a corner on another's face: the three faces around the corner are about
  // equally opposed, and turns of 1e-6 rad choose any of them as the incident face.
  const ShapePtr cube = box_shape(Vec3::Constant(0.1));
  const Quat corner_down = Quat::FromTwoVectors(Vec3(1, 1, 1).normalized(), -Vec3::UnitZ());
  const Placement below{*cube, Vec3::Zero(), Mat3::Identity()};
  std::uint64_t feature = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const Vec3 turn = 1e-6 * Vec3(random.normal(), random.normal(), random.normal());
    const Quat q = Quat(Eigen::AngleAxisd(turn.norm(), turn.normalized())) * corner_down;
    const Placement above{*cube, Vec3(0, 0, 0.1 + 0.1 * std::sqrt(3.0) - 1e-3),
                          q.toRotationMatrix()};
    PairCache cache;
    Contacts out;
    CollisionTable::instance().collide(above, below, cache, out);
    REQUIRE(out.size() == 1);
    if (trial == 0) feature = out[0].feature;
    CHECK(out[0].feature == feature);
  }
}

TEST_CASE(
    "a face contact's points: the elastic force along normal + lean is minus the depth's "
    "gradient") {
  // Each point's energy U(d): the force on a is -U'(d) grad_a d, which must be U'(d) times
  // (normal + lean), acting at the contact for the normal and at lean_at for the lean. Checked by
  // moving each body a little (three shifts, three turns) and finding the same feature again.
  const ShapePtr box = box_shape(Vec3(0.3, 0.2, 0.15));
  const ShapePtr gem = polyhedron_shape(
      {{0, 0, 0.4}, {0, 0, -0.4}, {0.3, 0, 0}, {-0.3, 0, 0}, {0, 0.25, 0}, {0, -0.25, 0}});
  Random random(31);
  int leaning = 0, checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const ShapePtr& sa = trial % 2 ? gem : box;
    const ShapePtr& sb = trial % 3 ? box : gem;
    const Quat qa = random_orientation(random), qb = random_orientation(random);
    const Vec3 xa(0, 0, 0), xb = 0.4 * Vec3(random.normal(), random.normal(), random.normal());
    auto manifold = [&](const Vec3& da, const Vec3& ta, const Vec3& db, const Vec3& tb) {
      auto turn = [](const Vec3& t, const Quat& q) {
        return t == Vec3::Zero() ? q : Quat(Eigen::AngleAxisd(t.norm(), t.normalized())) * q;
      };
      PairCache cache;
      Contacts out;
      CollisionTable::instance().collide({*sa, xa + da, turn(ta, qa).toRotationMatrix()},
                                         {*sb, xb + db, turn(tb, qb).toRotationMatrix()}, cache,
                                         out);
      return out;
    };
    const Contacts base = manifold(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
    if (base.size() < 2) continue;
    const double h = 1e-7;
    for (const ContactPoint& c : base) {
      if (c.lean.norm() > 2.99) continue;  // capped (convex_convex.cpp): not the gradient there
      leaning += c.lean != Vec3::Zero();
      const Vec3 f = c.normal + c.lean;  // per unit U'(d), on a
      const Vec3 at_a = c.position - 0.5 * c.depth * c.normal;
      for (int body = 0; body < 2; ++body)
        for (int k = 0; k < 6; ++k) {
          const Vec3 step = h * Vec3::Unit(k % 3);
          const Vec3 shift = k < 3 ? step : Vec3::Zero(), turn = k < 3 ? Vec3::Zero() : step;
          const Contacts moved = body == 0 ? manifold(shift, turn, Vec3::Zero(), Vec3::Zero())
                                           : manifold(Vec3::Zero(), Vec3::Zero(), shift, turn);
          const ContactPoint* same = nullptr;
          for (const ContactPoint& m : moved)
            if (m.feature == c.feature) same = &m;
          if (!same) continue;
          // Work of a's force (or b's, its opposite) over the move: -U'(d) dd.
          const Vec3 centre = body == 0 ? xa : xb;
          const double sign = body == 0 ? 1 : -1;
          const Vec3 arm_n =
              (body == 0 ? at_a : Vec3(c.position + 0.5 * c.depth * c.normal)) - centre;
          const double work =
              sign * (c.normal.dot(shift) + arm_n.cross(c.normal).dot(turn) + c.lean.dot(shift) +
                      (c.lean_at - centre).cross(c.lean).dot(turn));
          CAPTURE(trial);
          CAPTURE(k);
          CHECK(std::abs((same->depth - c.depth) + work) < 1e-3 * h * (1 + f.norm()));
          ++checked;
        }
    }
  }
  CHECK(leaning > 50);
  CHECK(checked > 1000);
}

// A cluster of bodies given random spins and velocities, no gravity, no floor.
Simulation tumbling(const std::vector<ShapePtr>& shapes, double kn, double dt) {
  World world;
  Random random(11);
  for (int k = 0; k < 8; ++k) {
    BodySpec b = shaped_body(shapes[k % shapes.size()], random.uniform(0.5, 2.0),
                             Vec3(k % 2 * 0.55, (k / 2) % 2 * 0.55, k / 4 * 0.55));
    b.orientation = random_orientation(random);
    b.velocity = Vec3(random.normal(), random.normal(), random.normal());
    b.angular_velocity = Vec3(random.normal(), random.normal(), random.normal());
    world.add_body(b);
  }
  ParamTable hooke;
  hooke.set("kn", kn);
  hooke.set("mu", 0.3);
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  return Simulation(world, dt);
}

TEST_CASE("tumbling boxes and polyhedra keep momentum to round-off") {
  const ShapePtr box = box_shape(Vec3(0.3, 0.2, 0.15));
  const ShapePtr gem = polyhedron_shape(
      {{0, 0, 0.4}, {0, 0, -0.4}, {0.3, 0, 0}, {-0.3, 0, 0}, {0, 0.25, 0}, {0, -0.25, 0}});
  SUBCASE("boxes and octahedra: momentum") {
    Simulation sim = tumbling({box, gem}, 5000, 2e-5);
    const Vec3 p0 = sim.energy().momentum;
    int touched = 0;
    for (int s = 0; s < 200; ++s) {
      REQUIRE_FALSE(sim.advance(100));
      touched = std::max(touched, sim.energy().contacts);
    }
    CHECK(touched > 4);
    CHECK((sim.energy().momentum - p0).norm() < 1e-11);
  }
}

// hooke with six walls boxing in |x|, |y|, |z| < 0.6: friction 0.3, or none and no dashpots.
ParamTable walled_hooke(double kn, bool friction) {
  std::vector<ParamTable> walls;
  for (int d = 0; d < 3; ++d)
    for (double side : {-1.0, 1.0})
      walls.push_back(wall_table(side * 0.6 * Vec3::Unit(d), -side * Vec3::Unit(d)));
  ParamTable hooke;
  hooke.set("kn", kn);
  hooke.set("mu", friction ? 0.3 : 0.0);
  if (!friction) hooke.set("gamma_n", 0.0), hooke.set("gamma_t", 0.0);
  hooke.set("wall", walls);
  return hooke;
}

// A body thrown at random (seed) into a box of six hooke walls, 0.4 s at dt; friction and
// dashpots, or neither. Counts the samples (of 100) with a wall touching.
EnergyReport tumble(const ShapePtr& shape, bool friction, int seed, double dt, int& touches) {
  World world;
  Random random(seed);
  BodySpec b = shaped_body(shape, 1.0, Vec3::Zero(), random_orientation(random));
  b.velocity = 2 * Vec3(random.normal(), random.normal(), random.normal());
  b.angular_velocity = 10 * Vec3(random.normal(), random.normal(), random.normal());
  world.add_body(b);
  world.add_force(ForceRegistry::instance().make("hooke", walled_hooke(5000.0, friction)));
  Simulation sim(world, dt);
  touches = 0;
  const long per_sample = std::lround(0.004 / dt);
  for (int s = 0; s < 100; ++s) {
    REQUIRE_FALSE(sim.advance(per_sample));
    touches += sim.energy().wall_contacts > 0;
  }
  return sim.energy();
}

const ShapePtr& tumbling_box() {
  static const ShapePtr box = box_shape(Vec3(0.3, 0.2, 0.15));
  return box;
}

TEST_CASE("a box and an octahedron tumbling in a walled box: the ledger closes") {
  // Corners enter a wall at zero depth, so the corner manifold's energy is continuous and the
  // frictionless ledger closes to the integrator's order; friction's share is booked to first
  // order in dt (next test). Polyhedra against each other: "cubes and octahedra tumbling".
  const ShapePtr gem = polyhedron_shape(
      {{0, 0, 0.4}, {0, 0, -0.4}, {0.3, 0, 0}, {-0.3, 0, 0}, {0, 0.25, 0}, {0, -0.25, 0}});
  for (const ShapePtr& shape : {tumbling_box(), gem}) {
    INFO(shape->kind());
    const bool friction = shape == tumbling_box();
    int touches = 0;
    const EnergyReport e = tumble(shape, friction, 3, 2e-5, touches);
    CHECK(touches >= 5);
    if (friction) CHECK(e.dissipated > 0.1 * std::abs(e.total));
    // Friction's share of the ledger is booked to first order in dt (over seeds 1-8 the box's
    // error is 1e-6 to 8e-5 at this dt and halves with it: 1.6e-4, 7.8e-5, 3.9e-5, 2.0e-5 at
    // dt 4e-5 ... 5e-6), so its bound is 2e-4; unbooked, the error would be the dissipated
    // energy itself (~7 J against |E| of order 10). Frictionless, every seed stays below 2.3e-6.
    CHECK(std::abs(e.energy_error) < (friction ? 2e-4 : 1e-5));
  }
}

// 27 cubes and octahedra thrown about in a walled box, frictionless and undamped, no gravity:
// every change of energy is the contact springs' own.
EnergyReport cluster(int seed, double kn, double dt, double seconds) {
  World world;
  Random random(seed);
  const ShapePtr cube = box_shape(Vec3::Constant(0.1));
  const ShapePtr gem = polyhedron_shape(
      {{0, 0, 0.14}, {0, 0, -0.14}, {0.14, 0, 0}, {-0.14, 0, 0}, {0, 0.14, 0}, {0, -0.14, 0}});
  for (int k = 0; k < 27; ++k) {
    const Vec3 at = 0.36 * Vec3(k % 3 - 1, (k / 3) % 3 - 1, k / 9 - 1);
    BodySpec b = shaped_body(k % 2 ? gem : cube, 1.0, at, random_orientation(random));
    b.velocity = 1.5 * Vec3(random.normal(), random.normal(), random.normal());
    b.angular_velocity = 8 * Vec3(random.normal(), random.normal(), random.normal());
    world.add_body(b);
  }
  world.add_force(ForceRegistry::instance().make("hooke", walled_hooke(kn, false)));
  Simulation sim(world, dt);
  REQUIRE(sim.energy().potential == 0);  // nothing overlaps at the start
  REQUIRE_FALSE(sim.advance(std::lround(seconds / dt)));
  return sim.energy();
}

TEST_CASE("cubes and octahedra tumbling against each other: the ledger closes, jumps booked" *
          doctest::test_suite("slow")) {
  // A face contact's clipped points slide as the bodies turn; their elastic forces lean off the
  // normal so as to be minus the gradient of their energy, and the energy points bring or take
  // as the manifold changes (another reference face, an edge pair, a corner split in two) is
  // booked as a correction. Seeds 1-3: without the lean the errors are 6%, 5% and 1% (mean
  // 4%); without the booking each error is the correction itself, 10-50% of the energy.
  double mean = 0;
  for (int seed : {1, 2, 3}) {
    CAPTURE(seed);
    const EnergyReport e = cluster(seed, 2e4, 1e-5, 1.0);
    CHECK(e.corrected > 0.05 * e.total);
    CHECK(std::abs(e.energy_error) < 0.03);
    mean += std::abs(e.energy_error) / 3;
  }
  CHECK(mean < 0.015);
}

TEST_CASE("a tumbling box's friction is booked to first order: the ledger error halves with dt") {
  // The bound above is loose because this error is O(dt); this pins the order, so a booking that
  // stopped converging (or a term lost) fails here. Seed 6: 7.8e-5 at dt = 2e-5, 3.9e-5 at 1e-5.
  int touches = 0;
  const EnergyReport coarse = tumble(tumbling_box(), true, 6, 2e-5, touches);
  const EnergyReport fine = tumble(tumbling_box(), true, 6, 1e-5, touches);
  MESSAGE("ledger error " << coarse.energy_error << " at dt 2e-5, " << fine.energy_error
                          << " at 1e-5");
  CHECK(std::abs(fine.dissipated - coarse.dissipated) < 1e-3 * coarse.dissipated);  // one path
  CHECK(std::abs(coarse.energy_error) > 1e-5);
  const double ratio = fine.energy_error / coarse.energy_error;
  CHECK(ratio > 0.4);
  CHECK(ratio < 0.6);
}

TEST_CASE("the general path equals the sphere kernel on a packing (one-pebble clumps)") {
  // The same spheres twice: as spheres (the lane kernel) and as clumps of one centred pebble
  // (the collision table and shape_contacts.hpp), with a floor, friction and gravity.
  auto packing = [](bool clumps) {
    World world;
    Random random(5);
    for (int k = 0; k < 27; ++k) {
      const double r = 0.1;
      BodySpec b;
      b.position = Vec3(k % 3 * 0.19, (k / 3) % 3 * 0.19, 0.1 + k / 9 * 0.19) +
                   0.005 * Vec3(random.normal(), random.normal(), random.normal());
      b.velocity = 0.3 * Vec3(random.normal(), random.normal(), random.normal());
      b.angular_velocity = Vec3(random.normal(), random.normal(), random.normal());
      sphere_or_pebble(b, r, clumps);
      world.add_body(b);
    }
    ParamTable hooke;
    hooke.set("kn", 20000.0);
    hooke.set("wall", std::vector<ParamTable>{wall_table(Vec3::Zero(), Vec3::UnitZ())});
    world.add_force(ForceRegistry::instance().make("hooke", hooke));
    ParamTable gravity;
    gravity.set("g", std::vector<double>{0, 0, -9.81});
    world.add_force(ForceRegistry::instance().make("gravity", gravity));
    return Simulation(world, 1e-4);
  };
  Simulation spheres = packing(false), clumps = packing(true);
  int most = 0;
  for (int s = 0; s < 20; ++s) {
    REQUIRE_FALSE(spheres.advance(100));
    REQUIRE_FALSE(clumps.advance(100));
    CHECK(spheres.energy().contacts == clumps.energy().contacts);
    most = std::max(most, spheres.energy().contacts);
  }
  CHECK(most > 20);
  CHECK((spheres.world().x - clumps.world().x).cwiseAbs().maxCoeff() < 1e-10);
  CHECK((spheres.world().w - clumps.world().w).cwiseAbs().maxCoeff() < 1e-8);
  // The springs let go when a pair opens are booked with the slip at their last arms (a corner
  // that stopped touching has no normal now), the kernel with the present normal: 1e-8 apart.
  CHECK(std::abs(spheres.energy().dissipated / clumps.energy().dissipated - 1) < 1e-7);
  CHECK(std::abs(clumps.energy().energy_error) < 1e-4);
}

TEST_CASE("rolling and twisting resistance: one-pebble clumps turn as spheres do") {
  // Two bodies spinning against each other (pair) or on a floor (walls), as spheres (the lane
  // kernels) and as clumps of one centred pebble (shape_contacts.hpp): the same torques, with
  // spins far from the law's smoothing band below 1e-3 rad/s.
  auto run = [](bool clumps, double mu_roll, double mu_twist, bool floor) {
    World world;
    for (int k = 0; k < 2; ++k) {
      const double r = 0.1;
      BodySpec b;
      b.position = floor ? Vec3(0.5 * k, 0, 0.099) : Vec3(0.19 * k, 0, 0.5);
      b.velocity = Vec3(0.1, 0, 0);
      b.angular_velocity = Vec3(1, 2, 3 - 5 * k);
      sphere_or_pebble(b, r, clumps);
      world.add_body(b);
    }
    ParamTable hooke;
    hooke.set("kn", 20000.0);
    if (mu_roll > 0) hooke.set("mu_roll", mu_roll);
    if (mu_twist > 0) hooke.set("mu_twist", mu_twist);
    if (floor) hooke.set("wall", std::vector<ParamTable>{wall_table(Vec3::Zero(), Vec3::UnitZ())});
    world.add_force(ForceRegistry::instance().make("hooke", hooke));
    Simulation sim(world, 1e-4);
    REQUIRE_FALSE(sim.advance(20));
    return std::pair(sim.world().w, sim.energy().dissipated);
  };
  for (bool floor : {false, true})
    for (const std::pair<double, double>& mu : {std::pair(0.2, 0.0), std::pair(0.0, 0.2)}) {
      const double mu_roll = mu.first, mu_twist = mu.second;  // (clang 14: no bindings in INFO)
      INFO((floor ? "floor" : "pair") << ", mu_roll " << mu_roll << ", mu_twist " << mu_twist);
      const auto [w_spheres, d_spheres] = run(false, mu_roll, mu_twist, floor);
      const auto [w_clumps, d_clumps] = run(true, mu_roll, mu_twist, floor);
      const auto [w_free, d_free] = run(false, 0, 0, floor);
      CHECK((w_spheres - w_free).cwiseAbs().maxCoeff() > 0.01);  // the resistance acted
      CHECK((w_spheres - w_clumps).cwiseAbs().maxCoeff() < 1e-12);
      CHECK(std::abs(d_spheres - d_clumps) < 1e-12 * d_spheres);
    }
}

TEST_CASE("twisting resistance on a clump's pebbles: a dumbbell spinning on a floor slows evenly") {
  // Frictionless floor; each pebble carries m g / 2 and resists the spin about the normal with
  // mu_twist r |F_n|: together mu_twist r m g, so w_z falls at mu_twist r m g / I_zz.
  const double kn = 2000, g = 9.81, m = 1.0, r = 0.1, mu_twist = 0.3, w0 = 2.0;
  BodySpec clump = clump_body({{Vec3(-0.3, 0, 0), r}, {Vec3(0.3, 0, 0), r}}, m,
                              Vec3(0, 0, r - m * g / (2 * kn)));
  clump.angular_velocity = Vec3(0, 0, w0);
  Simulation sim(on_floor(clump, kn, g, 0.0, mu_twist), 1e-4);
  const double drop = mu_twist * r * m * g / sim.world().inertia(2, 0) * 0.3;  // by t = 0.3 s
  REQUIRE_FALSE(sim.advance(3000));
  CHECK(drop > 0.5);
  CHECK(std::abs((w0 - sim.world().w(2, 0)) / drop - 1) < 0.01);
  CHECK(sim.energy().dissipated > 0.1);
  CHECK(std::abs(sim.energy().energy_error) < 1e-6);
}

TEST_CASE("two boxes: the closed-form separating axes equal the corner-by-corner reference") {
  Random random(23);
  int touching = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const ShapePtr A =
        box_shape(Vec3(random.uniform(0.1, 1), random.uniform(0.1, 1), random.uniform(0.1, 1)));
    const ShapePtr B =
        box_shape(Vec3(random.uniform(0.1, 1), random.uniform(0.1, 1), random.uniform(0.1, 1)));
    // Every fourth pose aligned with the other box's axes, where ties between axes are exact.
    const Mat3 Ra = random_orientation(random).toRotationMatrix();
    const Mat3 Rb = trial % 4 == 0 ? Ra : Mat3(random_orientation(random).toRotationMatrix());
    const Vec3 offset(random.uniform(-1.5, 1.5), random.uniform(-1.5, 1.5),
                      random.uniform(-1.5, 1.5));
    PlacedHull a, b;
    a.place(*A->hull(), {*A, Vec3(0.1, -0.2, 0.3), Ra});
    b.place(*B->hull(), {*B, offset, Rb});
    // A box's extent along an axis in closed form against its corners (the general test uses
    // the closed form for boxes too, so this is what makes the comparison below independent).
    const Vec3 axis = Vec3(random.normal(), random.normal(), random.normal()).normalized();
    for (const PlacedHull* h : {&a, &b}) {
      const Extent closed = h->extent(axis), corners = h->extent_by_corners(axis);
      CHECK(std::abs(closed.low - corners.low) < 1e-12);
      CHECK(std::abs(closed.high - corners.high) < 1e-12);
      // Corners, normals and edge directions placed from the box's scaled axes (for speed)
      // against the products with its template corners, normals and directions.
      const ConvexHull& hull = *h->hull;
      for (size_t k = 0; k < hull.vertices.size(); ++k)
        CHECK((h->vertices[k] - (h->centre + h->R * hull.vertices[k])).norm() < 1e-15);
      for (size_t f = 0; f < hull.faces.size(); ++f) {
        CHECK(h->normals[f] == h->R * hull.faces[f].normal);
        CHECK(std::abs(h->offsets[f] - hull.faces[f].offset - h->normals[f].dot(h->centre)) <
              1e-14);
      }
      for (size_t d = 0; d < hull.directions.size(); ++d)
        CHECK(h->directions[d] == h->R * hull.directions[d]);
    }
    const OverlapQuery fast = least_overlap_boxes(a, b, -1),
                       slow = least_overlap_by_corners(a, b, -1);
    CAPTURE(trial);
    REQUIRE((fast.face_a.kind == AxisKind::Separated) == (slow.face_a.kind == AxisKind::Separated));
    if (fast.face_a.kind == AxisKind::Separated) continue;
    ++touching;
    for (auto [f, s] : {std::pair{&fast.face_a, &slow.face_a},
                        {&fast.face_b, &slow.face_b},
                        {&fast.edges, &slow.edges}}) {
      CHECK(std::abs(f->depth - s->depth) < 1e-12);
      if (f->axis != s->axis) continue;  // an exact tie, taken either way by round-off
      CHECK((f->normal - s->normal).norm() < 1e-12);
    }
  }
  CHECK(touching > 5000);
}

TEST_CASE("two boxes: the last separating axis, tried alone first, is measured as in the search") {
  // least_overlap_boxes measures the cached axis from the entries of C it reads before forming
  // the rest (for speed only). Where it separates, the result must be the corner reference's for
  // that axis, and to the bit the full search's where that search stops there too; where it
  // does not, the search as if nothing were cached.
  Random random(31);
  std::vector<int> axes;
  for (int f = 0; f < 6; ++f) axes.push_back(f), axes.push_back(256 + f);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) axes.push_back(512 + 64 * i + j);
  int separated_by_cached = 0, same_stop = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const ShapePtr A =
        box_shape(Vec3(random.uniform(0.1, 1), random.uniform(0.1, 1), random.uniform(0.1, 1)));
    const ShapePtr B =
        box_shape(Vec3(random.uniform(0.1, 1), random.uniform(0.1, 1), random.uniform(0.1, 1)));
    const Vec3 offset(random.uniform(-2, 2), random.uniform(-2, 2), random.uniform(-2, 2));
    PlacedHull a, b;
    a.place(*A->hull(), {*A, Vec3(0.1, -0.2, 0.3), random_orientation(random).toRotationMatrix()});
    b.place(*B->hull(), {*B, offset, random_orientation(random).toRotationMatrix()});
    const OverlapQuery plain = least_overlap_boxes(a, b, -1);
    for (int axis : axes) {
      CAPTURE(trial);
      CAPTURE(axis);
      const OverlapQuery fast = least_overlap_boxes(a, b, axis),
                         slow = least_overlap_by_corners(a, b, axis);
      REQUIRE(fast.face_a.kind == slow.face_a.kind);
      if (fast.face_a.kind == AxisKind::Separated && fast.face_a.axis == axis) {
        ++separated_by_cached;
        CHECK(slow.face_a.axis == axis);
        CHECK(std::abs(fast.face_a.depth - slow.face_a.depth) < 1e-12);
        CHECK((fast.face_a.normal - slow.face_a.normal).norm() < 1e-12);
        for (const AxisQuery* q : {&fast.face_b, &fast.edges}) {
          CHECK(q->kind == AxisKind::Separated);
          CHECK(q->axis == axis);
        }
        if (plain.face_a.axis != axis) continue;
        ++same_stop;
        CHECK(std::memcmp(&fast.face_a.depth, &plain.face_a.depth, sizeof(double)) == 0);
        CHECK(std::memcmp(fast.face_a.normal.data(), plain.face_a.normal.data(),
                          3 * sizeof(double)) == 0);
        continue;
      }
      for (auto [f, p] : {std::pair{&fast.face_a, &plain.face_a},
                          {&fast.face_b, &plain.face_b},
                          {&fast.edges, &plain.edges}}) {
        CHECK(f->kind == p->kind);
        CHECK(f->axis == p->axis);
        CHECK(std::memcmp(&f->depth, &p->depth, sizeof(double)) == 0);
      }
    }
  }
  CHECK(separated_by_cached > 5000);
  CHECK(same_stop > 500);
}
