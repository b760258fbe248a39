// The free-sphere sweep (core/sphere_sweep.hpp) against the passes it stands for: state and
// ledger bit for bit, on scenes that take each of its paths.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "core/body_passes.hpp"
#include "core/contacts/neighbor_list.hpp"
#include "core/force_model.hpp"
#include "core/parallel.hpp"
#include "core/rotation/sphere_lanes.hpp"
#include "core/rotation_scheme.hpp"
#include "core/sphere_sweep.hpp"
#include "sweep_support.hpp"
#include "test_support.hpp"

using namespace stepwise;

namespace {

struct Case {
  std::string scene;
  std::map<std::string, ParamValue> params;
  long steps;
  double drag = 0;  // a linear drag added (it does not mark: every body's drag work booked)
  bool tilt = false;  // a second gravity, sideways, put before the scene's models
  bool twist = false;  // a torque on body 0 added by a model that does not mark it
};

// A torque on body 0, not marked (ForceModel::marks_torque false): no sphere may then be taken
// for one without a torque because no mark says otherwise.
class Twist final : public ForceModel {
 public:
  std::string kind() const override { return "twist"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<Twist>(*this); }
  void apply(const StateView&, ForceSums& out, const EvalContext&) override {
    out.torque.col(0) += Vec3(0.0, 0.0, 2e-9);
  }
  void save(ParamTable&) const override {}
};

// An opening sweep of the loads in force and torque (drag work unbooked), with `share`.
SphereSweep opening(double dt, Positions& force, Positions& torque, double* sums,
                    const SweepShare* share) {
  SphereSweep s;
  s.dt = dt;
  s.force = force.data();
  s.torque = &torque;
  s.losses = sums;
  s.open = true;
  s.share = share;
  return s;
}

}  // namespace

TEST_CASE("the free-sphere sweep gives the passes' state and ledger, bit for bit") {
  // Settle: contacts, walls, gravity and the contacts' drag work booked where marked, over two
  // ranges; a small settle with a second, sideways gravity before the scene's models (the sweep
  // adds the first one's loads, the second's pass adds after it); one with a torque on a grain
  // that its model does not mark (so no grain is left alone: Twist). Billiards: a linear drag
  // that does not mark (every body's drag work booked).
  // Spinning spheres: orientations turned, five bodies (a group of four and a tail), with such a
  // drag. Disks in the plane (2-D loads; a tail). Clumps and dice landing: no sphere, every body
  // through the rotation's own functions, with the contacts' drag work.
  const std::vector<Case> cases = {
      {"settle", {{"n", 3000.0}, {"nx", 15.0}, {"ny", 10.0}, {"nz", 20.0}}, 900},
      {"settle", {{"n", 48.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 3.0}}, 600, 0.0, true},
      {"settle", {{"n", 48.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 3.0}}, 600, 0.0, false, true},
      {"billiards", {}, 400},
      {"spinning-spheres", {}, 300, 0.5},
      {"disk-settle", {{"n", 61.0}}, 1000},
      {"clumps", {{"n", 30.0}}, 1000},
      {"dice", {{"n", 6.0}}, 1000}};
  test::InTurn in_turn;
  for (const Case& c : cases)
    for (const bool two_ranges : {false, true})
      for (const bool carried : {false, true}) {
        long fields = 0, watches = 0, unturned = 0, coasting = 0;  // (of the sweep's run)
        auto run = [&](bool sweep, long& swept) {
          SceneSetup setup = build_scene(c.scene, c.params);
          if (c.drag > 0) {
            ParamTable drag;
            drag.set("c", c.drag);
            setup.world.add_force(ForceRegistry::instance().make("linear-drag", drag));
          }
          if (c.tilt) {
            ParamTable g;
            g.set("g", std::vector<double>{0.3, 0.0, 0.0});
            setup.world.add_force(ForceRegistry::instance().make("gravity", g));
            auto& models = setup.world.forces;
            std::rotate(models.begin(), models.end() - 1, models.end());
          }
          if (c.twist) setup.world.add_force(std::make_unique<Twist>());
          Simulation sim(setup.world, setup.dt, "velocity-verlet", "buss2");
          if (two_ranges) sim.set_parallel(&in_turn);
          sim.set_fused(true, 64);  // many blocks per range
          sim.set_sphere_sweep(sweep);
          test::take_steps(sim, c.steps, carried);
          swept = sim.swept_steps();
          fields = sim.swept_fields();
          watches = sim.swept_watches();
          unturned = sim.sweep_counts().unturned;
          coasting = sim.sweep_counts().coasting;
          return test::run_end(sim);
        };
        long swept = 0, unswept = 0;
        const test::RunEnd passes = run(false, unswept);
        const test::RunEnd sweep = run(true, swept);
        INFO(c.scene << ", two ranges " << two_ranges << ", carried " << carried);
        CHECK(swept == c.steps);  // the sweep took every step
        CHECK(unswept == 0);
        // Gravity's loads where a gravity is the first model (only the first: with the tilt, the
        // scene's own still queues its pass); the list's displacements at every
        // step but those after a rebuild's flag (settle, disk-settle: their contacts' lists).
        const bool gravity_first = c.scene != "billiards";
        CHECK(fields == (gravity_first ? c.steps : 0));
        if (c.scene == "settle" || c.scene == "disk-settle") CHECK(watches > c.steps / 2);
        // Untouched spheres that do not spin left alone where every torque is marked: settle's
        // and disk-settle's grains while they fall (no drag but the contacts', no twist).
        const bool marked = (c.scene == "settle" || c.scene == "disk-settle") && !c.twist;
        CHECK((unturned > 0) == marked);
        // Bodies that spin without a torque only turned, and only where the closing and
        // opening halves run as one pass (carried): settle's grains once they have touched.
        if (!carried) CHECK(coasting == 0);
        if (marked && carried && c.scene == "settle") CHECK(coasting > 0);
        test::check_same(sweep, passes);
        if (c.scene == "settle" && c.steps == 900) CHECK(sweep.energy.contacts > 20);
        CHECK(sweep.energy.dissipated > 0);
      }
}

