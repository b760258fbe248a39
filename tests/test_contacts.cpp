// Granular contacts against closed forms: restitution and contact time of the spring-dashpot,
// rolling and slipping on an incline, the neighbour list against brute force, momentum.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "core/contacts/body_loads.hpp"
#include "core/contacts/neighbor_list.hpp"
#include "core/quaternion.hpp"
#include "test_support.hpp"

using namespace stepwise;
using stepwise::test::scene_simulation;

TEST_CASE("impact: restitution and contact duration of the spring-dashpot within 1%") {
  const double kn = 1e5, gamma_n = 60, m = 1;
  const double w0 = std::sqrt(kn / m), zeta = gamma_n / (2 * w0);
  const double restitution = std::exp(-M_PI * zeta / std::sqrt(1 - zeta * zeta));
  const double duration = M_PI / std::sqrt(kn / m - 0.25 * gamma_n * gamma_n);
  Simulation sim =
      scene_simulation("impact", "velocity-verlet", duration / 500,
                       {{"g", 0.0}, {"v0", 1.0}, {"height", 0.01}, {"gamma_n", gamma_n}});
  const double r = sim.world().radius(0);
  double touch = -1, leave = -1, previous_gap = sim.world().x(2, 0) - r, previous_t = 0;
  while (leave < 0 && sim.time() < 1) {
    REQUIRE_FALSE(sim.step());
    const double gap = sim.world().x(2, 0) - r;  // interpolate the crossings of gap = 0
    const double crossing =
        previous_t + (sim.time() - previous_t) * previous_gap / (previous_gap - gap);
    if (touch < 0 && gap < 0)
      touch = crossing;
    else if (touch >= 0 && gap >= 0)
      leave = crossing;
    previous_gap = gap;
    previous_t = sim.time();
  }
  const double rebound = sim.world().v(2, 0);
  INFO("e " << rebound << " vs " << restitution << ", t_c " << leave - touch << " vs " << duration);
  CHECK(std::abs(rebound / restitution - 1) < 0.01);
  CHECK(std::abs((leave - touch) / duration - 1) < 0.01);
}

TEST_CASE(
    "a Verlet run leaves out the body powers; switching to a method that reads them adds them") {
  // Mid-impact, the normal dashpot dissipates m gamma_n v^2 (the floor is fixed: m_eff = m).
  const double gamma_n = 60, m = 1;
  Simulation sim =
      scene_simulation("impact", "velocity-verlet", 2e-6,
                       {{"g", 0.0}, {"v0", 1.0}, {"height", 0.01}, {"gamma_n", gamma_n}});
  const double r = sim.world().radius(0);
  while (sim.world().x(2, 0) > r - 1e-4) REQUIRE_FALSE(sim.step());
  auto cached_power = [&] {
    return sim.save_state().tables("cache").at(0).number("dissipation_power");
  };
  CHECK(cached_power() == 0);  // hooke books its dashpots per body, not as pair powers
  sim.set_integrator("rk4");
  const double v = sim.world().v(2, 0);
  CHECK(v < -0.5);
  // (The forces were evaluated half a kick before v: within 1%.)
  CHECK(cached_power() == doctest::Approx(m * gamma_n * v * v).epsilon(0.01));
}

TEST_CASE("implicit methods step a granular impact through finite-difference Jacobians") {
  // The contact model has no analytic Jacobian: the implicit methods differentiate it, with the
  // per-body drag arrays it fills. Newmark (average acceleration) keeps the restitution; implicit
  // Euler's numerical damping lowers it by its amplification factor.
  const double kn = 1e5, gamma_n = 60, m = 1;
  const double zeta = gamma_n / (2 * std::sqrt(kn / m));
  const double restitution = std::exp(-M_PI * zeta / std::sqrt(1 - zeta * zeta));
  const double duration = M_PI / std::sqrt(kn / m - 0.25 * gamma_n * gamma_n);
  auto rebound = [&](const char* integrator) {
    Simulation sim =
        scene_simulation("impact", integrator, duration / 200,
                         {{"g", 0.0}, {"v0", 1.0}, {"height", 0.01}, {"gamma_n", gamma_n}});
    REQUIRE_FALSE(sim.advance(std::lround(0.03 / (duration / 200))));
    return sim.world().v(2, 0);
  };
  const double newmark = rebound("newmark"), implicit = rebound("implicit-euler");
  INFO("newmark " << newmark << ", implicit Euler " << implicit << ", exact " << restitution);
  CHECK(newmark == doctest::Approx(restitution).epsilon(0.005));
  // Implicit Euler shrinks an oscillation by 1/sqrt(1 + (w h)^2) per step: 200 steps in contact.
  const double w_h = std::sqrt(kn / m) * duration / 200;
  CHECK(implicit == doctest::Approx(restitution * std::pow(1 + w_h * w_h, -100.0)).epsilon(0.01));
}

