// The physics thread and its channels: no torn snapshots, no lost samples or commands, the same
// trajectory as a direct run, and a clean stop on divergence. Built under TSan in CI.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "core/bonds/bond_common.hpp"
#include "io/lesson.hpp"
#include "io/scene_file.hpp"
#include "runtime/comparison_runs.hpp"
#include "runtime/history_ring.hpp"
#include "runtime/lesson_player.hpp"
#include "runtime/physics_worker.hpp"
#include "runtime/thread_pool.hpp"

using namespace stepwise;

namespace {

// Polls the worker (running in its thread) until `done` holds for the newest snapshot.
template <class Predicate>
const Snapshot& wait_for(PhysicsWorker& worker, Predicate done, double seconds = 20) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    worker.acquire_snapshot();
    if (done(worker.snapshot())) return worker.snapshot();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FAIL("timed out waiting for the worker");
  return worker.snapshot();
}

struct Pair {
  long a = 0;
  char padding[4096];
  long b = 0;
};

}  // namespace

TEST_CASE("triple buffer: the reader never sees a half-written value and values only advance") {
  TripleBuffer<Pair> buffer;
  constexpr long kWrites = 200000;
  std::thread writer([&] {
    for (long i = 1; i <= kWrites; ++i) {
      Pair& slot = buffer.write_slot();
      slot.a = i;
      slot.padding[i % 4096] = char(i);
      slot.b = i;
      buffer.publish();
    }
  });
  long last = 0, torn = 0, backwards = 0, reads = 0;
  while (last < kWrites) {
    if (!buffer.acquire()) continue;
    const Pair& p = buffer.read_slot();
    torn += p.a != p.b;
    backwards += p.a < last;
    last = p.a;
    ++reads;
  }
  writer.join();
  CHECK(torn == 0);
  CHECK(backwards == 0);
  CHECK(last == kWrites);
}

TEST_CASE("message queue: every item from every producer arrives, in each producer's order") {
  MessageQueue<std::pair<int, int>> queue;
  constexpr int kProducers = 4, kItems = 20000;
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      for (int i = 0; i < kItems; ++i) queue.push({p, i});
    });
  std::vector<int> next(kProducers, 0);
  std::vector<std::pair<int, int>> batch;
  long received = 0, out_of_order = 0;
  while (received < kProducers * kItems) {
    queue.take_all(batch);
    for (const auto& [p, i] : batch) {
      out_of_order += i != next[p];
      next[p] = i + 1;
      ++received;
    }
  }
  for (auto& t : producers) t.join();
  CHECK(out_of_order == 0);
  CHECK(received == kProducers * kItems);
}

TEST_CASE("worker steps give the same trajectory as a direct Simulation, and every step's sample") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"kepler", {}});
  worker.send(cmd::SetIntegrator{"rk4"});
  worker.send(cmd::StepOnce{700});
  worker.send(cmd::SetIntegrator{"velocity-verlet"});
  worker.send(cmd::SetDt{0.005});
  worker.send(cmd::StepOnce{300});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.step == 1000; });

  Simulation direct = make_simulation(load_scene("kepler"));
  direct.set_integrator("rk4");
  direct.advance(700);
  direct.set_integrator("velocity-verlet");
  direct.set_dt(0.005);
  direct.invalidate();
  direct.advance(300);
  const Vec3 x = direct.world().x.col(0);
  CHECK(s.position[0][0] == float(x.x()));
  CHECK(s.position[0][1] == float(x.y()));
  CHECK(s.energy.total == direct.energy().total);  // doubles, bit for bit
  CHECK(s.integrator == "velocity-verlet");

  worker.stop();
  std::vector<EnergySample> samples;
  worker.take_samples(samples);
  long covered = 0, last_step = -1, markers = 0;
  bool ordered = true;
  for (const EnergySample& e : samples) {
    ordered &= e.step >= last_step;
    last_step = e.step;
    covered += e.steps_covered;
    markers += !e.marker.empty();
  }
  CHECK(ordered);
  CHECK(last_step == 1000);
  // One sample at load, one per step, one at each of the 3 switches.
  CHECK(covered == 1 + 1000 + 3);
  CHECK(markers == 3);
}

