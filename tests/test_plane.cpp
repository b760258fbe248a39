// The 2-D mode (seed 000): disks rolling and slipping on an incline, a thrown disk's slide into
// rolling, out-of-plane state exactly zero over a long granular run with every kind of
// integrator, and the exact mass properties of clumps of disks against closed forms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/bonds/bond_common.hpp"
#include "core/disk_union.hpp"
#include "core/random.hpp"
#include "core/scenes/bonded_scene_helpers.hpp"
#include "core/scenes/constrained_scene_helpers.hpp"
#include "core/scenes/disk_scene_helpers.hpp"
#include "test_support.hpp"

using namespace stepwise;
using stepwise::test::scene_simulation;

TEST_CASE("disk-incline: rolls at 2/3 g sin below tan = 3 mu, slips at g (sin - mu cos) above") {
  const double g = 9.81, mu = 0.3;
  for (double degrees : {10.0, 30.0, 60.0, 75.0}) {
    const double a = degrees * M_PI / 180;
    const bool rolls = std::tan(a) < 3 * mu;
    const double expected =
        rolls ? 2.0 / 3.0 * g * std::sin(a) : g * (std::sin(a) - mu * std::cos(a));
    Simulation sim =
        scene_simulation("disk-incline", "velocity-verlet", 5e-5, {{"angle", degrees}, {"mu", mu}});
    REQUIRE_FALSE(sim.advance(4000));  // t = 0.2: past the start-up transient
    const double v1 = sim.world().v(0, 0), t1 = sim.time();
    REQUIRE_FALSE(sim.advance(16000));  // t = 1
    const double measured = (sim.world().v(0, 0) - v1) / (sim.time() - t1);
    // Rolling down +x on a floor below: v = -w_z r.
    const double spin_speed = -sim.world().w(2, 0) * sim.world().radius(0);
    INFO(degrees << " deg: a " << measured << " expected " << expected << " (rolls " << rolls
                 << "), v " << sim.world().v(0, 0) << " w r " << spin_speed);
    CHECK(std::abs(measured / expected - 1) < 0.01);
    if (rolls)
      CHECK(std::abs(spin_speed / sim.world().v(0, 0) - 1) < 0.01);
    else
      CHECK(spin_speed < 0.9 * sim.world().v(0, 0));
  }
}

TEST_CASE(
    "a disk thrown without spin rolls from t = v0 / (3 mu g) at 2/3 v0, a third of its energy "
    "lost") {
  const double v0 = 2.0, mu = 0.3, g = 9.81, r = 0.1;
  Simulation sim = scene_simulation("disk-incline", "velocity-verlet", 2e-5,
                                    {{"angle", 0.0}, {"mu", mu}, {"v0", v0}, {"gamma_n", 0.0}});
  const double e0 = sim.energy().kinetic_translational;
  REQUIRE(e0 == doctest::Approx(0.5 * v0 * v0));
  double rolling_from = -1;
  while (sim.time() < 0.5) {
    REQUIRE_FALSE(sim.step());
    const double slip = sim.world().v(0, 0) + sim.world().w(2, 0) * r;
    if (rolling_from < 0 && slip < 1e-3 * v0) rolling_from = sim.time();
  }
  const double expected_t = v0 / (3 * mu * g);
  INFO("rolls from t = " << rolling_from << ", expected " << expected_t);
  CHECK(rolling_from == doctest::Approx(expected_t).epsilon(0.01));
  CHECK(sim.world().v(0, 0) == doctest::Approx(2.0 / 3.0 * v0).epsilon(1e-3));
  const EnergyReport e = sim.energy();
  INFO("dissipated " << e.dissipated << " of " << e0);
  CHECK(e.dissipated == doctest::Approx(e0 / 3).epsilon(2e-3));
  CHECK(e.kinetic_translational + e.kinetic_rotational ==
        doctest::Approx(2 * e0 / 3).epsilon(2e-3));
}