TEST_CASE("incline: rolls at 5/7 g sin below tan = 7/2 mu, slips at g (sin - mu cos) above") {
  const double g = 9.81, mu = 0.3;
  for (double degrees : {10.0, 20.0, 60.0, 75.0}) {
    const double a = degrees * M_PI / 180;
    const bool rolls = std::tan(a) < 3.5 * mu;
    const double expected =
        rolls ? 5.0 / 7.0 * g * std::sin(a) : g * (std::sin(a) - mu * std::cos(a));
    Simulation sim =
        scene_simulation("incline", "velocity-verlet", 5e-5, {{"angle", degrees}, {"mu", mu}});
    REQUIRE_FALSE(sim.advance(4000));  // t = 0.2: past the start-up transient
    const double v1 = sim.world().v(0, 0), t1 = sim.time();
    REQUIRE_FALSE(sim.advance(16000));  // t = 1
    const double measured = (sim.world().v(0, 0) - v1) / (sim.time() - t1);
    const double spin_speed = sim.world().w(1, 0) * sim.world().radius(0);  // v = w r when rolling
    INFO(degrees << " deg: a " << measured << " expected " << expected << " (rolls " << rolls
                 << "), v " << sim.world().v(0, 0) << " w r " << spin_speed);
    CHECK(std::abs(measured / expected - 1) < 0.02);
    if (rolls)
      CHECK(std::abs(spin_speed / sim.world().v(0, 0) - 1) < 0.01);
    else
      CHECK(spin_speed < 0.9 * sim.world().v(0, 0));
  }
}

TEST_CASE("the neighbour list holds exactly the brute-force pairs, dense and sparse") {
  Random random(11);
  for (double spacing : {0.6, 3.0}) {  // dense overlapping cloud, sparse gas
    const int n = 600;
    Positions x(3, n);
    VecX radius(n);
    for (int i = 0; i < n; ++i) {
      x.col(i) = spacing * Vec3(random.uniform(0, 8), random.uniform(0, 8), random.uniform(0, 8));
      radius(i) = random.uniform(0.1, 0.5);
    }
    NeighborList list(0.2);
    list.update(x, radius);
    std::vector<std::pair<int, int>> listed;
    for (int i = 0; i < n; ++i)
      for (int k = list.offsets()[i]; k < list.offsets()[i + 1]; ++k)
        listed.emplace_back(i, list.neighbors()[k]);
    CHECK(listed == NeighborList::brute_force(x, radius, 0.2));
    // Move everything by less than half the skin: no rebuild, and every touching pair is listed.
    for (int i = 0; i < n; ++i)
      x.col(i) += 0.099 * Vec3(random.normal(), random.normal(), random.normal()).normalized();
    CHECK_FALSE(list.update(x, radius));
    const std::set<std::pair<int, int>> have(listed.begin(), listed.end());
    for (const auto& pair : NeighborList::brute_force(x, radius, 0.0)) CHECK(have.count(pair) == 1);
    x.col(0) += Vec3(0.2, 0, 0);  // one body beyond half the skin forces a rebuild
    CHECK(list.update(x, radius));
  }
}

TEST_CASE(
    "each run's largest displacement since the build is its own bodies' largest, to the bit") {
  // Moves of every size (so the order of the squares' sum shows in the last bits), runs of 16
  // from body 16 on (enough that the largest falls in every lane), the last one three bodies
  // long (the scalar path alone).
  Random random(17);
  const int n = 40 * 16 + 3, run = 16, runs = 41;
  Positions x(3, n);
  VecX radius = VecX::Constant(n, 0.1);
  for (int i = 0; i < n; ++i) x.col(i) = Vec3(random.normal(), random.normal(), random.normal());
  NeighborList list(0.2);
  list.update(x, radius);
  const Positions built = x;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) x(k, i) += random.normal() * std::pow(10.0, random.uniform(-9, 1));
  std::vector<double> most(runs, -1.0);
  list.displacements2(x, run, n, run, most.data());
  CHECK(most[0] == -1.0);
  for (int b = 1; b < runs; ++b) {
    INFO("run " << b);
    double expected = 0;
    for (int i = b * run; i < std::min(n, (b + 1) * run); ++i)
      expected = std::max(expected, (x.col(i) - built.col(i)).squaredNorm());
    CHECK(expected > 0);
    CHECK(most[b] == expected);
  }
  CHECK_THROWS_AS(list.displacements2(x, 4, n, run, most.data()), std::logic_error);
}

