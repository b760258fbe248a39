#include "core/impulse/contact_system.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {
namespace {

Mat3 cross_matrix(const Vec3& r) {
  Mat3 m;
  m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return m;
}

// Two unit tangents completing n to a right-handed frame.
Mat3 contact_frame(const Vec3& n) {
  const Vec3 helper = std::abs(n.x()) < 0.57 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 t1 = n.cross(helper).normalized();
  Mat3 frame;
  frame << n, t1, n.cross(t1);
  return frame;
}

// The symmetric 2x2 tangential block in closed form: eigenvalues from its trace and
// discriminant, the first eigenvector from the off-diagonal entry.
void tangent_block(ContactSystem::Row& r) {
  const double a = r.K(1, 1), b = r.K(1, 2), d = r.K(2, 2);
  const double mean = 0.5 * (a + d), half = std::sqrt(0.25 * (a - d) * (a - d) + b * b);
  r.tangent_eigen = Eigen::Vector2d(mean - half, mean + half);
  // Eigenvector of the smaller eigenvalue: (b, lambda - a), or (lambda - d, b); the longer.
  Eigen::Vector2d e(b, r.tangent_eigen(0) - a), f(r.tangent_eigen(0) - d, b);
  Eigen::Vector2d v = e.squaredNorm() >= f.squaredNorm() ? e : f;
  v = v.squaredNorm() > 0 ? Eigen::Vector2d(v.normalized()) : Eigen::Vector2d(1, 0);
  r.tangent_axes << v(0), -v(1), v(1), v(0);
  const double det = a * d - b * b;
  r.tangent_inverse << d / det, -b / det, -b / det, a / det;
}

}  // namespace

int ContactSystem::body_of(const World& world, int i) {
  if (slot_[i] >= 0) return slot_[i];
  Body b{i, world.v.col(i), world.w.col(i), 0, Mat3::Zero(), false, world.x.col(i)};
  // Fixed and driven bodies do not move under impulses. A pivoted one turns about its pivot: no
  // inverse mass, its inertia about the pivot, arms from the pivot (its velocity there is 0 and
  // the pivot's reaction has no moment about it, so the problem needs nothing more).
  const bool pivoted = (world.flags[i] & kPivot) && !(world.flags[i] & (kFixed | kDriven));
  b.moves = world.inv_mass(i) > 0 || pivoted;
  if (b.moves) {
    b.inv_mass = world.inv_mass(i);
    const Mat3 R = world.q[i].toRotationMatrix();
    b.inv_inertia = R * world.rotational_inertia(i).cwiseInverse().asDiagonal() * R.transpose();
    if (pivoted) b.origin = world.pivot.col(i);
  }
  slot_[i] = int(bodies_.size());
  bodies_.push_back(b);
  return slot_[i];
}

void ContactSystem::build(const World& world,
                          const std::vector<ForceModel::RigidContact>& contacts) {
  bodies_.clear();
  rows_.clear();
  spins_.clear();
  slot_.assign(world.size(), -1);
  for (const ForceModel::RigidContact& c : contacts) {
    Row& r = rows_.emplace_back();  // filled in place: a row is a few hundred bytes
    r.a = body_of(world, c.i);
    r.b = c.j >= 0 ? body_of(world, c.j) : -1;
    r.ra = c.position - bodies_[r.a].origin;
    r.rb = c.j >= 0 ? Vec3(c.position - bodies_[r.b].origin) : Vec3::Zero();
    r.frame = contact_frame(c.normal);
    r.wall_velocity = c.wall_velocity;
    r.mu = c.mu;
    r.depth = c.depth;
    // In the frame F: K = (1/m) 1 + C^T I^-1 C per moving body, C = [r]x F (the columns r x n,
    // r x t1, r x t2), since -[r]x I^-1 [r]x = [r]x^T I^-1 [r]x and F^T F = 1.
    r.K.setZero();
    for (int side = 0; side < 2; ++side) {
      const int k = side ? r.b : r.a;
      Mat3& C = side ? r.arm_b : r.arm_a;
      Mat3& turn = side ? r.turn_b : r.turn_a;
      C.setZero();
      turn.setZero();
      if (k < 0) continue;
      const Vec3& arm = side ? r.rb : r.ra;
      C << arm.cross(r.frame.col(0)), arm.cross(r.frame.col(1)), arm.cross(r.frame.col(2));
      if (!bodies_[k].moves) continue;
      turn.noalias() = bodies_[k].inv_inertia * C;
      r.K.noalias() += C.transpose() * turn;
      r.K.diagonal().array() += bodies_[k].inv_mass;
    }
    tangent_block(r);
    r.inv_kn = 1 / r.K(0, 0);
    if (c.roll_cap > 0 || c.twist_cap > 0) {
      Mat3 turn = Mat3::Zero();
      for (int k : {r.a, r.b})
        if (k >= 0 && bodies_[k].moves) turn += bodies_[k].inv_inertia;
      Spin spin;
      spin.roll_cap = c.roll_cap;
      spin.twist_cap = c.twist_cap;
      spin.K = r.frame.transpose() * turn * r.frame;
      spin.inverse = spin.K.inverse();
      if (spin.inverse.allFinite()) {  // something can turn
        r.spin = int(spins_.size());
        spins_.push_back(spin);
      }
    }
  }
}