namespace {
void check_in_plane(const World& w, const std::string& label) {
  int off = 0;
  for (int i = 0; i < w.size(); ++i)
    if (w.x(2, i) != 0.0 || w.v(2, i) != 0.0 || w.w(0, i) != 0.0 || w.w(1, i) != 0.0 ||
        w.L(0, i) != 0.0 || w.L(1, i) != 0.0 || w.q[i].x() != 0.0 || w.q[i].y() != 0.0)
      ++off;
  INFO(label);
  CHECK(off == 0);
}

// The times body 0 crosses x = 0, interpolated within the step, until there are `count`.
std::vector<double> x_crossings(Simulation& sim, size_t count) {
  std::vector<double> crossings;
  double x_before = sim.world().x(0, 0);
  while (crossings.size() < count) {
    REQUIRE_FALSE(sim.step());
    const double x = sim.world().x(0, 0);
    if ((x_before > 0) != (x > 0)) crossings.push_back(sim.time() - sim.dt() * x / (x - x_before));
    x_before = x;
  }
  return crossings;
}
}  // namespace

TEST_CASE("slow: disk-settle keeps every out-of-plane quantity exactly 0.0 for 1e5 steps" *
          doctest::test_suite("slow")) {
  const SceneSetup setup = build_scene("disk-settle", {{"n", ParamValue(400.0)}});
  Simulation sim(setup.world, setup.dt, "velocity-verlet");
  REQUIRE_FALSE(sim.advance(100000));
  CHECK(sim.energy().contacts > 300);  // settled: a packed pile, not a gas
  check_in_plane(sim.world(), "velocity-verlet, 1e5 steps");
}

TEST_CASE("every integrator and rotation scheme keeps 2-D bodies exactly in the plane" *
          doctest::test_suite("slow")) {
  // Packed closer than the disks' diameter plus the lattice's jitter: in contact from the start.
  const SceneSetup setup = build_scene("disk-settle", {{"n", ParamValue(100.0)}, {"spacing", 1.0}});
  std::vector<std::pair<std::string, std::string>> runs;  // each integrator, each rotation scheme
  for (const std::string& method : IntegratorRegistry::instance().names())
    runs.push_back({method, "buss2"});
  for (const std::string& rotation : RotationRegistry::instance().names())
    runs.push_back({"symplectic-euler", rotation});
  for (const auto& [method, rotation] : runs) {
    Simulation sim(setup.world, setup.dt, method, rotation);
    if (method == "baoab") {
      ParamTable options;
      options.set("temperature", 0.1);
      options.set("friction", 1.0);
      options.set("rotational_friction", 1.0);
      sim.integrator().set_options(options);
    }
    REQUIRE_FALSE(sim.advance(method == "implicit-euler" || method == "newmark" ? 20 : 1000));
    CHECK(sim.energy().contacts > 50);
    check_in_plane(sim.world(), method + " / " + rotation);
  }
}

// The step clears out-of-plane loads only where some model may make them (keeps_plane): gravity
// in the plane and disks' contacts (with rolling and twisting resistance too) make none, so
// disk-settle skips the pass. Gravity with a 1e-300 out-of-plane part asks for the pass and must
// give the skipping run's state to the bit (if the contacts made out-of-plane loads, only the
// cleared run would stay in the plane), and stay in the plane itself (if gravity claimed to keep
// it, the 1e-300 would move the disks off).
TEST_CASE("disk-settle skips clearing out-of-plane loads and keeps the cleared run's bits" *
          doctest::test_suite("slow")) {
  struct Run {
    std::string method;
    double resistance;  // mu_roll and mu_twist
  };
  for (const Run& run :
       {Run{"velocity-verlet", 0.0}, Run{"rk4", 0.0}, Run{"velocity-verlet", 0.2}}) {
    const SceneSetup setup = build_scene("disk-settle", {{"n", ParamValue(100.0)},
                                                         {"spacing", 1.0},
                                                         {"mu_roll", run.resistance},
                                                         {"mu_twist", run.resistance}});
    World tilted = setup.world;
    int replaced = 0;
    for (auto& model : tilted.forces)
      if (model->kind() == "gravity") {
        ParamTable g;
        g.set("g", std::vector<double>{0, -1, 1e-300});
        model = ForceRegistry::instance().make("gravity", g);
        ++replaced;
      }
    REQUIRE(replaced == 1);
    Simulation skipping(setup.world, setup.dt, run.method), cleared(tilted, setup.dt, run.method);
    REQUIRE_FALSE(skipping.advance(1500));
    REQUIRE_FALSE(cleared.advance(1500));
    const std::string label =
        run.method + ", mu_roll = mu_twist = " + std::to_string(run.resistance);
    INFO(label);
    for (const auto& model : skipping.world().forces) CHECK(model->keeps_plane(skipping.world()));
    CHECK_FALSE(std::all_of(cleared.world().forces.begin(), cleared.world().forces.end(),
                            [&](const auto& f) { return f->keeps_plane(cleared.world()); }));
    CHECK(skipping.energy().contacts > 50);
    check_in_plane(cleared.world(), label + ", gravity off the plane by 1e-300");
    const World &a = skipping.world(), &b = cleared.world();
    auto same_bits = [](const Positions& p, const Positions& r) {
      return p.size() == r.size() &&
             std::memcmp(p.data(), r.data(), sizeof(double) * p.size()) == 0;
    };
    CHECK(same_bits(a.x, b.x));
    CHECK(same_bits(a.v, b.v));
    CHECK(same_bits(a.L, b.L));
    CHECK(same_bits(a.w, b.w));
    CHECK(std::memcmp(a.q.data(), b.q.data(), sizeof(Quat) * a.q.size()) == 0);
  }
}

