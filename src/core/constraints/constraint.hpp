#pragma once
// Holonomic constraints C(q, t) = 0 kept by Lagrange multipliers (seed 004, "constrained
// dynamics"). A kind is one file plus one registration line; it gives its rows: the value C, the
// Jacobian J over the bodies' velocities (v, ω) so that Ċ = J q̇ + ∂C/∂t, and the rest of C̈,
// C̈ = J q̈ + bias. The `constraints` force model solves for the multipliers from these rows.
#include <memory>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "core/registry.hpp"
#include "core/types.hpp"

namespace stepwise {

class World;

// One scalar constraint on at most two bodies (body < 0: none, a fixed point of the world).
struct ConstraintRow {
  double c = 0;     // C(q, t)
  double dcdt = 0;  // ∂C/∂t: nonzero only for constraints that move (a spinning hoop)
  double bias = 0;  // C̈ − J q̈: the velocity products and time terms at the state
  int body[2] = {-1, -1};
  Vec3 lin[2] = {Vec3::Zero(), Vec3::Zero()};  // ∂Ċ/∂v of each body
  Vec3 ang[2] = {Vec3::Zero(), Vec3::Zero()};  // ∂Ċ/∂ω of each body (world frame)
};

// The state rows are evaluated at: positions and velocities may be a trial state's, the
// orientations and spins are the World's.
struct ConstraintState {
  const World& world;
  const Positions& x;
  const Positions& v;
  const Positions& w;
  double t;
};

class Constraint {
 public:
  static constexpr const char* kRegistryKind = "constraint";
  virtual ~Constraint() = default;
  virtual std::string kind() const = 0;
  virtual std::unique_ptr<Constraint> clone() const = 0;
  virtual int rows() const = 0;
  // Fills rows() rows.
  virtual void evaluate(const ConstraintState& s, ConstraintRow* out) const = 0;
  // C alone, rows() values, bit for bit evaluate()'s: what SHAKE's sweeps read. By default the
  // whole rows; kinds whose rows cost much more than C give it alone (for speed only).
  virtual void positions_error(const ConstraintState& s, double* c) const;
  // Whether C depends on orientations (joints at body-frame points, aligned axes): those need the
  // rotation schemes' orientations, so SHAKE/RATTLE, which moves positions only, cannot keep them.
  virtual bool angular() const = 0;
  // Whether C depends on time (a spinning hoop): its corrections do real work, which SHAKE's
  // mid-step move would leave unbooked, so such sets are projected and booked instead.
  virtual bool moving() const { return false; }
  // The bodies it names (-1 for none), checked against the World by the model.
  virtual std::pair<int, int> bodies() const = 0;
  virtual void save(ParamTable& out) const = 0;
  // What the window draws for it (a rod's line, a hoop's circle); nothing by default.
  virtual void segments(const ConstraintState& s, std::vector<std::pair<Vec3, Vec3>>& out) const {}
};

using ConstraintRegistry = Registry<Constraint, const ParamTable&>;

// J q̇ of a row at velocities v and spins w (Ċ is this plus ∂C/∂t).
double constraint_velocity(const ConstraintRow& row, const Positions& v, const Positions& w);

// A point fixed in a body (or, body < 0, a fixed point of the world) at the state: where it is,
// its velocity, its arm from the body's centre (world frame) and ω × (ω × arm), the part of its
// acceleration that the spin's own motion gives.
struct Attachment {
  Vec3 position, velocity, arm, centripetal;
};
Attachment attach(const ConstraintState& s, int body, const Vec3& point);
// attach()'s position alone, to the bit.
Vec3 attached_position(const ConstraintState& s, int body, const Vec3& point);

// Reads a body index key and a body-frame point / world anchor key for one end of a joint.
struct JointEnd {
  int body = -1;
  Vec3 point = Vec3::Zero();  // body frame, or the world anchor when body < 0
};
JointEnd read_end(const ParamTable& p, const std::string& body_key, const std::string& point_key,
                  int fallback_body);
// Joints (ball.cpp; the hinge is a ball joint plus two rows): the three rows that make a's and
// b's points coincide, the other end's keys (`b` with `point_b`, or `anchor`), and the lines
// drawn from each body's centre to the joint.
void ball_rows(const ConstraintState& s, const JointEnd& a, const JointEnd& b, ConstraintRow* row);
JointEnd read_other_end(const ParamTable& p);
void write_ends(ParamTable& out, const JointEnd& a, const JointEnd& b);
void joint_segments(const ConstraintState& s, const JointEnd& a, const JointEnd& b,
                    std::vector<std::pair<Vec3, Vec3>>& out);
// Whether a joint's ends sit off a body's centre, so that it acts on the bodies' spins.
bool off_centre(const JointEnd& a, const JointEnd& b);
// A direction key made unit length; InputError naming it if it is zero or not finite.
Vec3 read_direction(const ParamTable& p, const std::string& key, const Vec3& fallback);
void write_end(ParamTable& out, const JointEnd& end, const std::string& body_key,
               const std::string& point_key);

}  // namespace stepwise

#define STEPWISE_REGISTER_CONSTRAINT(NAME, CLASS)                                                \
  static const bool STEPWISE_CONCAT(registered_constraint_, __COUNTER__) =                       \
      ::stepwise::ConstraintRegistry::instance().add(NAME, [](const ::stepwise::ParamTable& p) { \
        return std::unique_ptr<::stepwise::Constraint>(std::make_unique<CLASS>(p));              \
      })