TEST_CASE("the free-sphere sweep steps aside where the passes do more") {
  // Driven ends (external work booked per body), local damping, and RK4 or Wang's leapfrog.
  struct Aside {
    std::string scene, integrator, rotation;
    std::map<std::string, ParamValue> params;
  };
  const std::vector<Aside> cases = {
      {"cube-chain", "velocity-verlet", "buss2", {{"rate", 0.5}}},
      {"cube-chain", "velocity-verlet", "buss2", {{"local_damping", 0.3}}},
      {"settle", "rk4", "buss2", {{"n", 48.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 3.0}}},
      {"settle",
       "velocity-verlet",
       "wang-leapfrog",
       {{"n", 48.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 3.0}}}};
  for (const Aside& c : cases) {
    SceneSetup setup = build_scene(c.scene, c.params);
    Simulation sim(setup.world, setup.dt, c.integrator, c.rotation);
    test::take_steps(sim, 20, true);
    INFO(c.scene << ", " << c.integrator << ", " << c.rotation);
    CHECK(sim.swept_steps() == 0);
  }
}

TEST_CASE(
    "the sweep's share: gravity's loads and potential, the list's displacements, bit for bit") {
  // 45 bodies: runs of 16 (two whole, one of 13), lane groups of four and a tail of one; body 5
  // has unequal moments, so its group goes through the rotation's own functions. Swept over two
  // blocks ([0, 32), [32, 45)) with gravity and the list's displacements handed to it, against
  // the sweep without them followed by gravity's pass and NeighborList::displacements2.
  World world;
  for (int i = 0; i < 45; ++i) {
    BodySpec b;
    b.radius = 0.5;
    b.mass = 0.5 + 0.01 * i;
    b.position = Vec3(1.2 * (i % 5), 1.3 * ((i / 5) % 3), 1.25 * (i / 15));
    b.velocity = Vec3(std::sin(i), std::cos(3.0 * i), 0.3 * std::sin(7.0 * i));
    if (i % 7 == 2) b.angular_velocity = Vec3(0.5, -0.2, 1.0 * i);
    if (i == 5) b.inertia = Vec3(0.01, 0.02, 0.03);
    if (i == 44) b.velocity = Vec3(3.0, -2.0, 4.0);  // the tail's the largest displacement
    world.add_body(b);
  }
  REQUIRE_FALSE(sphere_lanes::free_four(world, 4));
  REQUIRE(sphere_lanes::free_four(world, 0));
  NeighborList list(0.2);
  list.build(world.x, world.radius);
  const int n = world.size();
  const double dt = 0.01;
  Positions force = Positions::Constant(3, n, 0.3), torque = Positions::Constant(3, n, -0.1);
  std::unique_ptr<RotationScheme> rotation = RotationRegistry::instance().make("buss2");

  World shared_world = world;
  Positions shared_force = force, shared_torque = torque;
  std::array<double, kMaxTasks> potential{};
  std::vector<double> most2(3, -1.0);
  SweepShare share;
  share.field_taken = true;
  share.field = Vec3(0.1, -0.2, -1.0);
  share.potential = potential.data();
  share.reference = list.built_at().data();
  share.most2 = most2.data();
  share.run = 16;
  double sums[8 * kMaxTasks] = {};
  auto sweep = [&](World& w, Positions& f, Positions& t, const SweepShare* with) {
    const SphereSweep s = opening(dt, f, t, sums, with);
    sweep_spheres(w, *rotation, s, 0, 0, 32, nullptr);
    sweep_spheres(w, *rotation, s, 0, 32, n, nullptr);
  };
  sweep(shared_world, shared_force, shared_torque, &share);
  sweep(world, force, torque, nullptr);
  CHECK(shared_world.x == world.x);

  ParamTable g;
  g.set("g", std::vector<double>{0.1, -0.2, -1.0});
  std::unique_ptr<ForceModel> gravity = ForceRegistry::instance().make("gravity", g);
  ForceSums loads;
  loads.force = force;
  loads.torque = torque;
  const StateView view{world, world.x, world.v, world.w};
  BodyPasses passes;
  EvalContext ctx;
  gravity->prepare(view, loads, ctx, passes);
  passes.run(nullptr, n);
  ctx.prepared = true;
  gravity->apply(view, loads, ctx);
  CHECK(shared_force == loads.force);
  CHECK(shared_torque == loads.torque);
  CHECK(potential[0] == loads.potential);
  CHECK(loads.potential != 0);

  std::vector<double> expected(3, -1.0);
  list.displacements2(world.x, 0, n, 16, expected.data());
  CHECK(most2 == expected);
  CHECK(expected[2] > 0);
}