TEST_CASE("sweep and prune and the linked cells both give the brute-force pairs, sizes mixed") {
  // Radii spread over two decades (log-uniform 0.01 to 1) and a few boulders of radius 3: the
  // case sweep and prune is for. Then everything moves a little and the kept order is re-sorted.
  Random random(17);
  const int n = 1500;
  Positions x(3, n);
  VecX radius(n);
  for (int i = 0; i < n; ++i) {
    x.col(i) = Vec3(random.uniform(0, 12), random.uniform(0, 12), random.uniform(0, 12));
    radius(i) = i % 300 == 0 ? 3.0 : std::exp(random.uniform(std::log(0.01), 0.0));
  }
  auto listed = [&](const NeighborList& list) {
    std::vector<std::pair<int, int>> out;
    for (int i = 0; i < n; ++i)
      for (int k = list.offsets()[i]; k < list.offsets()[i + 1]; ++k)
        out.emplace_back(i, list.neighbors()[k]);
    return out;
  };
  NeighborList cells(0.05), sweep(0.05), automatic(0.05);
  cells.set_broad_phase(BroadPhase::Cells);
  sweep.set_broad_phase(BroadPhase::Sweep);
  for (int round = 0; round < 3; ++round) {
    const auto truth = NeighborList::brute_force(x, radius, 0.05);
    CHECK(truth.size() > 1000);
    cells.build(x, radius);
    sweep.build(x, radius);
    automatic.build(x, radius);
    CHECK(listed(cells) == truth);
    CHECK(listed(sweep) == truth);
    CHECK(automatic.swept());  // the boulders are 4 times the mean radius and more
    CHECK(listed(automatic) == truth);
    for (int i = 0; i < n; ++i)
      x.col(i) += 0.05 * Vec3(random.normal(), random.normal(), random.normal());
  }
  // Equal spheres: auto keeps the cells.
  const VecX equal = VecX::Constant(n, 0.3);
  automatic.build(x, equal);
  CHECK_FALSE(automatic.swept());
  sweep.build(x, equal);
  CHECK(listed(sweep) == NeighborList::brute_force(x, equal, 0.05));
}

TEST_CASE(
    "the settle lattices start at rest on average at temperature 0.01; a lone grain at rest") {
  // As LAMMPS' velocity create: sum m v^2 / 2 = dofs T / 2 (3N - 3 dofs, 2N - 2 for disks),
  // no net momentum.
  for (const auto& scene : {std::pair<std::string, double>{"settle", 3 * 512 - 3},
                            std::pair<std::string, double>{"disk-settle", 2 * 512 - 2}}) {
    const std::string& name = scene.first;  // (not a structured binding: clang 14 cannot
    const double dofs = scene.second;       // capture one in INFO)
    INFO(name);
    const World world =
        name == "settle"
            ? build_scene(name, {{"n", 512.0}, {"nx", 8.0}, {"ny", 8.0}, {"nz", 8.0}}).world
            : build_scene(name, {{"n", 512.0}}).world;
    double kinetic = 0;
    Vec3 momentum = Vec3::Zero();
    for (int i = 0; i < world.size(); ++i) {
      kinetic += 0.5 * world.mass(i) * world.v.col(i).squaredNorm();
      momentum += world.mass(i) * world.v.col(i);
    }
    CHECK(kinetic == doctest::Approx(0.5 * dofs * 0.01).epsilon(1e-12));
    CHECK(momentum.norm() < 1e-15 * world.size());
  }
  // One grain: nothing to scale (0 dofs, no kinetic energy left); it starts at rest, not at 0/0.
  for (const World& one :
       {build_scene("settle", {{"n", 1.0}, {"nx", 1.0}, {"ny", 1.0}, {"nz", 1.0}}).world,
        build_scene("disk-settle", {{"n", 1.0}}).world}) {
    REQUIRE(one.size() == 1);
    CHECK(one.v.col(0) == Vec3::Zero());
  }
}