TEST_CASE("a diverging run pauses and names the step and the body") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::LoadScene{"oscillator", {}});
  worker.send(cmd::SetBlowupLimit{0});  // no pause on the way: the non-finite state stops it
  worker.send(cmd::SetIntegrator{"leapfrog"});
  worker.send(cmd::SetDt{2.5});
  worker.send(cmd::SetPacing{Pacing::Fastest, 1});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return !s.error.empty(); });
  CHECK_FALSE(s.running);
  CHECK(s.error_step > 0);
  CHECK(s.error_body == 0);
  CHECK(s.error.find("non-finite at step") != std::string::npos);
}

TEST_CASE("bad commands are reported in the snapshot and the run goes on") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::LoadScene{"oscillator", {}});
  worker.send(cmd::SetIntegrator{"warp-drive"});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return !s.error.empty(); });
  CHECK(s.error.find("unknown integrator 'warp-drive'") != std::string::npos);
  CHECK(s.integrator == "velocity-verlet");
  worker.send(cmd::LoadScene{"no-such-scene", {}});
  worker.send(cmd::SetDt{-1});
  worker.send(cmd::SetTunable{7, "k", 1});
  worker.send(cmd::LoadScene{"oscillator", {{"m", ParamValue(-1.0)}}});
  const Snapshot& after = wait_for(worker, [](const Snapshot& s) {
    return s.error.find("'m' must be positive") != std::string::npos;
  });
  CHECK(after.label == "oscillator");
}

TEST_CASE("a live stiffness change is booked as work: the energy error stays at integrator size") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"oscillator", {}});
  worker.send(cmd::SetDt{0.01});
  worker.send(cmd::StepOnce{300});  // t = 3, near the turning point: the energy is in the spring
  worker.send(cmd::SetTunable{0, "k", 4.0});  // the spring, 4x stiffer
  worker.send(cmd::StepOnce{300});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.step == 600; });
  // The change stored 3 x 1/2 k x^2 (about 1.47); unbooked, the error would be of order 1.
  CHECK(s.energy.external_work == doctest::Approx(1.47).epsilon(0.02));
  CHECK(std::abs(s.energy.energy_error) < 5e-4);  // Verlet's own fluctuation at omega dt = 0.02
  CHECK(s.models[0].tunables[0].value == 4.0);
}

TEST_CASE("pulling a body with the mouse spring counts its work as external work") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"impact", {}});
  worker.send(cmd::DragStart{0, Vec3(0, 0, 0.5), 200.0});
  worker.send(cmd::DragMove{Vec3(0.3, 0, 0.8)});
  worker.send(cmd::StepOnce{400});
  const Snapshot& pulled = wait_for(worker, [](const Snapshot& s) { return s.step == 400; });
  CHECK(pulled.dragged_body == 0);
  CHECK(pulled.energy.external_work > 0);
  CHECK(std::abs(pulled.energy.energy_error) < 1e-3);
  worker.send(cmd::DragEnd{});
  worker.send(cmd::StepOnce{1});
  const Snapshot& released = wait_for(worker, [](const Snapshot& s) { return s.step == 401; });
  CHECK(released.dragged_body == -1);
}

