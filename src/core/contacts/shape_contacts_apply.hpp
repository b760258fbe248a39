#pragma once
// ShapeContacts' per-evaluation work (templated on the law); see shape_contacts.hpp.
#include "core/contacts/shape_contacts.hpp"

namespace stepwise {

// A pair's law: its two bodies' materials, or the wall's with its body's.
template <class Law>
const PairLaw<Law>& ShapeContacts::law_of(const MaterialLaws<Law>& laws, const World& world,
                                          const Pair& pair) {
  const int mi = world.material[pair.i];
  return pair.j >= 0 ? laws.pair(mi, world.material[pair.j]) : laws.wall(-1 - pair.j, mi);
}

template <class Law, bool Commit>
void ShapeContacts::apply(const StateView& s, const MaterialLaws<Law>& laws,
                          const ContactParams& params, const std::vector<WallPlane>& walls,
                          Parallel* parallel, ForceSums& out, ContactSums& sums) {
  if constexpr (Commit) reports_.clear();
  // Each body's rotation once, however many pairs and walls it is in.
  for (size_t k = 0; k < bodies_.size(); ++k)
    rotation_[k] = s.world.q[bodies_[k]].toRotationMatrix();
  // Tasks take consecutive pairs (a pair's cache and springs are its own; the collision table's
  // scratch is per thread), about equal shares of the last evaluation's work: the pairs whose
  // bounding spheres met cost a narrow-phase call each, the others one test. Below
  // the Parallel's min_pairs() (kParallelMinPairs) one task does it all.
  const int n = int(pairs_.size());
  const int tasks = !parallel || parallel->threads() <= 1 || n < parallel->min_pairs()
                        ? 1
                        : std::min(parallel->threads(), kMaxTasks);
  if (int(tasks_.size()) < tasks) tasks_.resize(tasks);
  std::vector<int>& bounds = task_bounds_;
  bounds.assign(tasks + 1, n);
  bounds[0] = 0;
  if (tasks > 1) {
    long total = 0;
    for (int cost : costs_) total += cost;
    long done = 0;
    for (int k = 0, t = 1; k < n && t < tasks; ++k) {
      done += costs_[k];
      while (t < tasks && done * tasks >= total * t) bounds[t++] = k + 1;
    }
  }
  auto run_task = [&](int t) {
    Task& task = tasks_[t];
    task.points.clear();
    task.released.clear();
    for (int k = bounds[t]; k < bounds[t + 1]; ++k)
      collect<Law, Commit>(s, k, laws, walls, params.dt, task);
  };
  if (tasks == 1)
    run_task(0);
  else
    parallel->run(tasks, run_task);
  // In pair order, whatever the number of tasks.
  points_.clear();
  for (int t = 0; t < tasks; ++t)
    for (Point& p : tasks_[t].points) points_.push_back(&p);
  // (A sum from +0 is never -0, so leaving out the pairs that let go of nothing keeps its bits.)
  if constexpr (Commit)
    for (int t = 0; t < tasks; ++t)
      for (double released : tasks_[t].released) sums.capped += released;
  apply_points<Law, Commit>(s, laws, params, walls, tasks, parallel, out, sums);
}

// One pair's manifold into points_; with Commit, the springs of features that stopped touching
// are let go (booked as GranularContacts::release does).
template <class Law, bool Commit>
void ShapeContacts::collect(const StateView& s, int k, const MaterialLaws<Law>& laws,
                            const std::vector<WallPlane>& walls, double dt, Task& task) {
  const World& world = s.world;
  Pair& pair = pairs_[k];
  const int i = pair.i, j = pair.j;
  const Vec3 xi = s.x.col(i);
  Contacts& manifold = task.manifold;
  manifold.clear();
  pair.normal_force = 0;
  int cost = 1;
  constexpr int kNarrowCost = 20;  // a narrow-phase call's cost in bounding-sphere tests
  if (j >= 0) {                    // the bounding spheres first
    const double reach = world.radius(i) + world.radius(j);
    if ((xi - s.x.col(j)).squaredNorm() < reach * reach) {
      CollisionTable::instance().collide(placement(s, i), placement(s, j), pair.cache, manifold);
      cost = kNarrowCost;
    }
  } else {
    const WallPlane& wall = walls[-1 - j];
    if (wall.normal.dot(xi) - wall.offset < world.radius(i)) {
      CollisionTable::instance().collide_wall(placement(s, i), wall.normal, wall.offset, manifold);
      cost = kNarrowCost;
    }
  }
  costs_[k] = cost;
  if (manifold.empty() && pair.springs.empty()) return;
  auto slip_at = [&](const Vec3& arm_i, const Vec3& arm_j) {
    Vec3 slip = s.v.col(i) + s.w.col(i).cross(arm_i);
    if (j >= 0)
      slip -= s.v.col(j) + s.w.col(j).cross(arm_j);
    else
      slip -= walls[-1 - j].velocity;
    return slip;
  };
  const double mi = world.mass(i), mj = j >= 0 ? world.mass(j) : 0;
  const double m_eff = j < 0 || world.inv_mass(j) == 0 ? mi
                       : world.inv_mass(i) == 0        ? mj
                                                       : mi * mj / (mi + mj);
  const double ci = world.shape[i]->contact_radius();
  const double r_eff =
      j < 0 ? ci : ci * world.shape[j]->contact_radius() / (ci + world.shape[j]->contact_radius());
  for (const ContactPoint& c : manifold) {
    // The arms reach each body's own deepest surface point, half the depth either side of the
    // point: a sphere's is its radius along the normal, as in the sphere kernels.
    const Vec3 half = 0.5 * c.depth * c.normal;
    Point p{&pair,
            c,
            c.position - half - xi,
            j >= 0 ? Vec3(c.position + half - s.x.col(j)) : Vec3::Zero(),
            Vec3::Zero(),
            m_eff,
            r_eff,
            Vec3::Zero(),
            0.0};
    p.slip = slip_at(p.arm_i, p.arm_j);
    for (const FeatureSpring& f : pair.springs)
      if (f.feature == c.feature) p.old = f.xi, p.old_kt = f.kt;
    task.points.push_back(p);
  }
  if constexpr (Commit) {
    const double release_kt = law_of(laws, s.world, pair).release_kt();
    double released = 0;
    for (const FeatureSpring& f : pair.springs) {
      bool touching = false;
      for (const ContactPoint& c : manifold) touching |= c.feature == f.feature;
      if (touching) continue;
      const Vec3 slip = slip_at(f.arm_i, f.arm_j);
      const double kt = f.kt > 0 ? f.kt : release_kt;  // as GranularContacts::release
      released += 0.5 * kt * f.xi.squaredNorm() + 0.5 * dt * kt * f.xi.dot(slip);
    }
    if (released != 0) task.released.push_back(released);
    pair.springs.clear();  // refilled with this evaluation's springs
  }
}

template <class Law>
void ShapeContacts::law_of_points(const StateView& s, const MaterialLaws<Law>& laws,
                                  const ContactParams& params, int first, int last) {
  using namespace lanes;
  const int count = int(points_.size());
  for (int batch = first; batch < last; ++batch) {
    const int base = 4 * batch, lanes = std::min(4, count - base);
    LaneContact c{};
    V3 old{};
    D4 old_kt{};
    LaneLaws<Law> lane_laws;
    c.valid = M4{0 < lanes ? -1 : 0, 1 < lanes ? -1 : 0, 2 < lanes ? -1 : 0, 3 < lanes ? -1 : 0};
    for (int l = 0; l < 4; ++l) {
      const Point& p = *points_[base + std::min(l, lanes - 1)];  // padding repeats the last
      c.normal.x[l] = p.contact.normal.x(), c.normal.y[l] = p.contact.normal.y(),
      c.normal.z[l] = p.contact.normal.z();
      c.slip.x[l] = p.slip.x(), c.slip.y[l] = p.slip.y(), c.slip.z[l] = p.slip.z();
      c.delta[l] = p.contact.depth, c.m_eff[l] = p.m_eff, c.r_eff[l] = p.r_eff;
      old.x[l] = p.old.x(), old.y[l] = p.old.y(), old.z[l] = p.old.z(), old_kt[l] = p.old_kt;
      lane_laws.lane[l] = &law_of(laws, s.world, *p.pair);
    }
    lane_laws.uniform = laws.uniform();
    const LaneForces f = spring_dashpot(lane_laws, params, c, old, old_kt);
    batch_sums_[batch] = {sum(f.energy), sum(f.capped)};
    for (int l = 0; l < lanes; ++l) {
      results_[base + l] = {Vec3(f.force.x[l], f.force.y[l], f.force.z[l]),
                            Vec3(f.drag.x[l], f.drag.y[l], f.drag.z[l]),
                            Vec3(f.xi.x[l], f.xi.y[l], f.xi.z[l]), f.kt[l]};
      points_[base + l]->normal_energy = f.normal_energy[l];
    }
  }
}

// The law at every point, on the tasks that found them (batches of four in point order); then,
// on this thread and in point order, the loads added to the bodies and the sums taken.
template <class Law, bool Commit>
void ShapeContacts::apply_points(const StateView& s, const MaterialLaws<Law>& laws,
                                 const ContactParams& params, const std::vector<WallPlane>& walls,
                                 int tasks, Parallel* parallel, ForceSums& out, ContactSums& sums) {
  const int count = int(points_.size()), batches = (count + 3) / 4;
  results_.resize(count);
  batch_sums_.resize(batches);
  // (On one thread each batch's law just before its loads are added, while its points are at hand.)
  const bool split = tasks > 1 && count >= parallel->min_pairs();
  if (split) {
    // Task t takes the batches that start among its own points, whose lines it holds.
    int start[kMaxTasks + 1];
    start[0] = 0;
    for (int t = 0; t < tasks; ++t) start[t + 1] = start[t] + int(tasks_[t].points.size());
    parallel->run(tasks, [&](int t) {
      law_of_points(s, laws, params, (start[t] + 3) / 4,
                    t + 1 < tasks ? (start[t + 1] + 3) / 4 : batches);
    });
  }
  const bool resistance = params.mu_roll > 0 || params.mu_twist > 0;
  for (int base = 0; base < count; base += 4) {
    const int lanes = std::min(4, count - base);
    if (!split) law_of_points(s, laws, params, base / 4, base / 4 + 1);
    sums.potential += batch_sums_[base / 4].first;
    if constexpr (Commit) sums.capped += batch_sums_[base / 4].second;
    for (int l = 0; l < lanes; ++l) {
      const Point& p = *points_[base + l];
      const LawResult& r = results_[base + l];
      const int i = p.pair->i, j = p.pair->j;
      const Vec3& force = r.force;
      const Vec3& drag = r.drag;
      out.force.col(i) += force;
      out.torque.col(i) += p.arm_i.cross(force);
      out.drag_force.col(i) += drag;
      out.drag_torque.col(i) += p.arm_i.cross(drag);
      out.mark_drag(i);
      if (j >= 0) {
        out.mark_drag(j);
        out.force.col(j) -= force;
        out.torque.col(j) -= p.arm_j.cross(force);
        out.drag_force.col(j) -= drag;
        out.drag_torque.col(j) -= p.arm_j.cross(drag);
      } else {  // a moving wall works on the body; its dashpot's share against the wall's motion
        const Vec3& velocity = walls[-1 - j].velocity;
        sums.external += force.dot(velocity);
        sums.dissipation += drag.dot(velocity);
        ++sums.walls;
      }
      if (resistance) {  // as the sphere kernels, at each point, with the shapes' r_eff
        const Vec3 spin = j >= 0 ? Vec3(s.w.col(i) - s.w.col(j)) : Vec3(s.w.col(i));
        const Vec3 m = rolling_resistance(params, spin, p.contact.normal,
                                          force.dot(p.contact.normal), p.r_eff);
        out.torque.col(i) += m;
        out.drag_torque.col(i) += m;
        if (j >= 0) out.torque.col(j) -= m, out.drag_torque.col(j) -= m;
      }
      const double elastic = force.dot(p.contact.normal) - drag.dot(p.contact.normal);
      if (p.contact.lean != Vec3::Zero() && j >= 0) {  // the rest of the elastic force's gradient
        const Vec3 lean = elastic * p.contact.lean;
        out.force.col(i) += lean;
        out.torque.col(i) += (p.contact.lean_at - s.x.col(i)).cross(lean);
        out.force.col(j) -= lean;
        out.torque.col(j) -= (p.contact.lean_at - s.x.col(j)).cross(lean);
      }
      p.pair->normal_force += elastic;
      ++sums.contacts;
      if constexpr (Commit) {
        reports_.push_back({i, j, p.contact, elastic});
        if (r.xi != Vec3::Zero())
          p.pair->springs.push_back(
              {p.contact.feature, r.xi, p.arm_i, p.arm_j, Law::kConstant ? 0.0 : r.kt});
      }
    }
  }
  if constexpr (Commit) sums.made += manifold_jumps(params.dt);
}

}  // namespace stepwise
