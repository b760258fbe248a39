// What the window's controls ask of the runtime: a worker on two threads, options and
// parameters through save, history, fork and Reset, the gauges, tables and charts it reads, and
// materials and contact treatment changed live. Built under TSan in CI (runtime_tests).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "core/bonds/bond_common.hpp"
#include "io/lesson.hpp"
#include "io/scene_file.hpp"
#include "runtime/comparison_runs.hpp"
#include "runtime/history_ring.hpp"
#include "runtime/lesson_player.hpp"
#include "runtime/physics_worker.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime_support.hpp"
#include "test_support.hpp"

using namespace stepwise;
using test::wait_for;
namespace {
// The settle scene on an nx x ny x nz lattice.
Simulation settle_simulation(int nx, int ny, int nz) {
  return make_simulation(load_scene("settle", {{"n", ParamValue(double(nx * ny * nz))},
                                               {"nx", ParamValue(double(nx))},
                                               {"ny", ParamValue(double(ny))},
                                               {"nz", ParamValue(double(nz))}}));
}
}  // namespace

TEST_CASE(
    "the contact loop on two threads: bit-identical run to run, and the same physics as one") {
  auto run = [](int threads) {
    ThreadPool pool(threads);
    Simulation sim = settle_simulation(10, 10, 10);
    if (threads > 1) sim.set_parallel(&pool);
    REQUIRE_FALSE(sim.advance(1500));  // long enough for a pile of contacts
    return std::pair<Positions, EnergyReport>(sim.world().x, sim.energy());
  };
  const auto [x2a, e2a] = run(2);
  const auto [x2b, e2b] = run(2);
  const auto [x1, e1] = run(1);
  CHECK(x2a == x2b);  // deterministic for a thread count
  CHECK(e2a.total == e2b.total);
  CHECK(e2a.contacts > 100);
  CHECK(e2a.contacts == e1.contacts);
  // Only the order of additions differs from one thread: the runs agree to round-off growth.
  CHECK((x2a - x1).cwiseAbs().maxCoeff() < 1e-6);
  CHECK(std::abs(e2a.energy_error - e1.energy_error) < 1e-6);
}

