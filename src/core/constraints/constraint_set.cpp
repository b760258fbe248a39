// The rows of every constraint together: multipliers, projections and SHAKE.
#include "core/constraints/constraint_set.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/quaternion.hpp"
#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

constexpr int kMaxIterations = 100;  // Newton / SHAKE sweeps before giving up on a step

// |C| small enough to stop at: round-off for positions of this size.
double tolerance(const World& world, const std::vector<int>& bodies) {
  double scale = 1;
  for (int b : bodies) scale = std::max(scale, world.x.col(b).cwiseAbs().maxCoeff());
  return 1e-13 * scale;
}

}  // namespace

ConstraintSet::ConstraintSet(const ParamTable& p) {
  for (const ParamTable& t : p.tables("constraint")) {
    const std::string kind = t.text("kind", "");
    if (!ConstraintRegistry::instance().contains(kind))
      throw InputError(t.where("kind") + ": " +
                       ConstraintRegistry::instance().unknown_message(kind));
    constraints_.push_back(ConstraintRegistry::instance().make(kind, t));
    t.reject_unused();
  }
}

ConstraintSet::ConstraintSet(const ConstraintSet& other)
    : rows_(other.rows_), inverse_(other.inverse_), bodies_(other.bodies_) {
  for (const auto& c : other.constraints_) constraints_.push_back(c->clone());
}

bool ConstraintSet::angular() const {
  return std::any_of(constraints_.begin(), constraints_.end(),
                     [](const auto& c) { return c->angular(); });
}

bool ConstraintSet::moving() const {
  return std::any_of(constraints_.begin(), constraints_.end(),
                     [](const auto& c) { return c->moving(); });
}

void ConstraintSet::validate(const World& world) const {
  for (size_t n = 0; n < constraints_.size(); ++n) {
    const auto [a, b] = constraints_[n]->bodies();
    const std::string what =
        "constraint " + std::to_string(n) + " (" + constraints_[n]->kind() + ")";
    if (a < 0 || a >= world.size() || b >= world.size() || a == b)
      throw InputError(what + ": bodies " + std::to_string(a) + ", " + std::to_string(b) +
                       " do not exist or are the same (the scene has " +
                       std::to_string(world.size()) + ")");
    for (int body : {a, b})
      if (body >= 0 && (world.flags[body] & kPivot))
        throw InputError(
            what + ": body " + std::to_string(body) +
            " turns about a pivot already; join it by a ball joint at an anchor instead");
  }
  // A row no body can move cannot be kept: say so now rather than at the first step.
  ConstraintSet copy(*this);
  copy.evaluate({world, world.x, world.v, world.w, 0.0});
  copy.inverses(world);
  copy.solver_.factor(copy.rows_, copy.inverse_);
  if (const int r = copy.solver_.immovable_row(); r >= 0) {
    int row = 0;
    for (size_t n = 0; n < constraints_.size(); row += constraints_[n++]->rows())
      if (r < row + constraints_[n]->rows())
        throw InputError("constraint " + std::to_string(n) + " (" + constraints_[n]->kind() +
                         "): no body it joins can move that way (J W Jt is singular): fixed, "
                         "driven or massless bodies, or a direction it does not constrain");
  }
}

void ConstraintSet::save(ParamTable& out) const {
  std::vector<ParamTable> tables;
  for (const auto& c : constraints_) {
    ParamTable t;
    t.set("kind", c->kind());
    c->save(t);
    tables.push_back(t);
  }
  out.set("constraint", tables);
}

void ConstraintSet::evaluate(const ConstraintState& s) {
  int count = 0;
  for (const auto& c : constraints_) count += c->rows();
  rows_.assign(count, ConstraintRow{});
  int at = 0;
  for (const auto& c : constraints_) {
    c->evaluate(s, rows_.data() + at);
    at += c->rows();
  }
  bool same_ends = row_ends_.size() == 2 * rows_.size();
  for (size_t r = 0; r < rows_.size() && same_ends; ++r)
    same_ends = row_ends_[2 * r] == rows_[r].body[0] && row_ends_[2 * r + 1] == rows_[r].body[1];
  if (same_ends) return;
  row_ends_.clear();
  bodies_.clear();
  for (const ConstraintRow& r : rows_)
    for (int b : r.body) {
      row_ends_.push_back(b);
      if (b >= 0) bodies_.push_back(b);
    }
  std::sort(bodies_.begin(), bodies_.end());
  bodies_.erase(std::unique(bodies_.begin(), bodies_.end()), bodies_.end());
}

