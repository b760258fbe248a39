#pragma once
// A list of constraints and what is done with all their rows at once: the multipliers at an
// evaluation, and the corrections that put a state back onto C = 0 and Ċ = 0.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/constraints/constraint_solver.hpp"

namespace stepwise {

enum class Drift { none, baumgarte, projection, rattle };

struct ConstraintReport {
  int rows = 0;
  double max_c = 0, max_rate = 0;  // max |C| and max |Ċ| over the rows
};

class ConstraintSet {
 public:
  explicit ConstraintSet(const ParamTable& p);  // the [[constraint]] tables
  ConstraintSet(const ConstraintSet& other);
  void validate(const World& world) const;
  void save(ParamTable& out) const;
  bool angular() const;  // some row depends on orientations
  bool moving() const;   // some row depends on time

  struct Solution {
    VecX lambda;
    double motor_power = 0;      // work rate of moving constraints on the bodies
    double stabiliser_loss = 0;  // rate Baumgarte's terms take out
    int rank = 0;                // of J W Jᵀ: below the rows, some are redundant
  };
  // The multipliers at the state, with the other models' forces and torques.
  Solution solve(const ConstraintState& s, const Positions& force, const Positions& torque,
                 double alpha, double beta);
  void add_forces(const VecX& lambda, Positions& force, Positions& torque) const;
  // max |C| and max |Ċ| at a state (the rows built afresh).
  ConstraintReport measure(const ConstraintState& s) const;
  void segments(const ConstraintState& s, std::vector<std::pair<Vec3, Vec3>>& out) const;

  // Moves positions (and orientations) onto C = 0 along W Jᵀ, by Newton's iterations.
  void project_positions(World& world, double time);
  // Velocities and spins onto Ċ = 0 along W Jᵀ (the smallest change in kinetic energy's metric).
  void project_velocities(World& world, double time);
  // SHAKE: the drifted positions back onto C = 0 along W Jᵀ taken at x0, velocities by the same
  // displacement over h; with the velocity projection after the step this is RATTLE.
  void shake(World& world, const Positions& x0, double h, double time);

 private:
  void evaluate(const ConstraintState& s);  // fills rows_
  void positions_error(const ConstraintState& s, VecX& c) const;  // C alone, row by row
  void inverses(const World& world);        // fills inverse_
  // What a body's W block is made from (body_inverse), bit for bit. For speed only: a step
  // evaluates at one orientation two or three times, and its blocks are kept while this holds.
  struct InverseKey {
    double values[9];  // orientation, principal moments, inverse mass, flags (no padding)
  };
  static InverseKey inverse_key(const World& world, int body);
  // Per-body changes W Jᵀ δ of these rows, over the bodies they touch (indexed by body).
  void spread(const std::vector<ConstraintRow>& rows, const std::vector<int>& bodies,
              const VecX& delta, std::vector<Vec3>& linear, std::vector<Vec3>& angular) const;

  std::vector<std::unique_ptr<Constraint>> constraints_;
  std::vector<ConstraintRow> rows_;
  std::vector<BodyInverse> inverse_;
  std::vector<InverseKey> inverse_keys_;  // inverse_'s, where known_ (indexed by body)
  std::vector<std::uint8_t> known_;
  std::vector<int> bodies_;  // every body some row touches, ascending
  // The rows' ends (body[0], body[1] per row) bodies_ was found from: the same ends give the
  // same bodies, not sorted again (for speed only; a constraint's ends do not move).
  std::vector<int> row_ends_;
  ConstraintSolver solver_;
};

}  // namespace stepwise