// A floor line sliding along z drags a disk resting on it out of the plane by friction: its
// contacts do not keep the plane, so the step clears what leaves it.
TEST_CASE("a disk on a floor that slides along z stays in the plane") {
  World world;
  world.dimensions = 2;
  world.add_body(disk_at(disk_shape(0.5), 1.0, 0, 0.49, 0, 0));
  add_gravity_2d(world, 1.0);
  ParamTable contacts, floor;
  floor.set("point", std::vector<double>{0, 0, 0});
  floor.set("normal", std::vector<double>{0, 1, 0});
  floor.set("velocity", std::vector<double>{0, 0, 1});
  contacts.set("kn", 2000.0);
  contacts.set("mu", 0.5);
  contacts.set("wall", std::vector<ParamTable>{floor});
  world.add_force(ForceRegistry::instance().make("hooke", contacts));
  Simulation sim(world, 1e-3, "velocity-verlet");
  REQUIRE_FALSE(sim.advance(500));
  CHECK(sim.energy().wall_contacts == 1);
  CHECK(sim.world().x(1, 0) < 0.5);  // still pressed on the floor
  check_in_plane(sim.world(), "a floor sliding along z");
}

namespace {
// A circular segment of a circle (centre c, radius R) cut by the chord at distance R cos(alpha)
// towards unit direction u: its area, centroid and polar moment about point p, from the sector
// minus the triangle (an independent route from the arc integrals).
struct Piece {
  double area;
  Vec3 centroid;
  double polar_about(const Vec3& p) const { return polar_c + area * (centroid - p).squaredNorm(); }
  double polar_c;
};
Piece segment(const Vec3& c, double R, double alpha, const Vec3& u) {
  const double area = R * R * (alpha - std::sin(alpha) * std::cos(alpha));
  const double bar =
      2 * R * std::pow(std::sin(alpha), 3) / (3 * (alpha - std::sin(alpha) * std::cos(alpha)));
  const double a = R * std::cos(alpha), t = std::tan(alpha);
  const double about_centre = std::pow(R, 4) * alpha / 2 - std::pow(a, 4) * (t + t * t * t / 3) / 2;
  return {area, c + bar * u, about_centre - area * bar * bar};
}
}  // namespace