TEST_CASE("the sweep leaves alone only spheres that neither spin nor have a torque") {
  // Six groups of four free spheres, closed and opened in one call: groups 0, 4 and 5 still and
  // unmarked (left alone); group 1 still but body 5 marked, with a torque; group 2 with body 9
  // spinning; group 3 with body 14's L and w a -0 (the halves make them +0). With the marks
  // covering the torques, against the same without them: bit for bit, three groups left alone.
  World world =
      test::row_of_spheres(24, [](int i) { return i == 9 ? Vec3(0.0, 0.7, 0.0) : Vec3::Zero(); });
  world.L(0, 14) = world.w(0, 14) = -0.0;
  const int n = world.size();
  std::vector<std::uint8_t> marks(n, 0);
  marks[5] = 1;
  Positions force = Positions::Constant(3, n, 0.25), torque = Positions::Zero(3, n);
  torque.col(5) = Vec3(0.3, -0.2, 0.1);
  const Positions drag = Positions::Zero(3, n);
  std::unique_ptr<RotationScheme> rotation = RotationRegistry::instance().make("buss2");
  struct Swept {
    World world;
    Positions force, torque;
    SweepCounts counts[kMaxTasks] = {};
  };
  auto sweep = [&](bool torque_marked, const Positions& torques) {
    Swept out{world, force, torques};
    double sums[8 * kMaxTasks] = {};
    SphereSweep s = test::marked_sweep(out.force, out.torque, drag, marks, sums, out.counts);
    s.torque_marked = torque_marked;
    s.close = true;
    bool finite = true;
    sweep_spheres(out.world, *rotation, s, 0, 0, n, &finite);
    CHECK(finite);
    return out;
  };
  const Swept marked = sweep(true, torque), unmarked = sweep(false, torque);
  CHECK(marked.counts[0].unturned == 3);
  CHECK(unmarked.counts[0].unturned == 0);
  test::check_same_sweep(marked.world, marked.force, marked.torque, unmarked.world, unmarked.force,
                         unmarked.torque);
  CHECK_FALSE(std::signbit(marked.world.L(0, 14)));  // -0 + h/2 (+0): the halves ran
  CHECK(marked.world.L.col(5) != Vec3::Zero());
  CHECK(marked.world.q[9].coeffs() != world.q[9].coeffs());

  // What the marks promise is taken on trust: a torque on an unmarked sphere of group 0 is then
  // neither read nor cleared.
  Positions untrue = torque;
  untrue.col(1) = Vec3(0.0, 0.0, 1.0);
  const Swept trusted = sweep(true, untrue);
  CHECK(trusted.world.L.col(1) == Vec3::Zero());
  CHECK(trusted.torque.col(1) == Vec3(0.0, 0.0, 1.0));
  CHECK(sweep(false, untrue).world.L.col(1) != Vec3::Zero());
}