TEST_CASE("a granular run is the same bit for bit whichever broad phase lists its pairs") {
  auto run = [](const std::string& broad_phase) {
    SceneSetup setup = build_scene("settle", {{"n", 512.0}, {"nx", 8.0}, {"ny", 8.0}, {"nz", 8.0}});
    ParamTable hooke;
    for (const auto& model : setup.world.forces) {
      if (model->kind() != "hooke") continue;
      model->save(hooke);
    }
    hooke.set("broad_phase", broad_phase);
    World world = setup.world;
    world.forces.erase(std::remove_if(world.forces.begin(), world.forces.end(),
                                      [](const auto& m) { return m->kind() == "hooke"; }),
                       world.forces.end());
    world.add_force(ForceRegistry::instance().make("hooke", hooke));
    Simulation sim(world, setup.dt);
    REQUIRE_FALSE(sim.advance(2000));
    return sim;
  };
  Simulation cells = run("cells"), sweep = run("sweep");
  CHECK(cells.energy().contacts > 100);
  CHECK(cells.world().x == sweep.world().x);
  CHECK(cells.world().v == sweep.world().v);
}

namespace {

// n spheres of radius r_min..r_max scattered in a cube of side `box`, moving and spinning.
std::vector<BodySpec> random_spheres(std::uint64_t seed, int n, double box, double r_min,
                                     double r_max) {
  Random random(seed);
  std::vector<BodySpec> specs;
  for (int i = 0; i < n; ++i) {
    BodySpec b;
    b.radius = random.uniform(r_min, r_max);
    b.mass = random.uniform(0.5, 2.0);
    b.position = Vec3(random.uniform(0, box), random.uniform(0, box), random.uniform(0, box));
    b.velocity = Vec3(random.normal(), random.normal(), random.normal());
    b.angular_velocity = Vec3(random.normal(), random.normal(), random.normal());
    specs.push_back(b);
  }
  return specs;
}

}  // namespace

TEST_CASE("contacts conserve linear momentum to round-off (no walls, no gravity)") {
  World world;
  for (const BodySpec& b : random_spheres(5, 200, 5.0, 0.5, 0.5)) world.add_body(b);
  ParamTable hooke;
  hooke.set("kn", 1000.0);
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  Simulation sim(world, 1e-3, "velocity-verlet", "buss2");
  const Vec3 p0 = sim.energy().momentum;
  CHECK(sim.energy().contacts > 100);
  REQUIRE_FALSE(sim.advance(1000));
  CHECK((sim.energy().momentum - p0).norm() < 1e-11);
}

// Spheres in a box of six walls, touching by hooke (kn 2000 and the given keys).
Simulation walled_box(const std::vector<BodySpec>& specs, double box,
                      const std::function<void(ParamTable&)>& keys,
                      const std::string& integrator = "velocity-verlet") {
  World world;
  for (const BodySpec& b : specs) world.add_body(b);
  ParamTable hooke;
  hooke.set("kn", 2000.0);
  keys(hooke);
  hooke.set("wall", test::box_walls(box));
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  return Simulation(world, 1e-3, integrator, "buss2");
}

// Spheres in a walled box (see the test below), with a skin and with none.
void check_pairs_skipped(double box, double skin) {
  const std::vector<BodySpec> specs = random_spheres(21, 120, box, 0.3, 0.5);
  auto simulation = [&](double skin) {
    return walled_box(specs, box, [skin](ParamTable& hooke) { hooke.set("skin", skin); });
  };
  Simulation wide = simulation(skin), none = simulation(0.0);
  int miscounted = 0, changes = 0, previous = -1;
  for (int step = 0; step < 1500; ++step) {
    REQUIRE_FALSE(wide.step());
    REQUIRE_FALSE(none.step());
    const EnergyReport report = wide.energy();
    const auto touching = NeighborList::brute_force(wide.world().x, wide.world().radius, 0.0);
    const int pairs = report.contacts - report.wall_contacts;
    miscounted += pairs != int(touching.size());
    changes += previous >= 0 && pairs != previous;
    previous = pairs;
  }
  CHECK(miscounted == 0);
  CHECK(changes > 100);
  CHECK(wide.world().x == none.world().x);
  CHECK(wide.world().v == none.world().v);
  CHECK(wide.world().w == none.world().w);
  // The same springs let go, at a rebuild (pairs leaving the list) or when they open.
  CHECK(wide.energy().dissipated == doctest::Approx(none.energy().dissipated).epsilon(1e-12));
}

