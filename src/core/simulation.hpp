#pragma once
// A World plus the chosen integrators, time step and energy ledger: the one thing that advances
// physics. The CLI, the runtime worker and the tests all drive this class.
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "core/body_passes.hpp"
#include "core/energy.hpp"
#include "core/impulse/impulse_contact.hpp"
#include "core/integrator.hpp"
#include "core/parallel.hpp"
#include "core/random.hpp"
#include "core/rotation_scheme.hpp"
#include "core/sphere_sweep.hpp"
#include "core/world.hpp"

namespace stepwise {

struct StepFailure {
  long step;
  int body;     // where it is stored (-1: none)
  int id = -1;  // the body's id (World::ids), which the message names
  std::string message() const;
};

class Simulation {
 public:
  Simulation(World world, double dt, const std::string& integrator = "velocity-verlet",
             const std::string& rotation = "buss2");

  // Advances one step of dt. Returns the failure if the state went non-finite (and stops there).
  std::optional<StepFailure> step();
  // `steps` steps, each one's closing passes run in the next one's first sweep over the bodies
  // (bit-identical to calling step() as often). A failure names the step that went non-finite;
  // the state is then up to half a step further on.
  std::optional<StepFailure> advance(long steps);

  void set_integrator(const std::string& name);
  void set_rotation(const std::string& name);
  void set_dt(double dt);
  void set_seed(std::uint64_t seed);
  // Penalty springs or rigid contact by impulses, and the impulses' options: live, from the
  // next step (World::contact).
  void set_contact(const ContactTreatment& contact);
  // What the impulse solver found and did at the last step, and whether it acted on the drift
  // velocity (kick-drift methods) or after the step.
  const ImpulseContact::Figures& impulse_figures() const { return impulse_figures_; }
  bool impulses_in_drift() const { return drift_solved_; }
  // Under rigid contact: the last step's contacts as the force network and the Inspector list
  // them (ImpulseContact::contact_forces, contact_points).
  void rigid_contact_forces(std::vector<ForceModel::ContactForce>& out) const {
    impulse_.contact_forces(rigid_, dt_, out);
  }
  void rigid_contact_points(int body, std::vector<ForceModel::ContactReport>& out) const {
    impulse_.contact_points(rigid_, body, dt_, out);
  }
  // Lets force models split their loops over these threads (null: one). Results are
  // bit-identical run to run for a given thread count.
  void set_parallel(Parallel* parallel) { parallel_ = parallel; }
  int threads() const { return parallel_ ? parallel_->threads() : 1; }
  // Whether the step's per-body passes run fused block by block (the default) or one after
  // another over all bodies; the results are bit-identical either way (tested). block: bodies
  // per block, 0 for the default (tests use small blocks to cross many blocks).
  void set_fused(bool fused, int block = 0) {
    passes_.set_block(fused ? block : std::numeric_limits<int>::max());
  }
  // Whether the step's evaluation writes its loads over the start evaluation's, each block once
  // the passes queued before it have read them (the default), or into a second set of arrays;
  // bit-identical either way (tested). For speed only: one set of load arrays instead of two
  // streams 96 bytes less per body and step.
  void set_in_place(bool in_place) { in_place_ = in_place; }
  // Whether a velocity-Verlet step with Buss2's rotation runs its per-body work as the free-sphere
  // sweep where it applies (the default; core/sphere_sweep.hpp) or as the passes it stands for;
  // bit-identical either way (tested). swept_steps(): how many steps it took; swept_fields()
  // and swept_watches(): in how many of them it also added a field's loads or measured the
  // displacements for a neighbour list (SweepShare); sweep_counts(): over all its tasks, how
  // many groups of four spheres, untouched and not spinning, it left their rotation alone, how
  // many, spinning without a torque, it only turned, and for how many it asked ahead
  // (SweepCounts).
  void set_sphere_sweep(bool sweep) { sweep_enabled_ = sweep; }
  long swept_steps() const { return swept_steps_; }
  long swept_fields() const { return swept_fields_; }
  long swept_watches() const { return swept_watches_; }
  SweepCounts sweep_counts() const {
    SweepCounts sum;
    for (const SweepCounts& c : sweep_counts_)
      sum.unturned += c.unturned, sum.coasting += c.coasting, sum.asked += c.asked;
    return sum;
  }
  // Whether advance() takes the steps at which nothing touches as free flight where it can
  // (the default; simulation_flight.cpp); bit-identical either way (tested). flown_steps():
  // how many steps were so taken, in how many flights().
  void set_free_flight(bool on) { flight_enabled_ = on; }
  long flown_steps() const { return flown_steps_; }
  long flights() const { return flights_; }
  // The World was changed from outside (parameters, drags, edits): drop cached forces.
  void invalidate();
  // A change made from outside while running (a stiffness, a mass, a pull): the energy it adds
  // or removes is booked as external work, so the energy error keeps measuring the integrator.
  void edit(const std::function<void(World&)>& change);
  // Starts the energy ledger afresh at the current state (E0 := E, W := D := 0).
  void reset_ledger();