TEST_CASE("the sweep only turns spheres that spin without a torque, as the halves would") {
  // Four groups of four free spheres, each spinning but group 3: group 0 unmarked (only
  // turned), group 1 unmarked with a -0 in body 5's L (the halves make it +0), group 2 with body
  // 9 marked and under a torque, group 3 still (left alone). An opening first stores each w as
  // spread(1/I) L; then closing and opening in one call with still_known, against the same
  // without it: bit for bit, one group only turned.
  World world = test::row_of_spheres(
      16, [](int i) { return i < 12 ? Vec3(0.3 * i, -0.7, 0.1 + 0.05 * i) : Vec3::Zero(); });
  const int n = world.size();
  std::vector<std::uint8_t> marks(n, 0);
  marks[9] = 1;
  const Positions drag = Positions::Zero(3, n);
  std::unique_ptr<RotationScheme> rotation = RotationRegistry::instance().make("buss2");
  Positions force = Positions::Constant(3, n, 0.25), torque = Positions::Zero(3, n);
  auto sweep = [&](World& w, Positions& f, Positions& t, bool close, bool kept) {
    double sums[8 * kMaxTasks] = {};
    SweepCounts counts[kMaxTasks] = {};
    SphereSweep s = test::marked_sweep(f, t, drag, marks, sums, counts);
    s.still_known = kept;  // (closing and opening: w as the opening stored it; no array kept)
    s.close = close;
    bool finite = true;
    sweep_spheres(w, *rotation, s, 0, 0, n, &finite);
    CHECK(finite);
    return counts[0];
  };
  sweep(world, force, torque, false, false);  // (w now as the opening stores it)
  world.L(1, 5) = world.w(1, 5) = -0.0;
  force.setConstant(0.25);
  torque.col(9) = Vec3(0.3, -0.2, 0.1);
  World kept = world;
  Positions kept_force = force, kept_torque = torque;
  const SweepCounts coasting = sweep(kept, kept_force, kept_torque, true, true);
  const SweepCounts halves = sweep(world, force, torque, true, false);
  CHECK(coasting.coasting == 1);
  CHECK(coasting.unturned == 1);
  CHECK(halves.coasting == 0);
  test::check_same_sweep(kept, kept_force, kept_torque, world, force, torque);
  CHECK_FALSE(std::signbit(kept.L(1, 5)));  // the halves ran on group 1
  CHECK(kept.q[2].coeffs() != Quat::Identity().coeffs());
}

TEST_CASE("the sweep finds its still groups and distances again after anything else moves") {
  // Settle's grains falling are still (left alone, their spins not read: SphereSweep::still)
  // and their neighbour list's displacements bounded (SweepShare::bound). Between calls an edit
  // spins grain 5, steps taken without the sweep let the first contacts spin grains, an edit
  // puts grain 7 just touching the highest grain (not in its list: the list must be built
  // again), and an edit reverses every motion (L a -0: the halves must run again). Each must be
  // seen by the next sweep: bit for bit the passes' run throughout.
  // (The displacements bounded at any size; with free flight too, which moves bodies unseen.)
  for (const bool carried : {false, true})
    for (const bool flights : {false, true}) {
      long unturned = 0, flown = 0;
      auto run = [&](bool sweep) {
        SceneSetup setup =
            build_scene("settle", {{"n", 48.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 3.0}});
        test::set_model_text(setup.world, "hooke", "displacements", "bounded");
        Simulation sim(setup.world, setup.dt, "velocity-verlet", "buss2");
        sim.set_free_flight(flights);
        sim.set_sphere_sweep(sweep);
        test::take_steps(sim, 150, carried);
        sim.edit([](World& w) { w.set_angular_velocity(5, Vec3(0.0, 0.3, 0.0)); });
        test::take_steps(sim, 100, carried);
        sim.set_sphere_sweep(false);
        test::take_steps(sim, 300, carried);
        sim.set_sphere_sweep(sweep);
        test::take_steps(sim, 200, carried);
        sim.edit([](World& w) {
          int top = 0;
          for (int i = 0; i < w.size(); ++i) top = w.x(2, i) > w.x(2, top) ? i : top;
          w.x.col(7) = w.x.col(top) + Vec3(0.0, 0.0, 0.98);
          w.v.col(7) = w.v.col(top);
        });
        test::take_steps(sim, 100, carried);
        sim.edit([](World& w) {
          w.v = -w.v;
          w.L = -w.L;
          w.sync_all_angular_velocities();
        });
        test::take_steps(sim, 200, carried);
        unturned = sim.sweep_counts().unturned;
        flown = sim.flown_steps();
        return test::run_end(sim);
      };
      const test::RunEnd passes = run(false);
      const test::RunEnd sweep = run(true);
      INFO("carried " << carried << ", flights " << flights);
      CHECK(unturned > 0);
      CHECK((flown > 0) == (flights && carried));  // (a flight only within advance())
      test::check_same(sweep, passes);
      CHECK(sweep.energy.contacts > 0);
    }
}