TEST_CASE("pairs skipped for their gap at the list's build are exactly those that cannot touch") {
  // A gas in a box with a wide skin, so contacts close and open, and bodies move off and come
  // back, between rebuilds; and a dense jostling cloud, where nearly every candidate pair touches
  // and the kernel takes them unsorted, masking out and letting go of those that do not. A skin
  // of 0 rebuilds the list at every step and skips nothing: both must count the brute-force
  // touching pairs at every step and end bit for bit the same. (With no skin, every opening
  // contact leaves the list: its spring's energy must still be booked.) The dense case fails if
  // a pair's result depends on the pairs batched beside it.
  SUBCASE("gas") {
    check_pairs_skipped(8.0, 2.0);
  }
  SUBCASE("dense") {
    check_pairs_skipped(4.2, 0.2);
  }
}

TEST_CASE("kernels read motions packed or from the columns, asking ahead or not, bit for bit") {
  // Packed rows when most bodies touch something, the state's own columns when few do
  // ('motions', auto by default): a dense cloud and a gas in a walled box, with rolling
  // resistance (it reads the spins apart), stepped by Verlet (committing evaluations) and by
  // RK4 (trial evaluations at other velocities), must end the same whichever the kernels read,
  // and whether or not they ask for rows ahead ('prefetch', on past 8 MiB of arrays by default).
  for (const double box : {4.2, 8.0}) {
    const std::vector<BodySpec> specs = random_spheres(23, 120, box, 0.3, 0.5);
    for (const std::string integrator : {"velocity-verlet", "rk4"}) {
      CAPTURE(box);
      CAPTURE(integrator);
      auto simulation = [&](const std::string& motions, const std::string& prefetch) {
        return walled_box(
            specs, box,
            [&](ParamTable& hooke) {
              hooke.set("motions", motions);
              hooke.set("prefetch", prefetch);
              hooke.set("mu_roll", 0.1);
            },
            integrator);
      };
      Simulation packed = simulation("packed", "off"), columns = simulation("columns", "off"),
                 automatic = simulation("auto", "auto"), packed_ahead = simulation("packed", "on"),
                 columns_ahead = simulation("columns", "on");
      const std::vector<Simulation*> others = {&columns, &automatic, &packed_ahead, &columns_ahead};
      int touching = 0;  // contacts seen, every 20 steps (both kernels at work)
      for (int chunk = 0; chunk < 20; ++chunk) {
        REQUIRE_FALSE(packed.advance(20));
        touching += packed.energy().contacts;
        for (Simulation* sim : others) REQUIRE_FALSE(sim->advance(20));
      }
      CHECK(touching > 100);
      const test::RunEnd reference = test::run_end(packed);
      for (Simulation* sim : others) test::check_same(test::run_end(*sim), reference);
    }
  }
  // Two ranges (enough bodies to split), the loads combined in blocks of 32 bodies: a task's
  // window of bodies with loads misses some blocks (asking ahead once crashed on such a block).
  const std::vector<BodySpec> many = random_spheres(29, 2400, 11.4, 0.3, 0.5);
  test::InTurn in_turn;
  auto two_ranges = [&](const std::string& prefetch) {
    Simulation sim =
        walled_box(many, 11.4, [&](ParamTable& hooke) { hooke.set("prefetch", prefetch); });
    sim.set_parallel(&in_turn);
    sim.set_fused(true, 32);
    REQUIRE_FALSE(sim.advance(100));
    return test::run_end(sim);
  };
  const test::RunEnd ahead = two_ranges("on");
  CHECK(ahead.energy.contacts > 1000);
  test::check_same(ahead, two_ranges("off"));
  ParamTable wrong;
  wrong.set("motions", std::string("rows"));
  CHECK_THROWS_WITH_AS(ForceRegistry::instance().make("hooke", wrong),
                       doctest::Contains("'motions' must be auto, packed or columns"), InputError);
  ParamTable asking;
  asking.set("prefetch", std::string("yes"));
  CHECK_THROWS_WITH_AS(ForceRegistry::instance().make("hooke", asking),
                       doctest::Contains("'prefetch' must be auto, on or off"), InputError);
  ParamTable bounding;
  bounding.set("displacements", std::string("guessed"));
  CHECK_THROWS_WITH_AS(ForceRegistry::instance().make("hooke", bounding),
                       doctest::Contains("'displacements' must be auto, bounded or measured"),
                       InputError);
}

