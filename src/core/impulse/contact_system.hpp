#pragma once
// The velocity-level problem of rigid contact (seed 004): at each contact point the relative
// velocity u of body a against body b, in the point's frame (normal n pushing a out of b, two
// tangents), is linear in the impulses P at all points: an impulse P at a point changes u there
// by K P, with K = (1/m_a + 1/m_b) 1 - [r_a]x I_a^-1 [r_a]x - [r_b]x I_b^-1 [r_b]x (the seed's
// denominator is n.K n). Bodies that do not move under impulses (fixed, driven) and walls have
// no inverse mass; their velocity still enters u. A pivoted body turns about its pivot: no
// inverse mass, its inertia and arms about the pivot.
#include <vector>

#include "core/force_model.hpp"
#include "core/world.hpp"

namespace stepwise {

class ContactSystem {
 public:
  struct Body {
    int index;  // in the World
    Vec3 v, w;
    double inv_mass;
    Mat3 inv_inertia;  // world frame
    bool moves;
    Vec3 origin;  // what it turns about: its centre, or its pivot
  };
  struct Row {
    int a, b;     // into bodies(); b = -1: a wall
    Vec3 ra, rb;  // arms from the centres to the point
    Mat3 frame;   // columns: n, t1, t2 (world)
    Mat3 K;       // in the frame
    // The tangential block of K: its inverse, and its eigenvectors (columns) and eigenvalues,
    // for the friction update (worked out once: the solvers read them every sweep).
    Eigen::Matrix2d tangent_inverse, tangent_axes;
    Eigen::Vector2d tangent_eigen;
    double inv_kn;  // 1 / K(0, 0): a division off the sweeps' chain of dependent steps
    // Per side, C = [r]x F (columns r x n, r x t1, r x t2: the spin w gives the point C^T w in
    // the frame) and I^-1 C (the spin an impulse in the frame gives the body). Worked out once
    // for the sweeps, which would otherwise redo two cross products and a product with I^-1 per
    // point per sweep (for speed only: ra, rb and the bodies' I^-1 say the same).
    Mat3 arm_a, arm_b, turn_a, turn_b;
    Vec3 wall_velocity;
    double mu, depth;
    Vec3 impulse = Vec3::Zero();  // taken so far, in the frame (normal, t1, t2)
    double slide = 0;  // sliding_impulse's multiplier when it last slid: where its next starts
    int spin = -1;     // its rolling and twisting resistance in spins(), if it has any
  };
  // Rolling and twisting resistance at a point: the largest angular impulse per unit normal
  // impulse, the angular impulse taken so far (twist about n, rolling about t1, t2), how it
  // changes the relative spin there (F^T (I_a^-1 + I_b^-1) F) and that block's inverse. (A table
  // of its own: most rows have none, and a bigger row slows every sweep.)
  struct Spin {
    double roll_cap, twist_cap;
    Vec3 impulse = Vec3::Zero();
    Mat3 K, inverse;
  };

  // The rows of these contacts at the World's state (velocities read from it).
  void build(const World& world, const std::vector<ForceModel::RigidContact>& contacts);
  // u of a against b at row r, in its frame. (Defined below, inline: the solvers call these two
  // for every point in every sweep, and a call each costs the pile of boxes a tenth of its step;
  // velocity is forced inline, which GCC declined once a row held its arms.)
  Vec3 velocity(const Row& r) const;
  // Adds `delta` (frame) to row r's impulse and to the bodies' motion.
  void apply(Row& r, const Vec3& delta);
  // The spin of a against b at row r, in its frame; adds `delta` (frame) to its angular impulse.
  Vec3 spin(const Row& r) const;
  void apply_spin(Row& r, const Vec3& delta);
  // The bodies' new v and L (w from L) in the World.
  void write_back(World& world) const;
  // The same rows with every body at rest, walls still and no friction: the problem of moving
  // the bodies apart by displacements instead of velocities (the overlap's correction).
  void at_rest();

  // The rows in groups that share no moving body (islands): each can be solved on its own.
  std::vector<std::vector<int>> islands() const;
  // The Delassus matrix of these rows (3 per row, in their frames): how the impulses at all of
  // them change the velocities at each, dense. Row k's block on itself is K.
  Eigen::MatrixXd delassus(const std::vector<int>& rows) const;

  std::vector<Row>& rows() { return rows_; }
  const std::vector<Row>& rows() const { return rows_; }
  std::vector<Spin>& spins() { return spins_; }
  const std::vector<Body>& bodies() const { return bodies_; }

 private:
  int body_of(const World& world, int i);
  // push(body, sign, its I^-1 C) for a (sign 1) and b (-1): the row's moving bodies.
  template <class Push>
  void each_moving(const Row& r, Push&& push);
  std::vector<Body> bodies_;
  std::vector<int> slot_;  // per World body: its index in bodies_, or -1
  std::vector<Row> rows_;
  std::vector<Spin> spins_;
};

[[gnu::always_inline]] inline Vec3 ContactSystem::velocity(const Row& r) const {
  const Body& a = bodies_[r.a];
  if (r.b >= 0) {
    const Body& b = bodies_[r.b];
    return r.frame.transpose() * (a.v - b.v) + r.arm_a.transpose() * a.w -
           r.arm_b.transpose() * b.w;
  }
  return r.frame.transpose() * (a.v - r.wall_velocity) + r.arm_a.transpose() * a.w;
}

template <class Push>
inline void ContactSystem::each_moving(const Row& r, Push&& push) {
  if (r.a >= 0 && bodies_[r.a].moves) push(bodies_[r.a], 1.0, r.turn_a);
  if (r.b >= 0 && bodies_[r.b].moves) push(bodies_[r.b], -1.0, r.turn_b);
}

inline void ContactSystem::apply(Row& r, const Vec3& delta) {
  r.impulse += delta;
  const Vec3 p = r.frame * delta;
  each_moving(r, [&](Body& body, double sign, const Mat3& turn) {
    body.v += (sign * body.inv_mass) * p;
    body.w += turn * (sign * delta);
  });
}

}  // namespace stepwise