TEST_CASE("a clump of two overlapping disks: area, centroid and polar moment by the lens formula") {
  for (const auto& radii : {std::tuple{1.0, 1.0, 1.0}, {1.0, 0.6, 1.2}, {0.5, 0.8, 0.4}}) {
    // Plain names, not a structured binding: clang 14 cannot capture those in INFO.
    const double r1 = std::get<0>(radii), r2 = std::get<1>(radii), d = std::get<2>(radii);
    const Vec3 c1(0.3, -0.2, 0), c2 = c1 + Vec3(d * 0.6, d * 0.8, 0), u = (c2 - c1) / d;
    // The lens: the segments of both circles beyond the common chord.
    const double a1 = std::acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1));
    const double a2 = std::acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2));
    const Piece s1 = segment(c1, r1, a1, u), s2 = segment(c2, r2, a2, -u);
    const double lens = s1.area + s2.area;
    const double lens_formula =
        r1 * r1 * a1 + r2 * r2 * a2 -
        0.5 * std::sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2));
    REQUIRE(lens == doctest::Approx(lens_formula).epsilon(1e-13));
    const double A1 = M_PI * r1 * r1, A2 = M_PI * r2 * r2, area = A1 + A2 - lens;
    const Vec3 centroid =
        (A1 * c1 + A2 * c2 - s1.area * s1.centroid - s2.area * s2.centroid) / area;
    const double polar = 0.5 * A1 * r1 * r1 + A1 * (c1 - centroid).squaredNorm() +
                         0.5 * A2 * r2 * r2 + A2 * (c2 - centroid).squaredNorm() -
                         s1.polar_about(centroid) - s2.polar_about(centroid);
    const PlaneMassProperties p = disk_union_properties({{c1, r1}, {c2, r2}});
    INFO("r1 " << r1 << " r2 " << r2 << " d " << d);
    CHECK(p.area == doctest::Approx(area).epsilon(1e-13));
    CHECK((p.centroid - centroid).norm() < 1e-13);
    CHECK(p.polar == doctest::Approx(polar).epsilon(1e-12));
  }
}

TEST_CASE("a clump of disks: one disk, a disk inside another, and many disks against a fine grid") {
  const PlaneMassProperties one = disk_union_properties({{Vec3(2, 1, 0), 0.5}});
  CHECK(one.area == doctest::Approx(M_PI * 0.25).epsilon(1e-14));
  CHECK(one.polar == doctest::Approx(0.5 * M_PI * std::pow(0.5, 4)).epsilon(1e-14));
  const PlaneMassProperties nested =
      disk_union_properties({{Vec3(0, 0, 0), 1.0}, {Vec3(0.2, 0.1, 0), 0.5}, {Vec3(0, 0, 0), 1.0}});
  CHECK(nested.area == doctest::Approx(M_PI).epsilon(1e-14));
  CHECK(nested.polar == doctest::Approx(0.5 * M_PI).epsilon(1e-14));
  Random random(5);
  std::vector<ClumpSphere> disks;
  for (int k = 0; k < 7; ++k)
    disks.push_back(
        {Vec3(random.uniform(-1, 1), random.uniform(-1, 1), 0), random.uniform(0.2, 0.7)});
  const PlaneMassProperties p = disk_union_properties(disks);
  // Midpoint rule on a 3000 x 3000 grid over [-2, 2]^2: the union's boundary costs O(h) cells.
  const int n = 3000;
  const double h = 4.0 / n;
  double area = 0, mx = 0, my = 0, m2 = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double x = -2 + (i + 0.5) * h, y = -2 + (j + 0.5) * h;
      bool inside = false;
      for (const ClumpSphere& d : disks)
        inside = inside || std::hypot(x - d.centre.x(), y - d.centre.y()) < d.radius;
      if (!inside) continue;
      area += h * h, mx += h * h * x, my += h * h * y, m2 += h * h * (x * x + y * y);
    }
  const Vec3 centroid(mx / area, my / area, 0);
  CHECK(p.area == doctest::Approx(area).epsilon(1e-4));
  CHECK((p.centroid - centroid).norm() < 1e-4);
  CHECK(p.polar == doctest::Approx(m2 - area * centroid.squaredNorm()).epsilon(1e-4));
}

TEST_CASE("2-D worlds refuse bodies off the plane, 3-D worlds refuse disks") {
  World flat;
  flat.dimensions = 2;
  BodySpec b;
  b.shape = disk_shape(0.5);
  flat.add_body(b);
  CHECK_NOTHROW(flat.check_plane());
  b.position.z() = 0.1;
  flat.add_body(b);
  CHECK_THROWS_WITH_AS(flat.check_plane(),
                       doctest::Contains("body 1 (disk): a 2-D scene keeps bodies in the plane"),
                       InputError);
  World deep;
  deep.add_body(BodySpec{.shape = disk_shape(0.5)});
  CHECK_THROWS_WITH_AS(deep.check_plane(), doctest::Contains("give the scene dimensions = 2"),
                       InputError);
}