TEST_CASE("a saved scene keeps the contact kernels' speed-only ways") {
  // wall_screen was once left out.
  const std::vector<std::pair<std::string, std::string>> ways = {{"motions", "columns"},
                                                                 {"prefetch", "on"},
                                                                 {"displacements", "measured"},
                                                                 {"wall_screen", "all"}};
  ParamTable chosen;
  for (const auto& way : ways) chosen.set(way.first, way.second);
  ParamTable saved;
  ForceRegistry::instance().make("hooke", chosen)->save(saved);
  for (const auto& way : ways) {
    CAPTURE(way.first);
    CHECK(saved.text(way.first, "auto") == way.second);
  }
}

TEST_CASE("pairs computed four at a time get each pair's own force, torque and energy") {
  // A tight cluster, so batches of four share bodies, against every touching pair alone.
  const std::vector<BodySpec> specs = random_spheres(11, 150, 4.0, 0.4, 0.6);
  ParamTable hooke;
  hooke.set("kn", 1000.0);
  hooke.set("mu", 0.05);  // low, so some pairs start on the Coulomb cap
  auto simulation = [&](const std::vector<BodySpec>& bodies) {
    World world;
    for (const BodySpec& b : bodies) world.add_body(b);
    world.add_force(ForceRegistry::instance().make("hooke", hooke));
    return Simulation(world, 1e-3, "velocity-verlet", "buss2");
  };
  Simulation all = simulation(specs);
  const EnergyReport report = all.energy();
  Positions force = Positions::Zero(3, 150), torque = Positions::Zero(3, 150);
  double potential = 0;
  int pairs = 0;
  for (int i = 0; i < 150; ++i)
    for (int j = i + 1; j < 150; ++j) {
      if ((specs[i].position - specs[j].position).norm() >= specs[i].radius + specs[j].radius)
        continue;
      Simulation two = simulation({specs[i], specs[j]});
      potential += two.energy().potential;
      force.col(i) += two.forces().col(0), force.col(j) += two.forces().col(1);
      torque.col(i) += two.torques().col(0), torque.col(j) += two.torques().col(1);
      ++pairs;
    }
  CHECK(pairs > 300);
  CHECK(report.contacts == pairs);
  CHECK(report.potential == doctest::Approx(potential).epsilon(1e-12));
  CHECK((all.forces() - force).cwiseAbs().maxCoeff() < 1e-10 * force.cwiseAbs().maxCoeff());
  CHECK((all.torques() - torque).cwiseAbs().maxCoeff() < 1e-10 * torque.cwiseAbs().maxCoeff());
}

TEST_CASE("settle: kinetic + stored + dissipated = initial energy + work" *
          doctest::test_suite("slow")) {
  // 1000 spheres falling into the box for 6000 steps: impacts, piling, rolling, settling.
  auto worst_error = [](const std::map<std::string, ParamValue>& extra, double dt_fraction) {
    std::map<std::string, ParamValue> params = {
        {"n", 1000.0}, {"nx", 10.0}, {"ny", 10.0}, {"nz", 10.0}};
    params.insert(extra.begin(), extra.end());
    SceneSetup setup = build_scene("settle", params);
    Simulation sim(setup.world, setup.dt * dt_fraction, "velocity-verlet", "buss2");
    double worst = 0;
    for (int block = 0; block < 30; ++block) {
      REQUIRE_FALSE(sim.advance(std::lround(200 / dt_fraction)));
      worst = std::max(worst, std::abs(sim.energy().energy_error));
    }
    CHECK(sim.energy().dissipated > 10);
    return worst;
  };
  // Without sliding (mu large) the ledger closes to the integrator's O(dt^2): under 1e-3.
  const double sticking = worst_error({{"mu", 100.0}}, 1.0);
  INFO("no sliding: " << sticking);
  CHECK(sticking < 1e-3);
  // With Coulomb sliding too: the cap's loss and Verlet's kick mismatches at the cap, at the
  // turning of the spring and at release are booked, so the residual is second order.
  const double sliding = worst_error({}, 1.0), sliding_half = worst_error({}, 0.5);
  INFO("sliding: " << sliding << " at t_c/50, " << sliding_half << " at t_c/100");
  CHECK(sliding < 1e-3);
  CHECK(sliding_half < 0.35 * sliding);
}