TEST_CASE("hammering the command queue while the worker steps (run under TSan in CI)") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::LoadScene{"spring-chain", {}});
  worker.send(cmd::SetPacing{Pacing::Fastest, 1});
  std::atomic<bool> done{false};
  std::vector<EnergySample> samples;
  long received = 0;
  std::thread reader([&] {  // a second UI-side consumer would be a bug; this one is the UI
    std::vector<EnergySample> batch;
    while (!done) {
      worker.acquire_snapshot();
      worker.take_samples(batch);
      received += long(batch.size());
    }
  });
  const char* integrators[] = {"euler", "rk4", "velocity-verlet", "leapfrog", "midpoint"};
  for (int i = 0; i < 3000; ++i) {
    switch (i % 9) {
      case 0:
        worker.send(cmd::SetIntegrator{integrators[(i / 9) % 5]});
        break;
      case 1:
        worker.send(cmd::SetDt{0.001 * (1 + i % 3)});
        break;
      case 2:
        worker.send(cmd::SetTunable{0, "k", 50.0 + i % 7});
        break;
      case 3:
        worker.send(cmd::SetRunning{i % 2 == 0});
        break;
      case 4:
        worker.send(cmd::StepOnce{3});
        break;
      case 5:
        worker.send(cmd::DragStart{1, Vec3(0.1, 0, 0), 10});
        break;
      case 6:
        worker.send(cmd::DragMove{Vec3(0.2, 0.1 * (i % 5), 0)});
        break;
      case 7:
        worker.send(cmd::DragEnd{});
        break;
      case 8:
        if (i % 90 == 8) worker.send(cmd::Reset{});
        break;
    }
    if (i % 100 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  worker.send(cmd::SetRunning{true});
  worker.send(cmd::StepOnce{5});
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  done = true;
  reader.join();
  worker.stop();
  worker.acquire_snapshot();
  const Snapshot& s = worker.snapshot();
  CHECK(s.error.empty());
  CHECK(s.label == "spring-chain");
  CHECK(received > 0);
}

TEST_CASE("lockstep comparison runs are bit-identical to separate runs with the same options") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"kepler", {}});
  worker.send(cmd::AddComparison{"rk4", "buss2", 0.005});
  worker.send(cmd::AddComparison{"euler", "rk4", 0});
  worker.send(cmd::StepOnce{400});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.step == 400; });
  REQUIRE(s.comparisons.size() == 2);
  const RunSpec spec = load_scene("kepler");
  Simulation rk4(spec.setup.world, 0.005, "rk4", "buss2");
  rk4.advance(800);  // twice the steps at half the dt: the same simulated time
  Simulation euler(spec.setup.world, spec.setup.dt, "euler", "rk4");
  euler.advance(400);
  CHECK(s.comparisons[0].energy.total == rk4.energy().total);
  CHECK(s.comparisons[0].position[0][0] == float(rk4.world().x(0, 0)));
  CHECK(s.comparisons[1].energy.total == euler.energy().total);
  CHECK(s.comparisons[1].time == euler.time());
  CHECK(s.comparisons[0].run_label == "rk4 + buss2, dt 0.005");
  // The main run is untouched by its companions.
  Simulation main = make_simulation(spec);
  main.advance(400);
  CHECK(s.energy.total == main.energy().total);
}

TEST_CASE("a variant run: the same scene with a parameter changed, in lockstep from t = 0") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"pendulum", {{"angle", 60.0}}});
  worker.send(cmd::StepOnce{300});
  worker.send(cmd::AddVariant{"formulation", std::string("penalty")});
  worker.send(cmd::StepOnce{100});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.step == 400; });
  REQUIRE(s.comparisons.size() == 1);
  const Snapshot& variant = s.comparisons[0];
  // Built afresh with the main run's other parameters and methods, at its own (spring's) dt,
  // and caught up to the main run's time.
  const RunSpec spec = load_scene("pendulum", {{"angle", 60.0}, {"formulation", std::string("penalty")}});
  Simulation alone = make_simulation(spec);
  while (alone.time() + 1e-9 * alone.dt() < s.time) REQUIRE_FALSE(alone.step());
  CHECK(variant.time == alone.time());
  CHECK(variant.energy.total == alone.energy().total);
  CHECK(variant.run_label.rfind("formulation = penalty: velocity-verlet + buss2, dt ", 0) == 0);
  bool springs = false;
  for (const auto& m : variant.models) springs = springs || m.kind == "spring";
  CHECK(springs);
  // The two formulations swing alike: rod and stiff spring within a bob's size.
  CHECK(std::abs(variant.position[0][0] - s.position[0][0]) < 0.05);
  // A parameter the scene does not have is refused with a message naming it.
  worker.send(cmd::AddVariant{"no-such", 1.0});
  const Snapshot& refused = wait_for(worker, [](const Snapshot& s) { return !s.error.empty(); });
  CHECK(refused.error.find("no-such") != std::string::npos);
}