TEST_CASE("the sweep's displacement bounds never fall below the distance, measured at the limit") {
  // Two runs of 16 spheres and a tail of 5, each a little off its reference place (the most in
  // run 0 at body 14, in the last four), drifting one step. Where the bounds stay below the
  // limits, each run's written square is at least its largest squared distance and the bound
  // grew by dt |v| (and a rounding); at a limit of 0, each run is measured, bit
  // for bit the distances, and its bound starts again from there.
  World world;
  std::vector<double> reference;
  for (int i = 0; i < 37; ++i) {
    BodySpec b;
    b.radius = 0.5;
    b.position = Vec3(1.5 * i, 0.1 * (i % 3), 2.0);
    b.velocity = Vec3(0.2, -0.1 * (i % 5), 0.05 * i);
    world.add_body(b);
    const double off = i == 14 ? 0.03 : 0.001 * (i % 7);
    reference.insert(reference.end(), {b.position.x() - off, b.position.y(), b.position.z() + off});
  }
  const int n = world.size(), runs = 3;
  std::unique_ptr<RotationScheme> rotation = RotationRegistry::instance().make("buss2");
  const double dt = 0.01;
  struct Out {
    World world;
    std::array<double, 3> most2{}, bound{};
  };
  auto sweep = [&](double limit) {
    Out out{world};
    Positions force = Positions::Zero(3, n), torque = Positions::Zero(3, n);
    double sums[8 * kMaxTasks] = {};
    std::array<double, 3> limits;
    limits.fill(limit);
    out.bound = {0.05, 0.05, 0.05};  // (each at least its run's distance now)
    SweepShare share;
    share.reference = reference.data();
    share.most2 = out.most2.data();
    share.run = 16;
    share.bound = out.bound.data();
    share.bound_known = true;
    share.limit = limits.data();
    share.cap = 1.0;
    share.rounding = 1e-15 * (1 + 60.0);
    sweep_spheres(out.world, *rotation, opening(dt, force, torque, sums, &share), 0, 0, n, nullptr);
    return out;
  };
  std::array<double, 3> exact{}, fastest{};
  const Out moved = sweep(0.0);
  for (int i = 0; i < n; ++i) {
    const Vec3 then(reference[3 * i], reference[3 * i + 1], reference[3 * i + 2]);
    exact[i / 16] = std::max(exact[i / 16], (moved.world.x.col(i) - then).squaredNorm());
    fastest[i / 16] = std::max(fastest[i / 16], world.v.col(i).norm());
  }
  CHECK(exact[0] > 0.03 * 0.03);  // (body 14's)
  for (int r = 0; r < runs; ++r) {
    CHECK(moved.most2[r] == exact[r]);
    CHECK(moved.bound[r] >= std::sqrt(exact[r]));
    CHECK(moved.bound[r] <= std::sqrt(exact[r]) * (1 + 1e-11));
  }
  const Out bounded = sweep(1.0);
  CHECK(test::same_bits(bounded.world.x, moved.world.x));
  for (int r = 0; r < runs; ++r) {
    CHECK(bounded.most2[r] >= exact[r]);
    CHECK(bounded.most2[r] >= bounded.bound[r] * bounded.bound[r]);
    CHECK(bounded.bound[r] >= 0.05 + dt * fastest[r]);
    CHECK(bounded.bound[r] <= 0.05 + dt * fastest[r] + 1e-12);
  }
}