TEST_CASE("a sphere slipping down a steep incline: the friction ledger is second order in dt") {
  auto error_at = [](double dt) {
    SceneSetup setup = build_scene("incline", {{"angle", ParamValue(60.0)}});
    Simulation sim(setup.world, dt, "velocity-verlet", "buss2");
    REQUIRE_FALSE(sim.advance(std::lround(1.0 / dt)));
    return std::abs(sim.energy().energy_error);
  };
  const double coarse = error_at(4e-4), fine = error_at(2e-4);
  INFO(coarse << " -> " << fine);
  CHECK(coarse < 1e-5);
  CHECK(fine < 0.3 * coarse);
}

TEST_CASE("a moving wall pushes a sphere and its work is counted") {
  World world;
  BodySpec ball;
  ball.radius = 0.5;
  ball.position = Vec3(0, 0, 2);
  world.add_body(ball);
  ParamTable hooke, wall;
  hooke.set("kn", 1e4);
  hooke.set("gamma_n", 0.0);
  hooke.set("gamma_t", 0.0);
  wall.set("point", std::vector<double>{0, 0, 0});
  wall.set("normal", std::vector<double>{0, 0, 1});
  wall.set("velocity", std::vector<double>{0, 0, 1.0});  // the floor rises at unit speed
  hooke.set("wall", std::vector<ParamTable>{wall});
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  Simulation sim(world, 1e-4, "velocity-verlet", "buss2");
  REQUIRE_FALSE(sim.advance(30000));  // t = 3: the floor reached the ball at t = 1.5
  const EnergyReport r = sim.energy();
  INFO("v " << sim.world().v(2, 0) << " W " << r.external_work << " error " << r.energy_error);
  CHECK(sim.world().v(2, 0) ==
        doctest::Approx(2.0).epsilon(0.01));  // elastic bounce off a wall moving at 1
  CHECK(r.external_work == doctest::Approx(r.kinetic).epsilon(1e-3));
  CHECK(std::abs(r.energy_error) < 1e-3);
}

TEST_CASE("walls computed four at a time give each body what it gets alone") {
  // Spheres in a corner (three walls), on edges (two) and on the floor, sliding and spinning,
  // one of the side walls moving: together they fill the wall kernel's lanes, several lanes
  // sharing a body. Each must end bit for bit as when it is the only body.
  std::vector<BodySpec> specs;
  Random random(5);
  const Vec3 places[] = {{0.499, 0.498, 0.499}, {3, 0.499, 0.498}, {0.498, 3, 0.499}, {6, 3, 0.499},
                         {9, 6, 0.498},         {0.499, 6, 0.499}, {6, 0.498, 0.499}};
  for (const Vec3& at : places) {
    BodySpec b;
    b.radius = 0.5;
    b.mass = random.uniform(0.8, 1.2);
    b.position = at;
    b.velocity = 0.1 * Vec3(random.normal(), random.normal(), 0);
    b.angular_velocity = Vec3(random.normal(), random.normal(), random.normal());
    specs.push_back(b);
  }
  auto simulation = [](const std::vector<BodySpec>& bodies) {
    World world;
    for (const BodySpec& b : bodies) world.add_body(b);
    ParamTable hooke, gravity;
    hooke.set("kn", 2000.0);
    hooke.set("mu", 0.3);
    std::vector<ParamTable> walls(3);
    for (int k = 0; k < 3; ++k) {
      std::vector<double> normal = {0, 0, 0};
      normal[2 - k] = 1;
      walls[k].set("point", std::vector<double>{0, 0, 0});
      walls[k].set("normal", normal);
    }
    walls[2].set("velocity", std::vector<double>{0.1, 0, 0});  // the x = 0 wall moves in
    hooke.set("wall", walls);
    gravity.set("g", std::vector<double>{0, 0, -1});
    world.add_force(ForceRegistry::instance().make("gravity", gravity));
    world.add_force(ForceRegistry::instance().make("hooke", hooke));
    return Simulation(world, 1e-3, "velocity-verlet", "buss2");
  };
  Simulation together = simulation(specs);
  CHECK(together.energy().wall_contacts == 13);
  REQUIRE_FALSE(together.advance(300));
  CHECK(together.energy().wall_contacts >= 7);
  for (size_t i = 0; i < specs.size(); ++i) {
    Simulation alone = simulation({specs[i]});
    REQUIRE_FALSE(alone.advance(300));
    INFO("body " << i);
    CHECK(alone.world().x.col(0) == together.world().x.col(i));
    CHECK(alone.world().v.col(0) == together.world().v.col(i));
    CHECK(alone.world().w.col(0) == together.world().w.col(i));
  }
}

