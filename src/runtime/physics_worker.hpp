#pragma once
// The physics thread. The window talks to it only through commands; it answers with snapshots
// (newest wins, never torn) and energy samples (every one delivered). Stepping is paced to real
// time, slowed down, or as fast as the machine goes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "core/simulation.hpp"
#include "io/scene_file.hpp"
#include "io/vtk_series.hpp"
#include "runtime/analysis_jobs.hpp"
#include "runtime/commands.hpp"
#include "runtime/comparison_runs.hpp"
#include "runtime/energy_sample.hpp"
#include "runtime/history_ring.hpp"
#include "runtime/lesson_player.hpp"
#include "runtime/message_queue.hpp"
#include "runtime/snapshot.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime/triple_buffer.hpp"

namespace stepwise {

class PhysicsWorker {
 public:
  PhysicsWorker();
  ~PhysicsWorker();
  PhysicsWorker(const PhysicsWorker&) = delete;
  PhysicsWorker& operator=(const PhysicsWorker&) = delete;

  void start();
  void stop();  // joins the thread; safe to call twice
  // Threads for the main run's per-step loops (1 to 64; results are fixed for a given count, as
  // for `stepwise run --threads`). Before start().
  void set_threads(int threads);

  // UI side. None of these wait for a step.
  void send(Command command);
  bool acquire_snapshot() { return snapshots_.acquire(); }
  const Snapshot& snapshot() const { return snapshots_.read_slot(); }
  void take_samples(std::vector<EnergySample>& out) { samples_.take_all(out); }
  // Captured video frames (see cmd::SetCapture), oldest first.
  void take_captures(std::vector<Snapshot>& out) {
    captures_.take_all(out);
    captures_pending_ -= int(out.size());
  }

  // Runs the worker's loop body once on the calling thread (tests without a thread).
  void poll_for_tests() { iterate(); }

  using Clock = std::chrono::steady_clock;
  static constexpr auto kPublishEvery = std::chrono::milliseconds(8);
  // How long a running worker waits after a publish that took `took` before the next: every
  // 8 ms, or four times as long as a publish takes, so that publishing keeps at most a fifth of
  // the physics thread (a snapshot of 1,000,000 bodies takes tens of ms; published every 8 ms it
  // left the steps a third of the thread).
  static Clock::duration publish_interval(Clock::duration took) {
    return std::max<Clock::duration>(kPublishEvery, 4 * took);
  }
  // Every how many steps a running worker takes the energy (for the plot and the blow-up check),
  // given what an energy took and what the worker spends a step: every step, unless the energy
  // costs over 0.2 ms and more than a tenth of a step (at 1,000,000 spheres it took a third of
  // the thread); then as seldom as keeps it to a tenth, at most every 64th step. Small scenes'
  // plots, the classroom's, keep every step.
  static int energy_stride(Clock::duration energy, Clock::duration step) {
    if (energy < std::chrono::microseconds(200) || energy * 10 <= step) return 1;
    const auto per = std::max<Clock::duration>(step, std::chrono::nanoseconds(1));
    return int(std::min<Clock::rep>(64, (energy * 10 + per - Clock::duration(1)) / per));
  }

 private:
  static constexpr auto kSlice = std::chrono::milliseconds(8);  // longest stretch of stepping
  void run();
  void iterate();
  void apply(const Command& command);
  // What Reset keeps: the user's methods, dt, integrator options and live model parameters.
  bool blew_up(double energy_error);
  void new_run_started();  // after sim_ is replaced: by a load, a reset or a lesson's load
  void note_omega(long step, double omega);
  void widen_to_recent_worst(Snapshot& s);  // pauses (once per crossing) past blowup_limit_
  struct Choices {
    std::string integrator, rotation;
    double dt = 0;
    ParamTable options;
    std::vector<std::vector<Tunable>> tunables;  // per force model, in order
    std::vector<std::vector<Tunable>> materials;  // per material, in order
  };
  Choices choices() const;
  // read: the scene as load_scene(source, overrides) gives it, taken (moved from) if given.
  void load(const std::string& source, const std::map<std::string, ParamValue>& overrides,
            const Choices* keep = nullptr, RunSpec* read = nullptr);
  void advance_for(Clock::duration budget);
  // One step of the main run, once the shadow run has reached its end by `deadline` (until then it
  // steps the shadow run only); false if the state went non-finite.
  bool step_once(Clock::time_point deadline = Clock::time_point::max());
  bool reference_ready(Clock::time_point deadline);
  void take_owed_steps(Clock::time_point deadline);
  // The energy after `steps` steps (those since the last one taken: energy_stride).
  void record_sample(const EnergyReport& report, int steps = 1);
  void flush_sample();
  void mark(std::string marker);
  void publish();
  void reanchor();

  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::mutex wake_mutex_;
  std::condition_variable wake_;

