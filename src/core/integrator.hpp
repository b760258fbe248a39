#pragma once
// Translational integrators and the Dynamics view they step. An integrator never sees a force
// model: it asks Dynamics for accelerations (or Jacobians) at whatever trial state it needs.
#include <memory>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "core/params.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"
#include "core/types.hpp"

namespace stepwise {

class World;
class Simulation;
using SparseMatrix = Eigen::SparseMatrix<double>;

// What users see about a method in `stepwise list`, the GUI and the README.
struct MethodInfo {
  std::string name;
  int order = 1;
  bool implicit = false;
  bool symplectic = false;
  int force_evals = 1;  // per step (implicit: per Newton iteration)
  std::string summary;
  std::string equations;
};

struct Powers {
  double dissipation = 0;
  double external = 0;
};

// Per-step figures an integrator may report (Newton iterations, adaptive sub-steps).
struct IntegratorStats {
  int newton_iterations = 0;
  int newton_matrices = 0;  // Jacobians built and factorised (modified Newton reuses one)
  int newton_iterated = 0;  // of those, solved by Jacobi's iteration (diagonally dominant)
  int newton_held = 0;      // bodies held at a jump in their residual (no root there)
  double newton_residual_rest = 0;  // the residual of the bodies not held (if any were)
  double newton_residual = 0;
  int substeps = 0;
  int rejected = 0;
  double max_error_estimate = 0;
  double last_substep = 0;
};

// For the simulation's own step, start_kick, drift, evaluate_end and end_kick queue their loops
// over the bodies to run fused (core/body_passes.hpp); every member that reads or changes the
// state or the ledger runs the queue first, so an integrator always sees the state its calls so
// far describe.
class Dynamics {
 public:
  // The simulation's own step: its start evaluation is the committed cache and its end commits.
  Dynamics(Simulation& sim, double t0, double h);
  // A sub-step (adaptive stepping): evaluations are trials and the energy it books is held until
  // the parent accepts it.
  Dynamics child(double t0, double h) const;

  int size() const;
  Positions& x();
  Positions& v();
  const VecX& inv_mass() const;
  const VecX& mass() const;
  double time() const { return t0_; }
  double step_size() const { return h_; }
  // Accelerations at the step's start state.
  const Positions& start_accel();
  Powers start_powers();
  // Accelerations at a trial state (x, v) at time t; orientations are the World's.
  void accel(const Positions& x, const Positions& v, double t, Positions& a, Powers* p = nullptr);
  // Evaluates at the World's current (x, v) as the step's end state (the root commits model
  // history there and keeps it as the next step's start evaluation).
  const Positions& end_accel(Powers* p = nullptr);
  void evaluate_end();  // the same, without forming accelerations (for start_kick / end_kick)
  // v += h F/m with the start (or end) evaluation's forces, booking their work over the kick as
  // account_start_kick / account_end_kick do: the kick and its booking in one pass over the bodies.
  void start_kick(double h);
  void end_kick(double h);
  void drift(double h);  // x += h v
  // ∂F/∂x and ∂F/∂v (3N x 3N), analytic where models provide them, finite differences otherwise.
  void jacobians(const Positions& x, const Positions& v, double t, SparseMatrix& dfdx,
                 SparseMatrix& dfdv);
  // Books ∫P dt with the integrator's own quadrature weight (weighted_dt = b_i * h).
  void account(const Powers& p, double weighted_dt);
  void add_dissipated(double energy);
  // Kick integrators (Verlet family): books the work of the start / end evaluation's forces over a
  // velocity kick exactly, h F.(v_before + v_after)/2, instead of a power sample.
  void account_start_kick(const Positions& v_before, const Positions& v_after, double h);
  void account_end_kick(const Positions& v_before, const Positions& v_after, double h);
  // A child's booked energy, for the parent to keep when it accepts the sub-step.
  Powers booked() const { return booked_; }
  void keep(const Powers& energy);
  Random& random();
  World& world();  // for the few methods that act on spins too (Langevin rotational noise)

 private:
  Simulation* sim_;
  double t0_, h_;
  bool root_;
  bool start_valid_ = false;
  Positions start_accel_, end_accel_;
  Powers start_powers_, end_powers_, booked_;
};

class Integrator {
 public:
  static constexpr const char* kRegistryKind = "integrator";
  virtual ~Integrator() = default;
  virtual MethodInfo info() const = 0;
  virtual void step(Dynamics& d, double dt) = 0;
  // Forget internal state (e.g. half-step velocities) after the World was changed from outside.
  virtual void reset() {}
  // Whether it reads the committed evaluations' powers (Dynamics::start_powers, end_accel);
  // methods that book their kicks exactly (Verlet's family) do not, so they are not computed.
  virtual bool reads_committed_powers() const { return true; }
  // step() is exactly start_kick(dt/2), drift(dt), evaluate_end(), end_kick(dt/2): the Simulation
  // may then run it as the free-sphere sweep does (core/sphere_sweep.hpp). For speed only.
  virtual bool plain_kick_drift_kick() const { return false; }
  // The largest omega * dt at which the method keeps an undamped oscillator x'' = -omega^2 x from
  // growing: 0 if it grows at any step (explicit Euler), infinity if never (implicit Euler). The
  // stability gauge reads it; a test checks it against the method's measured amplification.
  virtual double stability_limit() const = 0;
  virtual std::vector<Tunable> options() const { return {}; }
  // Throws InputError for an unknown option or a bad value.
  virtual void set_option(const std::string& name, const ParamValue& value);
  // Every option's value, numbers and names alike (adaptive's base method), as set_option takes
  // them: what copies and saves of a run carry. By default the numbers of options().
  virtual void save_options(ParamTable& out) const;
  // Sets every option save_options wrote (or a scene file's [integrator] table), in order.
  void set_options(const ParamTable& options);
  virtual IntegratorStats stats() const { return {}; }
  // Carried state (half-step velocities, step sizes) for bit-exact save and load.
  virtual void save_state(ParamTable& out) const {}
  virtual void load_state(const ParamTable& in) {}
};

using IntegratorRegistry = Registry<Integrator>;

// Helpers shared by integrators.
void accelerations(const Positions& force, const VecX& inv_mass, Positions& a);
double option_number(const std::string& integrator, const std::string& name,
                     const ParamValue& value);

}  // namespace stepwise

#define STEPWISE_REGISTER_INTEGRATOR(NAME, CLASS)                          \
  static const bool STEPWISE_CONCAT(registered_integrator_, __COUNTER__) = \
      ::stepwise::IntegratorRegistry::instance().add(                      \
          NAME, [] { return std::unique_ptr<::stepwise::Integrator>(std::make_unique<CLASS>()); })