TEST_CASE(
    "the plane carries loads off it: gravity tilted out of a 2-D scene moves nothing out of it") {
  // As LAMMPS' fix enforce2d: the out-of-plane part of every load is taken away, so the run is
  // bit for bit the run without it.
  SceneSetup setup = build_scene("disk-settle", {{"n", ParamValue(100.0)}, {"spacing", 1.0}});
  SceneSetup tilted = setup;
  ParamTable g;
  g.set("g", std::vector<double>{0, 0, -3.0});
  tilted.world.add_force(ForceRegistry::instance().make("gravity", g));
  ParamTable push, torque;
  push.set("body", 5.0);
  push.set("force", std::vector<double>{0.0, 0.0, 2.0});  // straight out of the plane
  tilted.world.add_force(ForceRegistry::instance().make("point-force", push));
  torque.set("force", 0.0);  // no propulsion (in 2-D it would push along body x, in the plane)
  torque.set("torque", std::vector<double>{1.0, -1.0, 0.0});  // about in-plane axes
  tilted.world.add_force(ForceRegistry::instance().make("active", torque));
  Simulation a(setup.world, setup.dt), b(tilted.world, setup.dt);
  REQUIRE_FALSE(a.advance(2000));
  REQUIRE_FALSE(b.advance(2000));
  check_in_plane(b.world(), "tilted gravity, an out-of-plane push and torque");
  CHECK(a.world().x == b.world().x);
  CHECK(a.world().w == b.world().w);
}

TEST_CASE("a 2-D bonded beam of disks: each bond bends by F times its lever arm and shears by F") {
  // In the plane a bond has its normal, shear and bending parts (no twist): a clamped row of
  // bonded disks with a tip load settles with the statics of a cantilever.
  for (const char* model : {"finite", "incremental"}) {
    World world;
    world.dimensions = 2;
    const int n = 6;
    const ShapePtr disk = disk_shape(0.5);
    std::vector<std::pair<int, int>> pairs;
    for (int k = 0; k < n; ++k) {
      BodySpec b = disk_at(disk, 1.0, k, 0);
      if (k == 0) b.flags = kFixed;
      world.add_body(b);
      if (k > 0) pairs.push_back({k, k - 1});
    }
    ParamTable p;
    for (const char* key : {"kr", "ks", "kt", "kb"}) p.set(key, 1000.0);
    p.set("damping", 1.0);
    p.set("local_damping", 0.0);
    p.set("bond.model", std::string(model));
    add_bonds(world, p, pairs);
    ParamTable tip;
    tip.set("body", double(n - 1));
    tip.set("force", std::vector<double>{0, -1.0, 0});
    world.add_force(ForceRegistry::instance().make("point-force", tip));
    Simulation sim(world, 2e-3);
    REQUIRE_FALSE(sim.advance(60000));
    INFO(model);
    CHECK(sim.energy().kinetic < 1e-9);
    check_in_plane(sim.world(), model);
    const std::vector<BondReport> reports = bond_reports(sim.world());
    REQUIRE(reports.size() == size_t(n - 1));
    for (const BondReport& r : reports) {
      const double lever = (n - 1) - (r.i - 0.5);  // tip centre to the bond's midpoint
      INFO("bond " << r.i << "-" << r.j << " bend " << r.bend_torque << " shear " << r.shear_force
                   << " twist " << r.twist_torque);
      CHECK(std::abs(r.bend_torque / lever - 1) < 0.002);
      CHECK(std::abs(r.shear_force - 1) < 0.002);
      CHECK(r.twist_torque == 0.0);
    }
  }
}