TEST_CASE("the thread pool runs every task once, and a thread held up has its share taken over") {
  // Every task exactly once, run after run, for 2 to 4 threads and 1 to 64 tasks.
  for (int threads : {2, 3, 4}) {
    ThreadPool pool(threads);
    for (int round = 0; round < 200; ++round) {
      const int tasks = 1 + (round * 7) % 64;
      std::vector<std::atomic<int>> ran(64);
      pool.run(tasks, [&](int t) { ran[t].fetch_add(1); });
      for (int t = 0; t < 64; ++t) REQUIRE(ran[t].load() == (t < tasks ? 1 : 0));
    }
  }
  // Two threads, four tasks: the worker owns 1 and 3; whichever thread takes task 1 is held there
  // (as a thread is when its core is lent to another process), and the calling thread, after its
  // own 0 and 2, takes over the worker's 1 or 3 instead of waiting. Each task's result is its
  // own, whoever runs it.
  ThreadPool pool(2);
  std::vector<double> result(4, 0.0);
  pool.run(4, [&](int t) {
    if (t == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    result[t] = 1.5 * t;
  });
  CHECK(pool.taken_over(0) >= 1);
  CHECK(result == std::vector<double>{0.0, 1.5, 3.0, 4.5});
  // A task that throws, on either thread: run() raises it once every task has finished, and the
  // pool goes on.
  for (int thrower : {0, 1}) {
    std::vector<std::atomic<int>> ran(4);
    CHECK_THROWS_WITH_AS(pool.run(4,
                                  [&](int t) {
                                    if (t == thrower) throw InputError("task failed");
                                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                                    ran[t].fetch_add(1);
                                  }),
                         "task failed", InputError);
    for (int t = 0; t < 4; ++t) CHECK(ran[t].load() == (t == thrower ? 0 : 1));
  }
  int after = 0;
  pool.run(2, [&](int t) {
    if (t == 0) after = 1;
  });
  CHECK(after == 1);
}

TEST_CASE("a run copied on two threads (history, forks) continues bit for bit") {
  // The copy keeps the contacts' neighbour list: its split of the pairs among the threads, drawn
  // from the list, is the original's, so the sums are grouped alike.
  ThreadPool pool(2);
  Simulation sim = settle_simulation(15, 10, 20);
  sim.set_parallel(&pool);
  REQUIRE_FALSE(sim.advance(4000));  // a pile of contacts, the list rebuilt many times
  std::unique_ptr<Simulation> copy = Simulation::make_run(sim.copy());
  copy->set_parallel(&pool);
  REQUIRE_FALSE(sim.advance(1500));
  REQUIRE_FALSE(copy->advance(1500));
  INFO("contacts " << sim.energy().contacts);
  CHECK(sim.energy().contacts > 1000);
  CHECK(copy->world().x == sim.world().x);
  CHECK(copy->world().w == sim.world().w);
  CHECK(copy->energy().total == sim.energy().total);
}

TEST_CASE("the narrow phase of boxes on two threads: the same run as on one, bit for bit") {
  // 200 dice: the sphere passes stay on one thread below their thresholds, the shape pairs (over
  // 256 with the walls) are split in two tasks; points are taken in pair order either way.
  auto run = [](int threads) {
    ThreadPool pool(threads);
    Simulation sim = make_simulation(load_scene("dice", {{"n", ParamValue(200.0)}}));
    if (threads > 1) sim.set_parallel(&pool);
    REQUIRE_FALSE(sim.advance(8000));  // the dice have landed: box-box and box-wall points
    return std::tuple(sim.world().x, sim.world().w, sim.energy());
  };
  const auto [x2, w2, e2] = run(2);
  const auto [x1, w1, e1] = run(1);
  CHECK(e2.contacts > 100);  // points, walls included
  CHECK(e2.contacts - e2.wall_contacts > 30);
  CHECK(x2 == x1);
  CHECK(w2 == w1);
  CHECK(e2.total == e1.total);
  CHECK(e2.dissipated == e1.dissipated);
}

TEST_CASE("a worker on two threads steps as a two-thread run does, bit for bit") {
  PhysicsWorker worker;
  CHECK_THROWS_AS(worker.set_threads(0), InputError);
  worker.set_threads(2);
  worker.start();
  CHECK_THROWS_AS(worker.set_threads(2), std::logic_error);  // the pool is the worker's now
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"settle",
                             {{"n", ParamValue(1000.0)},
                              {"nx", ParamValue(10.0)},
                              {"ny", ParamValue(10.0)},
                              {"nz", ParamValue(10.0)}}});
  worker.send(cmd::StepOnce{1500});  // long enough for a pile of contacts
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.step == 1500; });
  auto direct = [](int threads) {
    ThreadPool pool(threads);
    Simulation sim = settle_simulation(10, 10, 10);
    if (threads > 1) sim.set_parallel(&pool);
    REQUIRE_FALSE(sim.advance(1500));
    return sim.energy().total;
  };
  CHECK(s.energy.total == direct(2));  // doubles, bit for bit
  CHECK(s.threads == 2);
  CHECK(s.energy.contacts > 100);
  worker.stop();
}

TEST_CASE("a scene the window has read already is taken as read, not read again") {
  // The window checks its command line's scene before it opens and hands the worker what it
  // read (cmd::LoadScene::read): the worker runs that, under the source's name, and a Reset
  // reads the source itself.
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  auto read = std::make_shared<RunSpec>(load_scene("settle", {{"n", ParamValue(27.0)},
                                                              {"nx", ParamValue(3.0)},
                                                              {"ny", ParamValue(3.0)},
                                                              {"nz", ParamValue(3.0)}}));
  read->label = "read once";
  worker.send(cmd::LoadScene{"kepler", {}, read});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.label == "read once"; });
  CHECK(s.bodies == 27);
  CHECK(s.source == "kepler");
  CHECK(read->setup.world.size() == 0);  // (moved into the run, not copied)
  worker.send(cmd::Reset{true});
  const Snapshot& reset =
      wait_for(worker, [](const Snapshot& s) { return s.label != "read once"; });
  CHECK(reset.bodies == 1);  // (kepler: one body about a fixed centre)
  worker.stop();
}