TEST_CASE("generalised coordinates in the window: the bobs are drawn, the angles are not pulled") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"double-pendulum", {{"formulation", std::string("generalised")}}});
  worker.send(cmd::StepOnce{50});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) { return s.step == 50; });
  REQUIRE(s.bodies == 2);
  REQUIRE(s.spheres.size() == 2);
  // The lower bob hangs two rods' length from the pivot at most, and the rods are drawn.
  const Float3 p = s.position[1];
  const double r = std::sqrt(double(p[0]) * p[0] + double(p[1]) * p[1] + double(p[2]) * p[2]);
  CHECK(r > 0.1);
  CHECK(r < 2.0 + 1e-6);
  CHECK(s.springs.size() == 2);
  CHECK(s.energy.kinetic > 0);
  worker.send(cmd::DragStart{1, Vec3::Zero(), 100, 1});
  const Snapshot& refused = wait_for(worker, [](const Snapshot& s) { return !s.error.empty(); });
  CHECK(refused.error.find("cannot be pulled") != std::string::npos);
}

TEST_CASE("background analyses: the convergence view computes exactly what the sweep does") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"oscillator", {}});
  worker.send(cmd::StepOnce{10});
  worker.send(cmd::RunConvergence{{"velocity-verlet", "rk4"}, 1.0});
  worker.send(cmd::RunReversibility{200});
  const Snapshot& s = wait_for(worker, [](const Snapshot& s) {
    return s.convergence.status == "done" && s.reversibility.status == "done";
  });
  REQUIRE(s.convergence.result.series.size() == 2);
  // The same request made directly (the CLI's `sweep` runs this function too).
  Simulation sim = make_simulation(load_scene("oscillator"));
  sim.advance(10);
  SweepRequest request;
  request.setup.world = sim.world();
  request.setup.integrator = sim.integrator_name();
  request.setup.rotation = sim.rotation_name();
  request.integrators = {"velocity-verlet", "rk4"};
  request.dts = {sim.dt(), sim.dt() / 2, sim.dt() / 4, sim.dt() / 8};
  request.duration = 1.0;
  const SweepResult direct = run_sweep(request);
  for (size_t k = 0; k < 2; ++k)
    for (size_t r = 0; r < 4; ++r)
      CHECK(s.convergence.result.series[k].rows[r].error == direct.series[k].rows[r].error);
  CHECK(s.convergence.result.series[1].rows[3].order == doctest::Approx(4).epsilon(0.1));
  CHECK(s.reversibility.position_error < 1e-12);
}

TEST_CASE("the window plays a lesson's timeline as simulated time passes") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::PlayLesson{std::string(STEPWISE_SOURCE_DIR) +
                              "/assets/lessons/integrators-on-an-orbit.toml"});
  const Snapshot& start = wait_for(worker, [](const Snapshot& s) { return !s.caption.empty(); });
  CHECK(start.integrator == "euler");
  CHECK(start.caption.find("Explicit Euler") != std::string::npos);
  CHECK(start.lesson_title == "Integrators on an orbit");
  worker.send(cmd::StepOnce{1000});  // past t = 9.5: kepler again, now with RK4
  const Snapshot& later = wait_for(worker, [](const Snapshot& s) { return s.integrator == "rk4"; });
  CHECK(later.caption.find("RK4") != std::string::npos);
  CHECK(later.time < 1.0);  // the lesson reloaded the scene, so its own clock restarted
  // The lesson's load went through the worker's own: no checkpoint of the Euler run is offered.
  REQUIRE_FALSE(later.history_times.empty());
  CHECK(*std::max_element(later.history_times.begin(), later.history_times.end()) < 1.0);
  CHECK(later.history_times.size() <= size_t(later.step / 25 + 1));
  CHECK(later.lesson_progress == doctest::Approx((9.5 + later.time) / 30).epsilon(0.02));
  // One energy plot across the load: the same plot generation, on the lesson's clock.
  std::vector<EnergySample> samples;
  worker.take_samples(samples);
  REQUIRE(samples.size() > 900);
  bool monotonic = true, one_plot = true;
  for (size_t k = 1; k < samples.size(); ++k) {
    monotonic = monotonic && samples[k].time >= samples[k - 1].time;
    one_plot = one_plot && samples[k].scene_generation == samples[0].scene_generation;
  }
  CHECK(monotonic);
  CHECK(one_plot);
  CHECK(samples.back().time > 9.5);
}