void ConstraintSet::positions_error(const ConstraintState& s, VecX& c) const {
  int count = 0;
  for (const auto& constraint : constraints_) count += constraint->rows();
  c.resize(count);
  int at = 0;
  for (const auto& constraint : constraints_) {
    constraint->positions_error(s, c.data() + at);
    at += constraint->rows();
  }
}

ConstraintSet::InverseKey ConstraintSet::inverse_key(const World& world, int body) {
  InverseKey key;
  std::memcpy(key.values, world.q[body].coeffs().data(), 4 * sizeof(double));
  std::memcpy(key.values + 4, world.inertia.col(body).data(), 3 * sizeof(double));
  key.values[7] = world.inv_mass(body);
  key.values[8] = world.flags[body];
  return key;
}

void ConstraintSet::inverses(const World& world) {
  inverse_.resize(world.size());
  inverse_keys_.resize(world.size());
  known_.resize(world.size(), 0);
  for (int b : bodies_) {
    // (a pivot's moments also depend on its arm and mass: never kept; no constraint takes one)
    const InverseKey key = inverse_key(world, b);
    if (known_[b] && std::memcmp(&key, &inverse_keys_[b], sizeof key) == 0) continue;
    inverse_[b] = body_inverse(world, b);
    inverse_keys_[b] = key;
    known_[b] = (world.flags[b] & kPivot) == 0;
  }
}

void ConstraintSet::spread(const std::vector<ConstraintRow>& rows, const std::vector<int>& bodies,
                           const VecX& delta, std::vector<Vec3>& linear,
                           std::vector<Vec3>& angular) const {
  linear.assign(inverse_.size(), Vec3::Zero());
  angular.assign(inverse_.size(), Vec3::Zero());
  for (size_t r = 0; r < rows.size(); ++r)
    for (int k = 0; k < 2; ++k)
      if (const int b = rows[r].body[k]; b >= 0) {
        linear[b] += delta(r) * rows[r].lin[k];
        angular[b] += delta(r) * rows[r].ang[k];
      }
  for (int b : bodies) {
    linear[b] *= inverse_[b].inv_mass;
    angular[b] = inverse_[b].inv_inertia * angular[b];
  }
}

ConstraintSet::Solution ConstraintSet::solve(const ConstraintState& s, const Positions& force,
                                             const Positions& torque, double alpha, double beta) {
  evaluate(s);
  inverses(s.world);
  solver_.factor(rows_, inverse_);
  const int m = static_cast<int>(rows_.size());
  VecX b(m), stabiliser(m), velocity(m);
  Solution out;
  for (int r = 0; r < m; ++r) {
    const ConstraintRow& row = rows_[r];
    double free_accel = 0;  // J q̈ of the bodies as the other forces alone would move them
    for (int k = 0; k < 2; ++k) {
      const int i = row.body[k];
      if (i < 0) continue;
      const BodyInverse& w = inverse_[i];
      const Vec3 spin = s.w.col(i);
      const Vec3 alpha_free = w.inv_inertia * (torque.col(i) - spin.cross(s.world.L.col(i)));
      free_accel += row.lin[k].dot(w.inv_mass * force.col(i)) + row.ang[k].dot(alpha_free);
    }
    velocity(r) = constraint_velocity(row, s.v, s.w);
    const double rate = velocity(r) + row.dcdt;
    stabiliser(r) = -2 * alpha * rate - beta * beta * row.c;
    b(r) = -row.bias - free_accel + stabiliser(r);
  }
  out.lambda = solver_.solve(b);
  out.rank = solver_.rank();
  for (int r = 0; r < m; ++r) out.motor_power -= out.lambda(r) * rows_[r].dcdt;
  if (alpha != 0 || beta != 0) out.stabiliser_loss = -solver_.solve(stabiliser).dot(velocity);
  return out;
}