TEST_CASE(
    "a step fused block by block, evaluating in place, carried into the next, equals its passes "
    "run one after another into a second set of load arrays, on 1 and 2 threads") {
  // Settle (contacts, walls, gravity, Verlet and Buss2: every fused pass) and a ledger with a
  // drag-tracked dissipation; with n = 3000 and blocks of 256 bodies each thread's range spans
  // several blocks (the default block is larger than the scene). Carried:
  // advance runs each step's closing passes with the next step's opening ones.
  struct Mode {
    bool fused, in_place, carried;
  };
  for (int threads : {1, 2}) {
    auto run = [threads](Mode mode) {
      ThreadPool pool(threads);
      Simulation sim = settle_simulation(15, 10, 20);
      if (threads > 1) sim.set_parallel(&pool);
      sim.set_fused(mode.fused, 256);
      sim.set_in_place(mode.in_place);
      test::take_steps(sim, 1200, mode.carried);
      return test::run_end(sim);
    };
    const test::RunEnd a = run({true, true, true});
    for (const Mode other : {Mode{false, false, false}, Mode{true, false, true},
                             Mode{true, true, false}}) {
      const test::RunEnd b = run(other);
      INFO(threads << " thread(s), fused " << other.fused << ", in place " << other.in_place
                   << ", carried " << other.carried);
      CHECK(a.energy.contacts > 100);
      test::check_same(a, b);
    }
  }
}

TEST_CASE("a lesson step that fails as it plays names its file and line") {
  const std::string text =
      "[lesson]\nscene = \"kepler\"\n\n[[step]]\nat = 0\nset = { \"central.GX\" = 1 }\n\n"
      "[[step]]\nat = 0\nset = { \"central.GM\" = -1 }\n";
  const std::pair<int, const char*> cases[] = {
      {0, "class.toml:4 [[step]]: force model 'central' has no live parameter 'GX'"},
      {1, "class.toml:8 [[step]]: central.GM: must be from 1e-12"}};
  for (const auto& [step, expected] : cases) {
    Lesson lesson = parse_lesson(text, "class.toml");
    lesson.steps = {lesson.steps[step]};  // each failing step alone
    LessonPlayer player(lesson);
    std::unique_ptr<Simulation> sim = player.start();
    CHECK_THROWS_WITH_AS(player.apply_due(sim), doctest::Contains(expected), InputError);
  }
}

namespace {

// Every option of a method moved off its default, as a user would set it.
ParamTable changed_options(const Integrator& integrator) {
  ParamTable set;
  for (const Tunable& t : integrator.options())
    set.set(t.name, t.value > 0 ? t.value * 1.25 : 0.125);
  ParamTable all;
  integrator.save_options(all);
  if (all.has("base")) set.set("base", std::string("midpoint"));
  return set;
}

std::string options_of(const Simulation& sim) {
  ParamTable t;
  const_cast<Simulation&>(sim).integrator().save_options(t);
  std::string out;
  for (const auto& [name, value] : t.values()) out += name + "=" + format_param_value(value) + " ";
  return out;
}

bool same_positions(Simulation& a, Simulation& b, long steps) {
  REQUIRE_FALSE(a.advance(steps));
  REQUIRE_FALSE(b.advance(steps));
  return a.world().x == b.world().x && a.world().v == b.world().v;
}

}  // namespace

TEST_CASE("every integrator's options survive a save and load, a history restore and a fork") {
  for (const std::string& name : IntegratorRegistry::instance().names()) {
    CAPTURE(name);
    Simulation sim = make_simulation(load_scene("kepler", {}));
    sim.set_integrator(name);
    const ParamTable options = changed_options(sim.integrator());
    for (const auto& [option, value] : options.values()) sim.integrator().set_option(option, value);
    HistoryRing history;
    history.reset(sim.world().size());
    REQUIRE_FALSE(sim.advance(50));
    history.record_if_due(sim);  // step 50: a checkpoint is due
    REQUIRE(history.size() == 1);
    const std::string expected = options_of(sim);

    // A saved scene file, read back: the options, and the same future bit for bit.
    Simulation reloaded =
        make_simulation(parse_scene_toml(scene_to_toml(sim, "kepler"), "x.toml", {}));
    CHECK(options_of(reloaded) == expected);
    // A history checkpoint, restored.
    const auto restored = history.restore(0);
    CHECK(options_of(*restored) == expected);
    // Comparison forks: the same method at the same dt, and at half the dt.
    ComparisonRuns runs;
    runs.add(sim, name, sim.rotation_name(), 0);
    runs.add(sim, name, sim.rotation_name(), sim.dt() / 2);
    CHECK(options_of(runs.run(0)) == expected);
    CHECK(options_of(runs.run(1)) == expected);
    Simulation fork_twin =
        make_simulation(parse_scene_toml(scene_to_toml(sim, "kepler"), "x.toml", {}));
    CHECK(same_positions(sim, reloaded, 200));
    CHECK(same_positions(*restored, fork_twin, 200));
  }
}