  // Everything besides the World that decides the future: the ledger, the random stream, the
  // cached end-of-step forces and the methods' and models' carried state. Saved with a scene, it
  // makes run-save-load-continue bit-identical to an uninterrupted run (on one thread: loaded,
  // the contacts build their neighbour list afresh, and on more threads their split of the pairs
  // follows the list). `with_models` false: the force models' part is left out, for a World whose
  // models are copied with theirs (copy, make_run), keeping their lists, so a copy continues bit
  // for bit on any number of threads.
  ParamTable save_state(bool with_models = true) const;
  void load_state(const ParamTable& state, bool with_models = true);

  // A whole run in one value: the World, the methods and their options, dt, clock, seed and
  // carried state. Every copy of a run (history checkpoints, comparison forks, the old future)
  // is made by copy() and make_run(), so none can leave a part behind.
  struct Copy {
    World world;
    double dt = 0;
    std::string integrator, rotation;
    ParamTable options;  // Integrator::save_options
    double time = 0;
    long step = 0;
    std::uint64_t seed = 1;
    ParamTable state;  // save_state(false); empty: start the methods afresh
  };
  Copy copy() const;
  // The same into `into`, whose World's arrays keep their storage where they are of the same
  // size (a history ring's oldest checkpoint taken again: for speed and memory only).
  void copy_into(Copy& into) const;
  static std::unique_ptr<Simulation> make_run(Copy copy);  // (its World moved in)

  EnergyReport energy();
  double dt() const { return dt_; }
  double time() const { return time_; }
  long step_count() const { return step_; }
  void set_clock(double time, long step) { time_ = time, step_ = step; }
  World& world() { return world_; }
  const World& world() const { return world_; }
  Integrator& integrator() { return *integrator_; }
  RotationScheme& rotation() { return *rotation_; }
  const std::string& integrator_name() const { return integrator_name_; }
  const std::string& rotation_name() const { return rotation_name_; }
  std::uint64_t seed() const { return seed_; }
  // Forces and torques at the current state (the committed evaluation).
  const Positions& forces();
  const Positions& torques();
  double max_frequency() const;  // stiffest force model, for the critical time step
  // omega_max and the bodies that set it (see ForceModel::stiffest_pair), in one pass.
  struct Stiffest {
    double omega = 0;
    int i = -1, j = -1;
  };
  Stiffest stiffest() const;
  // Stores the bodies anew, body order[k] at k (World::reorder), and moves the run's whole state
  // with them as a saved run is read back (the cached loads, the contact springs through
  // ForceModel::renumber_state), so it goes on as it would reloaded. False, the run untouched,
  // where a part of the state cannot move: rigid contact, shapes other than spheres, a method's
  // per-body history, a model naming bodies. For speed only (core/spatial_order.hpp).
  bool reorder_bodies(const std::vector<int>& order);

 public:
  struct Evaluation {
    Positions force, torque;
    Powers powers;       // at the evaluated velocities: pair terms plus translational body work
    Powers pair_powers;  // the models' own power scalars (dashpots, contacts)
    bool body_powers = true;  // powers include the body work (left out if nothing reads it)
    Positions external_force, external_torque, drag_force, drag_torque;  // if tracked, else empty
    DragMarks drag_marks;  // which bodies' drag loads may be non-zero (for speed only)
    double potential = 0;
    std::vector<double> potentials;
    int contacts = 0, wall_contacts = 0;
  };

