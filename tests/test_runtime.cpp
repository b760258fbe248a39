// The physics thread and its channels: no torn snapshots, no lost samples or commands, the same
// trajectory as a direct run, and a clean stop on divergence. Built under TSan in CI.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "core/spatial_order.hpp"
#include "io/lesson.hpp"
#include "io/scene_file.hpp"
#include "runtime/comparison_runs.hpp"
#include "runtime/history_ring.hpp"
#include "runtime/lesson_player.hpp"
#include "runtime/physics_worker.hpp"
#include "runtime/snapshot.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime_support.hpp"

using namespace stepwise;
using test::wait_for;

namespace {

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

TEST_CASE("a running worker spaces its publishes and energies by what they cost, not small ones") {
  // A snapshot or an energy of 1,000,000 bodies takes tens of ms: taken every 8 ms and every step
  // they left the steps a third of the physics thread. Cheap ones stay as they were.
  using namespace std::chrono;
  using W = PhysicsWorker;
  CHECK(W::publish_interval(microseconds(300)) == W::kPublishEvery);
  CHECK(W::publish_interval(milliseconds(2)) == W::kPublishEvery);
  CHECK(W::publish_interval(milliseconds(40)) == milliseconds(160));  // a fifth of the thread
  CHECK(W::energy_stride(microseconds(150), microseconds(10)) == 1);  // cheap: every step
  CHECK(W::energy_stride(milliseconds(2), milliseconds(20)) == 1);    // a tenth of a step
  CHECK(W::energy_stride(milliseconds(10), milliseconds(30)) == 4);   // 1,000,000 spheres
  CHECK(W::energy_stride(milliseconds(3), milliseconds(10)) == 3);
  CHECK(W::energy_stride(seconds(1), milliseconds(1)) == 64);  // at most every 64th step
  CHECK(W::energy_stride(milliseconds(1), nanoseconds(0)) == 64);
}

TEST_CASE("a running small scene's energy plot still takes every step") {
  PhysicsWorker worker;
  worker.start();
  worker.send(cmd::LoadScene{"kepler", {}});
  worker.send(cmd::SetPacing{Pacing::Fastest, 1});
  wait_for(worker, [](const Snapshot& s) { return s.step >= 3000; });
  worker.stop();
  std::vector<EnergySample> samples;
  worker.take_samples(samples);
  REQUIRE_FALSE(samples.empty());
  long covered = 0;
  for (const EnergySample& e : samples) covered += e.steps_covered;
  CHECK(samples.back().step >= 3000);
  CHECK(covered == samples.back().step + 1);  // one at load, one per step
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
  const RunSpec spec =
      load_scene("pendulum", {{"angle", 60.0}, {"formulation", std::string("penalty")}});
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

TEST_CASE("a World stored in spatial order shows its bodies by id: snapshot labels, colours") {
  // A lattice listed back to front and shuffled within rows: the curve puts it in another order.
  World world;
  const int side = 17;  // 4,913 spheres, enough to be ordered
  for (int k = side - 1; k >= 0; --k)
    for (int j = 0; j < side; ++j)
      for (int i = 0; i < side; ++i) {
        BodySpec b;
        b.position = Vec3((i * 7) % side, j, k) * 1.1;
        b.velocity = Vec3(0.01 * i, 0, 0);
        world.add_body(b);
      }
  world.add_force(ForceRegistry::instance().make("gravity", ParamTable()));
  const World listed = world;
  REQUIRE(order_spatially(world));
  REQUIRE(world.ids.size() == listed.ids.size() + size_t(listed.size()));
  Simulation sim(world, 1e-3);
  Snapshot s;
  SnapshotDetail detail;
  detail.figure = BodyFigure::Speed;
  detail.detailed = 3 * side + 5;
  fill_snapshot(sim, s, detail);
  REQUIRE(s.bodies == listed.size());
  REQUIRE(s.figures.size() == size_t(s.bodies));
  REQUIRE(s.detail.body == detail.detailed);
  for (int a = 0; a < 3; ++a)
    CHECK(s.detail.velocity[a] == float(listed.v(a, s.id(detail.detailed))));
  int moved = 0;
  for (int k = 0; k < s.bodies; ++k) {
    const int id = s.id(k);  // what the window's labels and id colours show
    REQUIRE(id == world.id(k));
    moved += id != k;
    for (int a = 0; a < 3; ++a) CHECK(s.position[k][a] == float(listed.x(a, id)));
    CHECK(s.figures[k] == float(listed.v.col(id).norm()));
    CHECK(s.spheres[k].body == k);  // drawn and picked where stored
    CHECK(s.slot(id) == k);         // --select names an id
  }
  CHECK(moved > s.bodies / 2);
}
