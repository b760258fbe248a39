// The `constraints` force model: constraint forces that do no work, by Lagrange multipliers
// (seed 004). With the other models' forces Q and W = M⁻¹ it solves
//   J W Jᵀ λ = -J̇ q̇ - J W Q  (- 2α Ċ - β² C with Baumgarte's drift control)
// at every evaluation and adds Jᵀ λ, so every integrator and rotation scheme runs constrained
// bodies. It reads the others' forces, so World::add_force keeps it after them. Drift control:
// none, baumgarte, projection (onto C = 0 and Ċ = 0 after each step, its energy change booked as
// its own ledger term) or rattle (SHAKE after velocity Verlet's drift, velocities onto Ċ = 0
// after the step: symplectic constrained Verlet).
#include <cmath>

#include "core/body_passes.hpp"
#include "core/constraints/constraint_set.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

const char* const kDriftNames[] = {"none", "baumgarte", "projection", "rattle"};

Drift parse_drift(const ParamTable& p) {
  const std::string name = p.text("drift", "none");
  for (int k = 0; k < 4; ++k)
    if (name == kDriftNames[k]) return Drift(k);
  const std::string where = p.where("drift").empty() ? "constraints" : p.where("drift");
  throw InputError(where + ": drift must be none, baumgarte, projection or rattle, not '" + name +
                   "'");
}

class Constraints final : public ForceModel {
 public:
  explicit Constraints(const ParamTable& p) : set_(p), drift_(parse_drift(p)) {
    alpha_ = p.number("alpha", 10.0);
    beta_ = p.number("beta", 10.0);
    if (!(alpha_ >= 0 && alpha_ <= 1e6) || !(beta_ >= 0 && beta_ <= 1e6))
      throw InputError(p.where() + ": alpha and beta must be in [0, 1e6]");
  }
  std::string kind() const override { return "constraints"; }
  std::unique_ptr<ForceModel> clone() const override {
    return std::make_unique<Constraints>(*this);
  }
  void validate(const World& world) const override { set_.validate(world); }
  bool reads_other_forces() const override { return true; }

  void apply(const StateView& s, ForceSums& out, const EvalContext& ctx) override {
    // The others' loads must be complete: Q enters the multipliers.
    if (ctx.after) ctx.after->run(ctx.parallel, s.world.size());
    const ConstraintState state{s.world, s.x, s.v, s.w, ctx.time};
    ConstraintSet::Solution sol =
        set_.solve(state, out.force, out.torque, drift_ == Drift::baumgarte ? alpha_ : 0.0,
                   drift_ == Drift::baumgarte ? beta_ : 0.0);
    set_.add_forces(sol.lambda, out.force, out.torque);
    out.external_power += sol.motor_power;
    out.dissipation_power += sol.stabiliser_loss;
    if (ctx.commit) time_ = ctx.time, rank_ = sol.rank;
  }

  bool corrects() const override { return drift_ == Drift::projection || drift_ == Drift::rattle; }
  bool wants_shake() const override {
    return drift_ == Drift::rattle && !set_.angular() && !set_.moving();
  }
  void shake(World& world, const Positions& x0, double h, double time) override {
    set_.shake(world, x0, h, time);
    shaken_ = true;
  }
  bool correct(World& world, double time) override {
    time_ = time;
    // RATTLE's velocity half follows a SHAKE; without one (another integrator, joints that turn
    // bodies, a moving constraint) the step is projected, positions and velocities, and booked.
    const bool rattle = drift_ == Drift::rattle && shaken_;
    shaken_ = false;
    if (!rattle) set_.project_positions(world, time);
    set_.project_velocities(world, time);
    book_next_ = !rattle;
    return true;
  }
  void book_correction(double energy) override {
    if (book_next_) correction_ += energy;
  }
  double internal_dissipation() const override { return -correction_; }

  void figures(const World& world, std::vector<Figure>& out) const override {
    const ConstraintReport r = set_.measure({world, world.x, world.v, world.w, time_});
    out.push_back({"rows", double(r.rows)});
    out.push_back({"rank", double(rank_)});  // of J W Jt at the last step; below rows: redundant
    out.push_back({kMaxConstraintError, r.max_c});
    out.push_back({kMaxConstraintRate, r.max_rate});
    if (drift_ == Drift::projection || drift_ == Drift::rattle)
      out.push_back({"projection energy", correction_});
  }
  void segments(const World& world, std::vector<Segment>& out) const override {
    std::vector<std::pair<Vec3, Vec3>> lines;
    set_.segments({world, world.x, world.v, world.w, time_}, lines);
    for (const auto& [from, to] : lines) out.push_back({from, to});
  }

  void save(ParamTable& out) const override {
    set_.save(out);
    out.set("drift", std::string(kDriftNames[int(drift_)]));
    out.set("alpha", alpha_);
    out.set("beta", beta_);
  }
  void save_state(ParamTable& out) const override { out.set("correction", correction_); }
  void load_state(const ParamTable& in) override { correction_ = in.number("correction", 0.0); }

  std::vector<Tunable> tunables() const override {
    return {{"drift",
             double(int(drift_)),
             "drift control: 0 none, 1 Baumgarte, 2 projection, 3 RATTLE",
             0,
             3,
             {kDriftNames, kDriftNames + 4}},
            {"alpha", alpha_, "Baumgarte's damping rate (1/s): C'' + 2 alpha C' + beta^2 C = 0", 0,
             1e6},
            {"beta", beta_, "Baumgarte's stiffness rate (1/s)", 0, 1e6}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "drift") drift_ = Drift(int(std::lround(value)));
    if (name == "alpha") alpha_ = value;
    if (name == "beta") beta_ = value;
  }

 private:
  ConstraintSet set_;
  Drift drift_;
  double alpha_ = 10, beta_ = 10;
  double time_ = 0;  // of the last committed evaluation: moving constraints' clock
  int rank_ = 0;
  double correction_ = 0;  // energy the projections added (booked as negative dissipation)
  bool shaken_ = false, book_next_ = false;
};

}  // namespace
STEPWISE_REGISTER_FORCE("constraints", Constraints);
}  // namespace stepwise