 private:
  friend class Dynamics;
  // `defer`: the passes that finish `out` (adding up loads, powers) stay queued for the step to
  // run with its closing kicks; the step flushes them before anything reads `out`.
  void evaluate(const Positions& x, const Positions& v, double t, bool commit, Evaluation& out,
                bool defer = false);
  void ensure_start_evaluation();
  // Runs the queued passes over the bodies (passes_); every reader of the state flushes first.
  // With a step's closing passes carried in (advance), reports that step's non-finite state by
  // throwing Carried, before anything of the next step reads positions (the neighbour list).
  void flush();
  void book_kick(const Evaluation& e, const Positions& v_before, const Positions& v_after,
                 double h);
  void kick_and_book(const Evaluation& e, double h);  // queued
  template <class Mean4, class Mean>
  void queue_body_work(const Positions& external, const Positions& drag, const std::uint8_t* marks,
                       double h, Mean4 mean4, Mean mean, Powers first = {});
  std::function<void()> book_sums(const double* sums, Powers first);
  void rotation_half(bool first, double work_h);
  std::optional<StepFailure> take_step();
  std::optional<StepFailure> step_once();
  Copy settings() const;  // copy() without the World and the carried state
  // A run stored in spatial order (World::ids) sorted again at each multiple of kResortEvery
  // steps; called between steps, nothing carried (simulation_order.cpp).
  void keep_spatial_order();
  std::optional<StepFailure> check_or_carry();
  // The free-sphere sweep (core/sphere_sweep.hpp, simulation_sweep.cpp): a velocity-Verlet step
  // with Buss2's halves, its per-body work queued as one pass. For speed only.
  bool sweep_applies() const;
  std::optional<StepFailure> take_swept_step();
  void queue_sweep(bool open, Powers booked);
  SphereSweep committed_sweep();
  // A 2-D World whose models do not all keep their loads in the plane: each evaluation clears
  // what leaves it (a pass of its own).
  bool clears_plane() const;
  // Free flight (simulation_flight.cpp): up to `most` steps taken at once where the models can
  // prove them quiet; how many. For speed only.
  bool may_fly() const;
  long fly(long most);
  // Runs a step or a flight: a carried step's failure (found as it flushes) is returned; any
  // exception drops the queued passes.
  std::optional<StepFailure> guarded(const std::function<std::optional<StepFailure>()>& work);
  // Constraint models that keep their rows exactly move the state back onto them after the step
  // (ForceModel::correct); the energy that changes is booked as theirs.
  void correct_step();
  // Contact treatment `impulse` (core/impulse/impulse_contact.hpp). At the start of each step
  // the contacts are found and the overlap the last step left is taken out of the positions;
  // the impacts and resting contacts act on the drift velocity where the method has one
  // (Dynamics::drift: velocity Verlet, symplectic Euler), otherwise on the velocities at the
  // step's end (found anew there). The impulses' loss is booked as dissipation, the
  // correction's change as its own term. Everything read is the saved state, so a reloaded run
  // continues bit for bit.
  void find_rigid_contacts();
  void rigid_start_step();
  void rigid_impulses();
  void rigid_contact_step();
  unsigned tracks_body_work() const;  // BodyWork bits
  // track_body_work_, drag_marked_, torque_marked_ and special_bodies_, for this World
  void decide_tracking();
  // After the finiteness check's pass has run: step's failure, naming the first bad body.
  std::optional<StepFailure> finite_verdict(long step, bool potential_finite) const;

  World world_;
  std::unique_ptr<Integrator> integrator_;
  std::unique_ptr<RotationScheme> rotation_;
  std::string integrator_name_, rotation_name_;
  double dt_;
  double time_ = 0;
  long step_ = 0;
  std::uint64_t seed_ = 1;
  Parallel* parallel_ = nullptr;
  Random random_;