TEST_CASE(
    "constraints in the plane: a disk on a rigid rod swings with the period 7.4163 sqrt(L/g) from "
    "90 deg") {
  World world;
  world.dimensions = 2;
  const double length = 1.0, g = 9.81;
  const Vec3 pivot(0, length, 0);
  world.add_body(disk_at(disk_shape(0.05), 1.0, length, length));  // level with the pivot
  ParamTable p;
  p.set("drift", std::string("rattle"));
  add_links(world, {{0, -1, pivot, length}}, Formulation::multipliers, p);
  add_gravity_2d(world, g);
  const double period = 7.4163 * std::sqrt(length / g);
  Simulation sim(world, period / 2000);
  // Crossings of x = 0: a quarter and three quarters of the period.
  const std::vector<double> crossings = x_crossings(sim, 2);
  CHECK(2 * (crossings[1] - crossings[0]) == doctest::Approx(period).epsilon(2e-4));
  check_in_plane(sim.world(), "rod pendulum");
}

TEST_CASE("a disk pivoted at its rim swings in the plane with period 2 pi sqrt(3 R / (2 g))") {
  // A compound pendulum: I about the pivot = 1/2 m R^2 + m R^2, so T = 2 pi sqrt(1.5 R / g) for
  // small swings (0.01 rad: the amplitude's correction, theta^2 / 16, is 6e-6).
  World world;
  world.dimensions = 2;
  const double R = 0.2, g = 9.81, swing = 0.01;
  BodySpec disk = disk_at(disk_shape(R), 1.0, R * std::sin(swing), -R * std::cos(swing));
  disk.flags = kPivot;
  disk.pivot = Vec3::Zero();
  world.add_body(disk);
  world.check_plane();
  add_gravity_2d(world, g);
  const double period = 2 * M_PI * std::sqrt(1.5 * R / g);
  Simulation sim(world, period / 4000);
  const std::vector<double> crossings = x_crossings(sim, 3);
  CHECK(crossings[2] - crossings[0] == doctest::Approx(period).epsilon(1e-4).scale(0));
  CHECK(std::abs(sim.world().x.col(0).norm() - R) < 1e-12);  // held at its pivot
  check_in_plane(sim.world(), "pivoted disk");
  BodySpec off = disk;
  off.pivot = Vec3(0, 0, 0.1);
  world.add_body(off);
  CHECK_THROWS_WITH_AS(world.check_plane(), doctest::Contains("pivot lies in the plane"),
                       InputError);
}

TEST_CASE("pair potentials in the plane: a 2-D WCA gas keeps its energy and its plane") {
  World world;
  world.dimensions = 2;
  Random random(3);
  const ShapePtr disk = disk_shape(0.5);
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      world.add_body(
          disk_at(disk, 1.0, 1.2 * i, 1.2 * j, random.uniform(-1, 1), random.uniform(-1, 1)));
  ParamTable wca;
  wca.set("epsilon", 1.0);
  world.add_force(ForceRegistry::instance().make("wca", wca));
  Simulation sim(world, 1e-3);
  REQUIRE_FALSE(sim.advance(5000));
  check_in_plane(sim.world(), "wca");
  CHECK(std::abs(sim.energy().energy_error) < 1e-4);
  CHECK(sim.energy().potential > 0);  // they collided
}

TEST_CASE(
    "a convex polygon: area, centroid and polar moment in closed form, corners in any order") {
  const ShapePtr square = polygon_shape({{1, 1, 0}, {3, 3, 0}, {3, 1, 0}, {1, 3, 0}});
  CHECK(square->volume() == doctest::Approx(4.0).epsilon(1e-14));
  CHECK((square->frame().centre - Vec3(2, 2, 0)).norm() < 1e-14);
  CHECK(square->unit_inertia().z() == doctest::Approx(4.0 / 6.0).epsilon(1e-14));  // a^2 / 6
  const double b = 3, h = 2;  // a right triangle: (b^2 + h^2) / 18 per unit area
  const ShapePtr triangle = polygon_shape({{0, 0, 0}, {0, h, 0}, {b, 0, 0}});
  CHECK(triangle->volume() == doctest::Approx(b * h / 2).epsilon(1e-14));
  CHECK((triangle->frame().centre - Vec3(b / 3, h / 3, 0)).norm() < 1e-14);
  CHECK(triangle->unit_inertia().z() == doctest::Approx((b * b + h * h) / 18).epsilon(1e-14));
  CHECK(triangle->planar());
  ParamTable bent("t.toml:3");
  bent.set("vertices", std::vector<double>{0, 0, 2, 0, 1, 0.2, 1, 1});  // (1, 0.2) is inside
  CHECK_THROWS_AS(make_shape("polygon", bent, false), InputError);
}