TEST_CASE("Reset keeps the user's integrator, dt, options and parameters; Defaults does not") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::LoadScene{"active-brownian", {}});
  worker.send(cmd::SetRunning{false});
  const Snapshot loaded =
      wait_for(worker, [](const Snapshot& s) { return s.scene_generation > 0 && !s.running; });
  const double scene_dt = loaded.dt;
  REQUIRE(loaded.integrator == "baoab");
  worker.send(cmd::SetIntegrator{"rk4"});
  worker.send(cmd::SetRotation{"rk4"});
  worker.send(cmd::SetDt{scene_dt / 2});
  worker.send(cmd::SetIntegrator{"baoab"});
  worker.send(cmd::SetIntegratorOption{"temperature", 0.75});
  worker.send(cmd::StepOnce{20});
  const Snapshot changed =
      wait_for(worker, [&](const Snapshot& s) { return s.step == loaded.step + 20; });
  REQUIRE(changed.models.size() > 0);
  int model = -1;
  std::string tunable;
  double value = 0;
  for (size_t m = 0; m < changed.models.size() && model < 0; ++m)
    if (!changed.models[m].tunables.empty()) {
      model = int(m);
      tunable = changed.models[m].tunables[0].name;
      value = changed.models[m].tunables[0].value * 1.5 + 0.1;
    }
  REQUIRE(model >= 0);
  worker.send(cmd::SetTunable{model, tunable, value});
  const std::uint64_t generation = changed.scene_generation;
  worker.send(cmd::Reset{});
  const Snapshot reset = wait_for(
      worker, [&](const Snapshot& s) { return s.scene_generation > generation && s.step == 0; });
  CHECK(reset.integrator == "baoab");
  CHECK(reset.rotation == "rk4");
  CHECK(reset.dt == scene_dt / 2);
  double temperature = -1;
  for (const Tunable& o : reset.integrator_options)
    if (o.name == "temperature") temperature = o.value;
  CHECK(temperature == 0.75);
  CHECK(reset.models[model].tunables[0].value == value);
  worker.send(cmd::Reset{true});
  const Snapshot& defaults = wait_for(
      worker, [&](const Snapshot& s) { return s.scene_generation > reset.scene_generation; });
  CHECK(defaults.dt == scene_dt);
  CHECK(defaults.rotation == loaded.rotation);
  CHECK(defaults.models[model].tunables[0].value != value);
  worker.stop();
}

TEST_CASE("a run whose energy blows up pauses and names the step and body; the gauge saw it") {
  PhysicsWorker worker;
  worker.start();
  // The oscillator's spring turned up to k = 1e12 in the Parameters panel, dt kept: omega dt =
  // 1e4, far above Verlet's limit of 2.
  worker.send(cmd::LoadScene{"oscillator", {}});
  worker.send(cmd::SetRunning{false});
  const Snapshot loaded =
      wait_for(worker, [](const Snapshot& s) { return s.scene_generation > 0 && !s.running; });
  int spring = -1;
  for (size_t m = 0; m < loaded.models.size(); ++m)
    for (const Tunable& t : loaded.models[m].tunables)
      if (t.name == "k") spring = int(m);
  REQUIRE(spring >= 0);
  worker.send(cmd::SetTunable{spring, "k", 1e12});
  worker.send(cmd::SetPacing{Pacing::Fastest, 1});
  worker.send(cmd::SetRunning{true});
  const Snapshot paused =
      wait_for(worker, [](const Snapshot& s) { return !s.running && !s.error.empty(); });
  CHECK(paused.error.find("energy blow-up at step ") == 0);
  CHECK(paused.error_body == 0);
  CHECK(paused.error_step > 0);
  CHECK(paused.error_step < loaded.step + 100);  // at once, not at 5e26
  CHECK(std::abs(paused.energy.energy_error) > 1e3);
  CHECK(std::isfinite(paused.energy.energy_error));
  CHECK(paused.omega_worst * paused.dt > paused.stability_limit);
  CHECK(paused.stability_limit == 2);
  // Run again: it goes on (the user may want to watch it diverge), without pausing at every
  // step, until the state is non-finite (energy grows ~1e8 times a step).
  worker.send(cmd::SetRunning{true});
  const long at = paused.step;
  const Snapshot on = wait_for(worker, [&](const Snapshot& s) { return s.step > at + 3; });
  CHECK(on.error.find("energy blow-up") == std::string::npos);
  worker.stop();
}