  MessageQueue<Command> commands_;
  std::vector<Command> pending_;
  TripleBuffer<Snapshot> snapshots_;
  MessageQueue<EnergySample> samples_;
  MessageQueue<Snapshot> captures_;
  std::atomic<int> captures_pending_{0};
  double capture_interval_ = 0, next_capture_ = 0;
  void capture_if_due();
  bool capture_backlog() const { return capture_interval_ > 0 && captures_pending_ >= 6; }
  std::string notice_;
  ComparisonRuns comparisons_;
  AnalysisJobs jobs_;
  ConvergenceView convergence_;
  ReversibilityView reversibility_;
  StabilityView stability_;
  std::unique_ptr<Simulation> reference_;  // the shadow run, or null
  double reference_e0_ = 0;
  bool reference_waiting_ = false;  // the main run's next step waits for the shadow run
  long steps_owed_ = 0;             // what step commands asked for and the shadow run has held up
  HistoryRing history_;
  std::optional<std::size_t> restored_at_;  // in the past, at this checkpoint
  bool cut_pending_ = false;
  void restore(std::size_t k);
  void fork_old_future();
  std::optional<LessonPlayer> lesson_;
  Clock::time_point hold_until_;  // a lesson's pause for the class to look
  void apply_lesson();
  std::unique_ptr<VtkSeries> vtk_;
  long vtk_every_ = 1;

  // Worker-thread state.
  std::optional<RunSpec> spec_;  // what is read of it: no World or carried state (load())
  ParamTable scene_parameters_;  // the loaded built-in's full parameter table, for the panel
  std::string source_;
  std::map<std::string, ParamValue> overrides_;
  std::unique_ptr<Simulation> sim_;
  std::unique_ptr<ThreadPool> pool_;  // with set_threads(T > 1); used by the worker thread only
  std::uint64_t generation_ = 0, revision_ = 0;
  bool running_ = true;
  Pacing pacing_ = Pacing::RealTime;
  double slow_motion_ = 1;
  Clock::time_point anchor_wall_;
  double anchor_sim_ = 0;
  Clock::time_point last_publish_, rate_window_start_;
  Clock::duration publish_every_ = kPublishEvery;  // (publish_interval of the last publish)
  int energy_every_ = 1, steps_since_energy_ = 0;  // (energy_stride; steps since the last)
  // When the energy's cost was last read, steps and samples since (step_once).
  Clock::time_point timed_at_{};
  long steps_since_timed_ = 0;
  int samples_untimed_ = 0;
  long rate_window_steps_ = 0;
  double rate_window_sim_ = 0;
  double steps_per_second_ = 0, realtime_factor_ = 0;
  std::string error_;
  long error_step_ = -1;
  int error_body_ = -1;
  // Energy blow-up: pause when |relative energy error| passes the limit (0: never).
  double blowup_limit_ = 1e3;
  bool blown_up_ = false;  // past the limit already (paused once for it)
  // The stiffest frequency at each publish over the last kRecentSteps steps (the gauge shows
  // the worst: a Kepler orbit's pericentre, not the calm after it).
  static constexpr long kRecentSteps = 1000;
  std::deque<std::pair<long, double>> recent_omega_;
  std::uint64_t omega_generation_ = 0;
  std::uint64_t plot_generation_ = 0;  // the energy plot's: a lesson's loads keep it
  int drag_model_ = -1;  // index of the mouse spring in world.forces, -1 when not dragging
  EnergySample pending_sample_;
  bool has_pending_sample_ = false;
  std::string next_marker_;
  bool dirty_ = true;  // something changed that the window has not seen
  SnapshotDetail snapshot_detail_;  // what the window asked for (cmd::SetSnapshotDetail)
};

}  // namespace stepwise