namespace {
// A square of side a on a floor line in a 2-D world with gravity tilted by `degrees`.
Simulation square_on_incline(double degrees, double mu, double a = 0.2) {
  World world;
  world.dimensions = 2;
  const double m = 1, kn = 1e6, g = 9.81, angle = degrees * M_PI / 180;
  BodySpec square =
      shaped_body(polygon_shape({{-a / 2, 0, 0}, {a / 2, 0, 0}, {a / 2, a, 0}, {-a / 2, a, 0}}), m);
  square.position.y() -= m * g * std::cos(angle) / (4 * kn);  // settled: four corner points
  world.add_body(square);
  ParamTable gravity;
  gravity.set("g", std::vector<double>{g * std::sin(angle), -g * std::cos(angle), 0});
  world.add_force(ForceRegistry::instance().make("gravity", gravity));
  ParamTable hooke;
  hooke.set("kn", kn);
  hooke.set("kt", kn);
  hooke.set("gamma_n", 200.0);
  hooke.set("gamma_t", 200.0);
  hooke.set("mu", mu);
  hooke.set("coulomb", std::string("exact"));
  ParamTable wall;
  wall.set("point", std::vector<double>{0, 0, 0});
  wall.set("normal", std::vector<double>{0, 1, 0});
  hooke.set("wall", std::vector<ParamTable>{wall});
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  return Simulation(world, 2e-5);
}
}  // namespace

TEST_CASE(
    "a polygon on a 2-D incline rests m g / (4 kn) deep, holds below tan = mu, slides above") {
  const double mu = 0.5, g = 9.81;
  Simulation level = square_on_incline(0, mu);
  REQUIRE_FALSE(level.advance(20000));
  CHECK(level.world().x(1, 0) == doctest::Approx(0.1 - 9.81 / 4e6).epsilon(1e-6));
  check_in_plane(level.world(), "resting square");
  for (double degrees : {20.0, 40.0}) {
    Simulation sim = square_on_incline(degrees, mu);
    REQUIRE_FALSE(sim.advance(5000));
    const double v1 = sim.world().v(0, 0), t1 = sim.time();
    REQUIRE_FALSE(sim.advance(20000));
    const double a = (sim.world().v(0, 0) - v1) / (sim.time() - t1);
    const double theta = degrees * M_PI / 180;
    INFO(degrees << " deg: a " << a);
    if (std::tan(theta) < mu)
      CHECK(std::abs(a) < 1e-3);
    else
      CHECK(a == doctest::Approx(g * (std::sin(theta) - mu * std::cos(theta))).epsilon(0.01));
    CHECK(std::abs(sim.world().w(2, 0)) < 1e-3);  // a square tips only past 45 degrees
    check_in_plane(sim.world(), "square on an incline");
  }
}

TEST_CASE("active disks in 2-D: propelled along their body x axis, at F / c against linear drag") {
  // A disk turned by 30 degrees, pushed along its own x axis with force F against drag c v:
  // terminal speed F / c along (cos 30, sin 30), in the plane.
  World world;
  world.dimensions = 2;
  BodySpec b = disk_at(disk_shape(0.5), 1.0, 0, 0);
  const double a = M_PI / 6;
  b.orientation = Quat(Eigen::AngleAxisd(a, Vec3::UnitZ()));
  world.add_body(b);
  ParamTable active, drag;
  active.set("force", 2.0);
  drag.set("c", 4.0);
  world.add_force(ForceRegistry::instance().make("active", active));
  world.add_force(ForceRegistry::instance().make("linear-drag", drag));
  Simulation sim(world, 1e-3);
  REQUIRE_FALSE(sim.advance(10000));  // 40 relaxation times
  CHECK(sim.world().v(0, 0) == doctest::Approx(0.5 * std::cos(a)).epsilon(1e-9));
  CHECK(sim.world().v(1, 0) == doctest::Approx(0.5 * std::sin(a)).epsilon(1e-9));
  check_in_plane(sim.world(), "active disk");
}