TEST_CASE(
    "history: back to a checkpoint continues bit for bit; a change there forks the old future") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::SetRunning{false});
  worker.send(cmd::LoadScene{"spring-chain", {}});
  worker.send(cmd::StepOnce{300});
  const Snapshot& first = wait_for(worker, [](const Snapshot& s) { return s.step == 300; });
  const double x300 = first.energy.total;
  const std::vector<double> times = first.history_times;
  REQUIRE(times.size() >= 10);
  worker.send(cmd::RestoreCheckpoint{4});  // step 100
  wait_for(worker, [](const Snapshot& s) { return s.step == 100; });
  worker.send(cmd::StepOnce{200});
  const Snapshot& again = wait_for(worker, [](const Snapshot& s) { return s.step == 300; });
  CHECK(again.history_position == 4);
  CHECK(again.energy.total == x300);  // the same future, bit for bit
  // Back again, and this time change the integrator: the old future runs on as a ghost.
  worker.send(cmd::RestoreCheckpoint{4});
  wait_for(worker, [](const Snapshot& s) { return s.step == 100; });
  worker.send(cmd::SetIntegrator{"rk4"});
  worker.send(cmd::StepOnce{200});
  const Snapshot& branched = wait_for(worker, [](const Snapshot& s) {
    return s.step == 300 && s.integrator == "rk4" && s.comparisons.size() == 1;
  });
  CHECK(branched.comparisons[0].run_label.find("old future") != std::string::npos);
  CHECK(branched.comparisons[0].energy.total == x300);
  CHECK(branched.energy.total != x300);
}

TEST_CASE("the reference shadow run measures the live run's global error") {
  auto final_error = [](const char* integrator) {
    PhysicsWorker worker;
    worker.start();
    worker.send(cmd::SetRunning{false});
    worker.send(cmd::LoadScene{"kepler", {}});
    worker.send(cmd::SetIntegrator{integrator});
    worker.send(cmd::SetReference{true});
    worker.send(cmd::StepOnce{628});  // one orbit
    wait_for(worker, [](const Snapshot& s) { return s.step == 628 && s.reference_on; });
    worker.stop();
    std::vector<EnergySample> samples;
    worker.take_samples(samples);
    REQUIRE_FALSE(samples.empty());
    return samples.back().reference_position_error;
  };
  const double verlet = final_error("velocity-verlet"), euler = final_error("euler");
  MESSAGE("global position error after one orbit: verlet " << verlet << ", euler " << euler);
  CHECK(verlet > 0);
  CHECK(verlet < 2e-2);  // second order at dt = 0.01: a phase lag of a few 1e-3
  CHECK(euler > 20 * verlet);
}

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