TEST_CASE("the stability gauge keeps the worst omega over recent steps, not the instant") {
  PhysicsWorker worker;
  worker.start();
  // An eccentric Kepler orbit: omega peaks at pericentre and is small out at apocentre.
  worker.send(cmd::LoadScene{"kepler", {{"e", ParamValue(0.9)}}});
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::SetDt{0.05});
  double worst = 0;
  bool saw_calm_after_peak = false;
  for (int k = 0; k < 200 && !saw_calm_after_peak; ++k) {
    worker.send(cmd::StepOnce{5});
    const Snapshot s = wait_for(worker, [&](const Snapshot& x) { return x.step >= 5 * (k + 1); });
    CHECK(s.omega_worst >= s.omega_now);
    CHECK(s.omega_worst >= worst);  // within 1000 steps nothing is forgotten
    worst = std::max(worst, s.omega_now);
    // Out at apocentre: the gauge still reads the pericentre's frequency (sampled every step).
    if (s.omega_worst > 10 * s.omega_now) saw_calm_after_peak = true;
  }
  CHECK(saw_calm_after_peak);
  worker.stop();
}

TEST_CASE("the Bonds table's numbers are the bonds' own reports") {
  Simulation sim = make_simulation(
      load_scene("cube-chain", {{"loading", ParamValue(std::string("bend-twist"))}}));
  REQUIRE_FALSE(sim.advance(300));
  Snapshot s;
  fill_snapshot(sim, s);
  const std::vector<BondReport> reports = bond_reports(sim.world());
  REQUIRE(s.bonds.size() == reports.size());
  REQUIRE(reports.size() == 6);
  for (size_t k = 0; k < reports.size(); ++k) {
    CAPTURE(k);
    CHECK(s.bonds[k].i == reports[k].i);
    CHECK(s.bonds[k].twist == float(reports[k].twist));
    CHECK(s.bonds[k].bend == float(reports[k].bend));
    CHECK(s.bonds[k].stretch == float(reports[k].stretch));
    CHECK(s.bonds[k].plane == float(reports[k].plane));
    CHECK(s.bonds[k].twist_torque == float(reports[k].twist_torque));
    CHECK(s.bonds[k].bend_torque == float(reports[k].bend_torque));
    CHECK(s.bonds[k].shear_force == float(reports[k].shear_force));
    CHECK(s.bonds[k].normal_force == float(reports[k].normal_force));
  }
  CHECK(std::abs(s.bonds[0].twist) > 0);  // the loading does twist them
  CHECK(std::abs(s.bonds[0].bend_torque) > 0);
}

TEST_CASE("the stability chart's curves are computed by the runtime's jobs, once per method") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::LoadScene{"oscillator", {}});
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::RunStability{"rk4"});
  worker.send(cmd::RunStability{"rk4"});  // asked twice (a frame before the snapshot says so)
  worker.send(cmd::RunStability{"euler"});
  const Snapshot s = wait_for(worker, [](const Snapshot& x) {
    return x.stability.growth.count("rk4") && x.stability.growth.count("euler");
  });
  CHECK(s.stability.computing.empty());
  const std::vector<double>& h = s.stability.omega_dt;
  const std::vector<double>& rk4 = s.stability.growth.at("rk4");
  REQUIRE(rk4.size() == h.size());
  for (size_t k = 0; k < h.size(); ++k) {
    CAPTURE(h[k]);
    if (h[k] < 2.7) CHECK(rk4[k] <= 1 + 1e-9);  // inside RK4's limit 2 sqrt 2
    if (h[k] > 2.95) CHECK(rk4[k] > 1.01);
    CHECK(s.stability.growth.at("euler")[k] > 1);  // Euler grows everywhere
  }
  worker.send(cmd::RunStability{"warp"});
  const Snapshot bad = wait_for(worker, [](const Snapshot& x) { return !x.error.empty(); });
  CHECK(bad.error.find("unknown integrator 'warp'") != std::string::npos);
  worker.stop();
}