Vec3 ContactSystem::spin(const Row& r) const {
  Vec3 w = bodies_[r.a].w;
  if (r.b >= 0) w -= bodies_[r.b].w;
  return r.frame.transpose() * w;
}

void ContactSystem::apply_spin(Row& r, const Vec3& delta) {
  spins_[r.spin].impulse += delta;
  const Vec3 m = r.frame * delta;
  each_moving(
      r, [&](Body& body, double sign, const Mat3&) { body.w += body.inv_inertia * (sign * m); });
}

void ContactSystem::write_back(World& world) const {
  for (const Body& b : bodies_) {
    if (!b.moves) continue;
    world.v.col(b.index) = b.v;
    // The angular impulse taken: the change of w times the inertia it turns with (not summed
    // impulse by impulse: three additions fewer per body in every step of the sweeps).
    const Mat3 R = world.q[b.index].toRotationMatrix();
    world.L.col(b.index) += R * world.rotational_inertia(b.index).asDiagonal() * R.transpose() *
                            (b.w - world.w.col(b.index));
    world.sync_angular_velocity(b.index);
  }
}

std::vector<std::vector<int>> ContactSystem::islands() const {
  // Union-find over the moving bodies; a row joins its moving bodies.
  std::vector<int> parent(bodies_.size());
  for (size_t b = 0; b < parent.size(); ++b) parent[b] = int(b);
  auto root = [&parent](int b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  };
  auto moving = [this](int b) { return b >= 0 && bodies_[b].moves; };
  for (const Row& r : rows_)
    if (moving(r.a) && moving(r.b)) parent[root(r.a)] = root(r.b);
  std::vector<int> island_of(bodies_.size(), -1);
  std::vector<std::vector<int>> out;
  for (int k = 0; k < int(rows_.size()); ++k) {
    const Row& r = rows_[k];
    const int b = moving(r.a) ? r.a : moving(r.b) ? r.b : -1;
    if (b < 0) continue;  // nothing to move
    int& island = island_of[root(b)];
    if (island < 0) island = int(out.size()), out.emplace_back();
    out[island].push_back(k);
  }
  return out;
}

Eigen::MatrixXd ContactSystem::delassus(const std::vector<int>& rows) const {
  const int m = int(rows.size());
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3 * m, 3 * m);
  // Per moving body, the rows touching it and the side (+1: a, -1: b).
  std::vector<std::vector<std::pair<int, double>>> touching(bodies_.size());
  for (int k = 0; k < m; ++k) {
    const Row& r = rows_[rows[k]];
    if (r.a >= 0 && bodies_[r.a].moves) touching[r.a].push_back({k, 1.0});
    if (r.b >= 0 && bodies_[r.b].moves) touching[r.b].push_back({k, -1.0});
  }
  for (size_t b = 0; b < bodies_.size(); ++b) {
    const Body& body = bodies_[b];
    for (const auto& [k, sk] : touching[b]) {
      const Row& rk = rows_[rows[k]];
      const Mat3 arm_k = cross_matrix(sk > 0 ? rk.ra : rk.rb);
      for (const auto& [l, sl] : touching[b]) {
        const Row& rl = rows_[rows[l]];
        const Mat3 arm_l = cross_matrix(sl > 0 ? rl.ra : rl.rb);
        const Mat3 world = body.inv_mass * Mat3::Identity() - arm_k * body.inv_inertia * arm_l;
        A.block<3, 3>(3 * k, 3 * l) += sk * sl * (rk.frame.transpose() * world * rl.frame);
      }
    }
  }
  return A;
}

void ContactSystem::at_rest() {
  for (Body& b : bodies_) b.v = b.w = Vec3::Zero();
  for (Row& r : rows_) r.wall_velocity = r.impulse = Vec3::Zero(), r.mu = 0, r.spin = -1;
  spins_.clear();
}

}  // namespace stepwise