TEST_CASE(
    "a step fused block by block equals its passes run one after another, on 1 and 2 threads") {
  // Settle (contacts, walls, gravity, Verlet and Buss2: every fused pass) and a ledger with a
  // drag-tracked dissipation; with n = 3000 each thread's range spans several blocks.
  for (int threads : {1, 2}) {
    auto run = [threads](bool fused) {
      ThreadPool pool(threads);
      Simulation sim = settle_simulation(15, 10, 20);
      if (threads > 1) sim.set_parallel(&pool);
      sim.set_fused(fused);
      REQUIRE_FALSE(sim.advance(1200));
      return std::tuple(sim.world().x, sim.world().v, sim.world().L, sim.energy());
    };
    const auto [x, v, L, e] = run(true);
    const auto [x1, v1, L1, e1] = run(false);
    INFO(threads << " thread(s)");
    CHECK(e.contacts > 100);
    CHECK(x == x1);
    CHECK(v == v1);
    CHECK(L == L1);
    CHECK(e.total == e1.total);
    CHECK(e.dissipated == e1.dissipated);
    CHECK(e.energy_error == e1.energy_error);
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
  for (const Tunable& t : integrator.options()) set.set(t.name, t.value > 0 ? t.value * 1.25 : 0.125);
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
    Simulation reloaded = make_simulation(parse_scene_toml(scene_to_toml(sim, "kepler"), "x.toml", {}));
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
    Simulation fork_twin = make_simulation(parse_scene_toml(scene_to_toml(sim, "kepler"), "x.toml", {}));
    CHECK(same_positions(sim, reloaded, 200));
    CHECK(same_positions(*restored, fork_twin, 200));
  }
}

TEST_CASE("Reset keeps the user's integrator, dt, options and parameters; Defaults does not") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::LoadScene{"active-brownian", {}});
  worker.send(cmd::SetRunning{false});
  const Snapshot loaded = wait_for(worker, [](const Snapshot& s) {
    return s.scene_generation > 0 && !s.running;
  });
  const double scene_dt = loaded.dt;
  REQUIRE(loaded.integrator == "baoab");
  worker.send(cmd::SetIntegrator{"rk4"});
  worker.send(cmd::SetRotation{"rk4"});
  worker.send(cmd::SetDt{scene_dt / 2});
  worker.send(cmd::SetIntegrator{"baoab"});
  worker.send(cmd::SetIntegratorOption{"temperature", 0.75});
  worker.send(cmd::StepOnce{20});
  const Snapshot changed = wait_for(worker, [&](const Snapshot& s) { return s.step == loaded.step + 20; });
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
  const Snapshot reset = wait_for(worker, [&](const Snapshot& s) {
    return s.scene_generation > generation && s.step == 0;
  });
  CHECK(reset.integrator == "baoab");
  CHECK(reset.rotation == "rk4");
  CHECK(reset.dt == scene_dt / 2);
  double temperature = -1;
  for (const Tunable& o : reset.integrator_options)
    if (o.name == "temperature") temperature = o.value;
  CHECK(temperature == 0.75);
  CHECK(reset.models[model].tunables[0].value == value);
  worker.send(cmd::Reset{true});
  const Snapshot& defaults = wait_for(worker, [&](const Snapshot& s) {
    return s.scene_generation > reset.scene_generation;
  });
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
  const Snapshot loaded = wait_for(worker, [](const Snapshot& s) {
    return s.scene_generation > 0 && !s.running;
  });
  int spring = -1;
  for (size_t m = 0; m < loaded.models.size(); ++m)
    for (const Tunable& t : loaded.models[m].tunables)
      if (t.name == "k") spring = int(m);
  REQUIRE(spring >= 0);
  worker.send(cmd::SetTunable{spring, "k", 1e12});
  worker.send(cmd::SetPacing{Pacing::Fastest, 1});
  worker.send(cmd::SetRunning{true});
  const Snapshot paused = wait_for(worker, [](const Snapshot& s) {
    return !s.running && !s.error.empty();
  });
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
  Simulation sim = make_simulation(load_scene("cube-chain", {{"loading", ParamValue(std::string("bend-twist"))}}));
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
  wait_for(worker, [](const Snapshot& s) { return s.error.find("no material #3") != std::string::npos; });
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

TEST_CASE("contact treatment in the window: switched live, and penalty beside impulse in lockstep") {
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
}