TEST_CASE("a material is tuned live: its pairs change at once, bad edits are refused") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"two-materials", {{"n", ParamValue(8.0)}}});
  worker.send(cmd::StepOnce{40000});  // 0.76 s: fallen, bounced, at rest
  const Snapshot& loaded = wait_for(worker, [](const Snapshot& s) { return s.step == 40000; });
  REQUIRE(loaded.materials.size() == 2);
  CHECK(loaded.materials[1].kind == "steel");
  auto value = [](const Snapshot& s, int m, const std::string& key) {
    for (const Tunable& t : s.materials[m].tunables)
      if (t.name == key) return t.value;
    return -1.0;
  };
  CHECK(value(loaded, 1, "E") == 2e8);
  CHECK(loaded.energy.contacts > 0);  // resting on the plate and each other
  // Stiffer steel: at the same overlap the pressed contacts store more energy, booked as work.
  worker.send(cmd::SetMaterial{2, "E", 4e8});
  worker.send(cmd::StepOnce{10});
  const Snapshot& stiffer = wait_for(worker, [](const Snapshot& s) { return s.step == 40010; });
  CHECK(stiffer.energy.external_work > 1e-9);
  CHECK(std::abs(stiffer.energy.energy_error) < 1e-3);
  worker.send(cmd::SetMaterial{2, "density", 1.0});  // made the masses: not live
  const Snapshot& refused = wait_for(worker, [](const Snapshot& s) { return !s.error.empty(); });
  CHECK(refused.error.find("'density' cannot be changed live") != std::string::npos);
  worker.send(cmd::SetMaterial{1, "nu", 0.7});
  const Snapshot& range = wait_for(worker, [](const Snapshot& s) {
    return s.error.find("nu: must be from -0.99 to 0.49") != std::string::npos;
  });
  CHECK(value(range, 1, "E") == 4e8);
  CHECK(value(range, 0, "nu") == 0.25);
  worker.send(cmd::SetMaterial{3, "E", 1e8});
  wait_for(worker,
           [](const Snapshot& s) { return s.error.find("no material #3") != std::string::npos; });
  // Kept by Reset, as the models' live parameters are; gone with the scene's defaults.
  const std::uint64_t generation = range.scene_generation;
  worker.send(cmd::Reset{});
  const Snapshot& reset =
      wait_for(worker, [&](const Snapshot& s) { return s.scene_generation > generation; });
  CHECK(value(reset, 1, "E") == 4e8);
  worker.send(cmd::Reset{true});
  const Snapshot& defaults =
      wait_for(worker, [&](const Snapshot& s) { return s.scene_generation > generation + 1; });
  CHECK(value(defaults, 1, "E") == 2e8);
}