void ConstraintSet::add_forces(const VecX& lambda, Positions& force, Positions& torque) const {
  for (size_t r = 0; r < rows_.size(); ++r)
    for (int k = 0; k < 2; ++k)
      if (const int b = rows_[r].body[k]; b >= 0) {
        force.col(b) += lambda(r) * rows_[r].lin[k];
        torque.col(b) += lambda(r) * rows_[r].ang[k];
      }
}

ConstraintReport ConstraintSet::measure(const ConstraintState& s) const {
  // Cheap enough to run for every plotted sample: the rows only, no factorisation.
  ConstraintReport out;
  std::vector<ConstraintRow> rows;
  for (const auto& c : constraints_) {
    rows.assign(c->rows(), ConstraintRow{});
    c->evaluate(s, rows.data());
    for (const ConstraintRow& row : rows) {
      out.max_c = std::max(out.max_c, std::abs(row.c));
      out.max_rate =
          std::max(out.max_rate, std::abs(constraint_velocity(row, s.v, s.w) + row.dcdt));
      ++out.rows;
    }
  }
  return out;
}

void ConstraintSet::segments(const ConstraintState& s,
                             std::vector<std::pair<Vec3, Vec3>>& out) const {
  for (const auto& c : constraints_) c->segments(s, out);
}

void ConstraintSet::project_positions(World& world, double time) {
  std::vector<Vec3> linear, angular;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    evaluate({world, world.x, world.v, world.w, time});
    VecX c(rows_.size());
    for (size_t r = 0; r < rows_.size(); ++r) c(r) = rows_[r].c;
    if (c.size() == 0 || c.cwiseAbs().maxCoeff() <= tolerance(world, bodies_)) return;
    inverses(world);
    solver_.factor(rows_, inverse_);
    spread(rows_, bodies_, solver_.solve(-c), linear, angular);
    for (int b : bodies_) {
      world.x.col(b) += linear[b];
      if (angular[b] != Vec3::Zero()) {
        const Vec3 spin = world.w.col(b);
        world.q[b] = quat::product(quat::exp_map(angular[b]), world.q[b]).normalized();
        world.set_angular_velocity(b, spin);  // the same spin in the turned frame
      }
    }
  }
}

void ConstraintSet::project_velocities(World& world, double time) {
  evaluate({world, world.x, world.v, world.w, time});
  inverses(world);
  solver_.factor(rows_, inverse_);
  VecX rate(rows_.size());
  for (size_t r = 0; r < rows_.size(); ++r)
    rate(r) = constraint_velocity(rows_[r], world.v, world.w) + rows_[r].dcdt;
  if (rate.size() == 0) return;
  std::vector<Vec3> linear, angular;
  spread(rows_, bodies_, solver_.solve(-rate), linear, angular);
  for (int b : bodies_) {
    world.v.col(b) += linear[b];
    if (angular[b] != Vec3::Zero()) world.set_angular_velocity(b, world.w.col(b) + angular[b]);
  }
}

void ConstraintSet::shake(World& world, const Positions& x0, double h, double time) {
  // Directions W Jᵀ at the step's start, factored once; the iterations are the quasi-Newton
  // solve of C(x + W J0ᵀ δ) = 0 (J changes by O(h) over a step, so each sweep gains O(h)).
  evaluate({world, x0, world.v, world.w, time - h});
  inverses(world);
  solver_.factor(rows_, inverse_);
  const std::vector<ConstraintRow> start = rows_;
  const std::vector<int> bodies = bodies_;
  const Positions drifted = world.x;
  std::vector<Vec3> linear, angular;
  VecX c;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    positions_error({world, world.x, world.v, world.w, time}, c);
    if (c.size() == 0 || c.cwiseAbs().maxCoeff() <= tolerance(world, bodies)) break;
    spread(start, bodies, solver_.solve(-c), linear, angular);
    for (int b : bodies) world.x.col(b) += linear[b];
  }
  for (int b : bodies) world.v.col(b) += (world.x.col(b) - drifted.col(b)) / h;
}

}  // namespace stepwise