TEST_CASE("contact loads added for the marked bodies only equal adding every body's load") {
  // The sparse path (BodyLoads) against the plain one: every body's load added, zeros and all.
  // Loads written to a random third of the bodies, marked; two evaluations, the second after one
  // whose loads were never added (an evaluation that threw): nothing of it may leak into it.
  const int n = 1000;
  Random random(3);
  BodyLoads loads;
  auto evaluate = [&](bool add) {
    loads.prepare(n);
    std::vector<BodyLoad> plain(n);
    std::vector<std::uint8_t> marked(n, 0), drag_marks(n, 0);
    for (int i = 0; i < n; ++i) {
      if (random.uniform(0, 1) > 1.0 / 3) continue;
      marked[i] = 1;
      for (int k = 0; k < 12; ++k) {  // added to, as the kernels do: it must start at zero
        plain[i].row()[k] = random.normal();
        loads.data()[i].row()[k] += plain[i].row()[k];
      }
      loads.mark(i);
      if (i % 7 == 0) loads.mark(i);  // marked twice
    }
    std::vector<double> sparse(12 * n), dense(12 * n);
    for (int i = 0; i < n; ++i)  // what the other models left in the sums
      for (int k = 0; k < 12; ++k) sparse[12 * i + k] = dense[12 * i + k] = random.normal();
    auto sums = [&](std::vector<double>& s) {
      return BodyLoads::Sums{s.data(), s.data() + 3 * n, s.data() + 6 * n, s.data() + 9 * n,
                             drag_marks.data()};
    };
    if (!add) return;
    // In two ranges, as the fused passes do; one asking for the rows ahead (for speed only).
    // First a task's window that misses the block (clipped to it, inverted): nothing.
    loads.add_to(sums(sparse), 700, 300, true);
    loads.add_to(sums(sparse), 0, 400, false);
    loads.add_to(sums(sparse), 400, n, true);
    loads.taken();
    const BodyLoads::Sums d = sums(dense);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) {
        d.force[3 * i + k] += plain[i].force[k];
        d.torque[3 * i + k] += plain[i].torque[k];
        d.drag_force[3 * i + k] += plain[i].drag_force[k];
        d.drag_torque[3 * i + k] += plain[i].drag_torque[k];
      }
    CHECK(sparse == dense);
    CHECK(drag_marks == marked);  // the bodies whose drag loads may be non-zero (DragMarks)
  };
  evaluate(true);
  evaluate(false);
  evaluate(true);
  evaluate(true);
}

TEST_CASE("bodies piled far past any contact are refused by the contact list, named") {
  // 50,000 spheres of settle at spacing 1e-12 listed 1.25e9 pairs: a minute and 10 GB, then out
  // of memory (and past 2^31 pairs the list's offsets would overflow). Both broad phases.
  for (const double big : {0.5, 50.0}) {  // equal spheres (cells), or one far larger (sweep)
    World world;
    for (int i = 0; i < 3000; ++i) {
      BodySpec b;
      b.radius = i == 0 ? big : 0.5;
      b.position = Vec3(1e-9 * i, 0, 0);
      world.add_body(b);
    }
    world.add_force(ForceRegistry::instance().make("hooke", ParamTable{}));
    Simulation sim(world, 1e-4);
    CHECK_THROWS_WITH_AS((void)sim.step(),
                         "contacts: more than 4000000 pairs of 3000 bodies within reach of each "
                         "other (1,000 a body, plus a million): the bodies overlap far beyond any "
                         "contact; spread them out",
                         InputError);
  }
  CHECK_THROWS_WITH_AS(build_scene("settle", {{"spacing", 1e-12}}),
                       "scene 'settle': parameter 'spacing' must be at least 0.5 diameters",
                       InputError);
}