  Evaluation cached_, trial_;
  Positions w_before_;  // angular velocities before the current rotation kick
  std::vector<double> spins_before_[kMaxTasks];  // the same for one range of bodies, per task
  std::vector<int> marked_bodies_[kMaxTasks];    // and the bodies whose drag torques it books
  unsigned track_body_work_ = 0;
  // Only models that mark the bodies they give drag loads add any (DragMarks; for speed only).
  bool drag_marked_ = false;
  bool torque_marked_ = false;   // and every torque is added where a drag mark is (marks_torque)
  bool special_bodies_ = false;  // some body is driven or pivoted
  bool cache_valid_ = false;
  bool end_evaluated_ = false;
  ForceSums scratch_;
  bool in_place_ = true;      // set_in_place
  bool evaluating_in_place_ = false;  // scratch_ holds the start evaluation's loads, being cleared
  // The last committed evaluation's torques, which the rotation's queued halves read when they
  // run: in cached_, or in scratch_ while an evaluation in place clears them block by block after
  // the reads (the closing half of a step carried into the next one reads them there too).
  const Positions& committed_torque() const {
    return evaluating_in_place_ ? scratch_.torque : cached_.torque;
  }
  Positions& committed_torque_storage() {  // the same, for a pass that clears them
    return evaluating_in_place_ ? scratch_.torque : cached_.torque;
  }
  // advance() lets a step's closing passes (load combining, closing kicks, finiteness check) run
  // in the next step's first sweep over the bodies, which reads the same arrays: one sweep less
  // per step. For speed only; bit-identical to stepping one at a time (tested).
  struct Carried {
    StepFailure failure;
  };
  // The sweep's closing pass of the last step, while it waits last in the queue (generation and
  // size of the queue when it was added), the kick's work it books and its drag work sums.
  struct SweepClose {
    long generation = -1;
    int size = 0;
    Powers booked;
    double* sums = nullptr;
    bool still_known = false;  // its SphereSweep::still_known
  } sweep_close_;
  bool sweep_enabled_ = true;
  long swept_steps_ = 0, swept_fields_ = 0, swept_watches_ = 0;
  SweepCounts sweep_counts_[kMaxTasks] = {};
  // Whether nothing but sweeps has changed the bodies since the last sweep (so SphereSweep::still
  // holds for the state the next one starts from, and SweepShare::only_swept): made true by
  // queuing a sweep, false by anything else that may move bodies, change spins or moments or
  // their order (edits, other steps, flights, sorting, loading, a dropped queue).
  std::vector<std::uint8_t> still_;
  bool only_swept_ = false;
  bool opening_only_swept_ = false;  // only_swept_ as the last opening sweep was queued
  long swept_at_ = -1;  // the step the sweep last took (sweep_share_ is its evaluation's)
  bool flight_enabled_ = true;
  long flown_steps_ = 0, flights_ = 0;
  long flight_retry_at_ = 0;    // no flight asked for before this step
  bool sweep_cleared_ = false;  // the next evaluation's loads are cleared by a queued sweep
  SweepShare sweep_share_;      // what the models of that evaluation handed to the sweep
  bool carry_ = false;          // this step may leave its closing passes queued
  bool carried_check_ = false;  // queued: a step's finiteness check, not yet looked at
  long carried_step_ = 0;       // that step's number
  BodyPasses passes_;  // per-body work queued to run fused (core/body_passes.hpp)
  bool finite_[kMaxTasks] = {};

  double initial_energy_ = 0;
  bool ledger_started_ = false;
  double external_work_ = 0;
  double dissipated_ = 0;
  double internal_dissipation_base_ = 0;
  double internal_correction_base_ = 0;  // the models' internal_correction() at the ledger's start

  ImpulseContact impulse_;
  ImpulseContact::Figures impulse_figures_;
  std::vector<ForceModel::RigidContact> rigid_;
  VecX gained_;  // per body: the speed a step's forces give it
  bool drift_solved_ = false;   // this step's impulses acted on its drift velocity
  bool spins_changed_ = false;  // and changed angular velocities
  double contact_corrected_ = 0;
};

}  // namespace stepwise