TEST_CASE(
    "contact treatment in the window: switched live, and penalty beside impulse in lockstep") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"box-stack", {{"n", 3.0}}});
  worker.send(cmd::StepOnce{50});
  // A comparison run of the same state under rigid contact, then the main run switched too.
  worker.send(cmd::AddVariant{"contact", std::string("impulse")});
  worker.send(cmd::StepOnce{50});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.step == 100; });
  REQUIRE(s.comparisons.size() == 1);
  CHECK(s.contact.mode_name() == "penalty");
  CHECK(s.comparisons[0].contact.mode_name() == "impulse");
  CHECK(s.comparisons[0].time == s.time);
  CHECK(s.comparisons[0].run_label.rfind("contact = impulse: ", 0) == 0);
  worker.send(cmd::SetContact{"impulse", 0.2, 50});
  worker.send(cmd::SetSnapshotDetail{true, 0});  // the force network, the bottom box inspected
  worker.send(cmd::StepOnce{300});
  const Snapshot& rigid = wait_for(worker, [](const Snapshot& s) { return s.step == 400; });
  CHECK(rigid.contact.impulse());
  // The impulse solver's contacts reach the force network and the Inspector: the bottom box
  // on the floor (four corners) and under the next (four more).
  CHECK(rigid.contacts.size() == 2);
  CHECK(rigid.inspected_contacts.size() == 8);
  CHECK(rigid.contact.restitution == 0.2);
  CHECK(rigid.impulse.contacts > 0);
  CHECK(rigid.impulses_in_drift);  // the stack steps with velocity Verlet
  // Out of range: refused, named, nothing changed.
  worker.send(cmd::SetContact{"impulse", 1.5, 50});
  const Snapshot& refused = wait_for(worker, [](const Snapshot& s) { return !s.error.empty(); });
  CHECK(refused.error.find("restitution") != std::string::npos);
  CHECK(refused.contact.restitution == 0.2);
  CHECK(refused.lists_contacts);
}

TEST_CASE("contact treatment in the window: a scene with no contact model is not switched") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"kepler", {}});
  worker.send(cmd::SetContact{"impulse", 0.5, 200});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return !s.error.empty(); });
  CHECK(s.error.find("contact impulse needs a contact model") != std::string::npos);
  CHECK(s.contact.mode_name() == "penalty");
  CHECK_FALSE(s.lists_contacts);  // the Integrator panel shows the combo disabled
  worker.send(cmd::AddVariant{"contact", std::string("impulse")});
  worker.send(cmd::StepOnce{5});
  const Snapshot& after = wait_for(worker, [](const Snapshot& s) { return s.step == 5; });
  CHECK(after.error.find("variant contact: contact impulse needs a contact model") !=
        std::string::npos);
  CHECK(after.comparisons.empty());
}

TEST_CASE("snapshots carry the figure the colouring asks for, the selected body in full") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"kepler", {}});
  worker.send(cmd::StepOnce{20});
  const Snapshot& plain = wait_for(worker, [](const Snapshot& s) { return s.step == 20; });
  CHECK(plain.figure == BodyFigure::None);  // nothing asked: positions and instances only
  CHECK(plain.figures.empty());
  CHECK(plain.detail.body == -1);
  SnapshotDetail detail;
  detail.figure = BodyFigure::Speed;
  detail.detailed = 0;  // the orbiting body
  worker.send(cmd::SetSnapshotDetail{detail});
  worker.send(cmd::AddComparison{"rk4", "buss2", 0});
  worker.send(cmd::StepOnce{20});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.step == 40; });
  REQUIRE(s.figures.size() == size_t(s.bodies));
  REQUIRE(s.detail.body == 0);
  const Float3 v = s.detail.velocity;
  CHECK(s.figures[0] == doctest::Approx(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])));
  CHECK(s.figures[0] > 1.0f);  // near pericentre, some 1.7
  const float mass = s.detail.mass;
  CHECK(mass > 0);
  REQUIRE(s.comparisons.size() == 1);  // ghosts are coloured as the main run is
  CHECK(s.comparisons[0].figure == BodyFigure::Speed);
  CHECK(s.comparisons[0].figures.size() == size_t(s.bodies));
  detail.figure = BodyFigure(7);  // not one: refused, the last kept
  worker.send(cmd::SetSnapshotDetail{detail});
  const Snapshot& refused = wait_for(worker, [](const Snapshot& s) { return !s.error.empty(); });
  CHECK(refused.error.find("no such body figure") != std::string::npos);
  CHECK(refused.figure == BodyFigure::Speed);
  // A pull of stiffness 0 is about 2 Hz for the pulled body's mass.
  worker.send(cmd::DragStart{0, Vec3(0, 0, 5), 0.0});
  worker.send(cmd::StepOnce{1});
  const Snapshot& pulled = wait_for(worker, [](const Snapshot& s) { return s.step == 41; });
  double k = 0;
  for (const ModelTunables& m : pulled.models)
    if (m.kind == "mouse-spring") k = m.tunables[0].value;
  CHECK(k == doctest::Approx(mass * std::pow(4 * M_PI, 2)).epsilon(1e-6));
  worker.stop();
}
