#include "core/impulse/impulse_contact.hpp"

#include <algorithm>
#include <cmath>

#include "core/impulse/contact_solver.hpp"
#include "core/limits.hpp"

namespace stepwise {

ImpulseContact::Figures ImpulseContact::resolve_velocities(
    World& world, const ContactTreatment& treatment, const std::vector<RigidContact>& contacts,
    const VecX& gained) {
  Figures figures;
  system_.build(world, contacts);
  keys_.clear();
  groups_.clear();
  for (size_t k = 0; k < contacts.size(); ++k) {
    const RigidContact& c = contacts[k];
    keys_.emplace_back(c.i, c.j, c.key);
    figures.max_depth = std::max(figures.max_depth, c.depth);
    if (k == 0 || c.i != contacts[k - 1].i || c.j != contacts[k - 1].j) {
      groups_.push_back(int(k));
      ++(c.j < 0 ? figures.wall_contacts : figures.contacts);
    }
  }
  groups_.push_back(int(contacts.size()));
  figures.contacts += figures.wall_contacts;
  resting_.clear();
  if (contacts.empty()) {
    warm_.clear();
    return figures;
  }
  figures.impacts = impacts(treatment, gained);
  // Resting contacts: all together, from last step's impulses where the same features touch.
  auto& rows = system_.rows();
  size_t hint = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    ContactSystem::Row& r = rows[k];
    r.impulse.setZero();  // the impacts' impulses are spent
    if (r.spin >= 0) system_.spins()[r.spin].impulse.setZero();
    const Vec3* found = warm_start(keys_[k], hint);
    if (!found) continue;
    Vec3 start = r.frame.transpose() * *found;
    start.x() = std::max(0.0, start.x());
    const double cap = r.mu * start.x(), t = start.tail<2>().norm();
    if (t > cap) start.tail<2>() *= cap / t;
    system_.apply(r, start);
  }
  const std::vector<double> at_rest(rows.size(), 0.0);
  figures.sweeps =
      solve_contacts(system_, at_rest, treatment.iterations, treatment.solver, treatment.facets)
          .sweeps;
  warm_.clear();
  for (size_t k = 0; k < rows.size(); ++k) {
    if (rows[k].impulse.x() > 0) warm_.emplace_back(keys_[k], rows[k].frame * rows[k].impulse);
    resting_.push_back(rows[k].impulse.x());
  }
  sort_warm_starts();
  system_.write_back(world);
  return figures;
}

const Vec3* ImpulseContact::warm_start(const Key& key, size_t& hint) const {
  // The rows come mostly in key order (nine in ten follow the one before), so the entry is
  // usually at or just past the last one found: looked for there first, then by bisection of
  // the side it lies on (for speed only: a bisection of all of warm_ finds the same entry).
  auto before = [](const auto& entry, const Key& k) { return entry.first < k; };
  auto first = warm_.begin(), last = warm_.end();
  if (hint < warm_.size() && !(key < warm_[hint].first)) {
    first += hint;
    for (int near = 0; near < 4 && first != last && first->first < key; ++near) ++first;
  } else {
    last = first + std::min(hint, warm_.size());
  }
  const auto found = std::lower_bound(first, last, key, before);
  hint = size_t(found - warm_.begin());
  return found != warm_.end() && found->first == key ? &found->second : nullptr;
}

void ImpulseContact::sort_warm_starts() {
  // By key; of two entries with one key (a hand-edited state) the later is kept.
  std::stable_sort(warm_.begin(), warm_.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  size_t out = 0;
  for (size_t k = 0; k < warm_.size(); ++k) {
    if (k + 1 < warm_.size() && warm_[k + 1].first == warm_[k].first) continue;
    warm_[out++] = warm_[k];
  }
  warm_.resize(out);
}

int ImpulseContact::impacts(const ContactTreatment& treatment, const VecX& gained) {
  auto& rows = system_.rows();
  const std::vector<int>& groups = groups_;
  std::vector<double> target(rows.size(), 0.0);
  std::vector<char> hit(groups.size(), 0);
  std::vector<int> group;
  // Each pass over the pairs in order hands an impact on to the next touching pair; a row of
  // touching bodies needs as many passes as it has pairs at most.
  for (int pass = 0; pass < treatment.iterations; ++pass) {
    bool any = false;
    for (size_t g = 0; g + 1 < groups.size(); ++g) {
      const int first = groups[g], last = groups[g + 1];
      const int i = std::get<0>(keys_[first]), j = std::get<1>(keys_[first]);
      // Closing slower than twice what a step's forces give the two bodies is resting.
      const double resting = 2 * (gained(i) + (j >= 0 ? gained(j) : 0.0));
      bool impact = false;
      for (int k = first; k < last; ++k) {
        const double un = system_.velocity(rows[k]).x();
        impact |= un < -resting;
        target[k] = -treatment.restitution * std::min(un, 0.0);
      }
      if (!impact) continue;
      group.clear();
      for (int k = first; k < last; ++k) rows[k].impulse.setZero(), group.push_back(k);
      projected_gauss_seidel(system_, group, target, treatment.iterations);
      any = true;
      hit[g] = 1;
    }
    if (!any) break;
  }
  return int(std::count(hit.begin(), hit.end(), 1));
}

bool ImpulseContact::separate(World& world, const std::vector<RigidContact>& contacts,
                              const ContactTreatment& treatment) {
  // The overlaps beyond the slop, and every point of the bodies that have one (so a box lifted
  // at one corner is held by its others): in a pile at rest that is a few bodies, not the pile.
  std::vector<char> deep(world.size(), 0);
  auto excess = [&](const RigidContact& c) {
    const double r = c.j >= 0 ? std::min(world.radius(c.i), world.radius(c.j)) : world.radius(c.i);
    return c.depth - kSlop * r;
  };
  bool overlap = false;
  for (const RigidContact& c : contacts)
    if (excess(c) > 0) {
      overlap = true;
      deep[c.i] = 1;
      if (c.j >= 0) deep[c.j] = 1;
    }
  if (!overlap) return false;
  near_.clear();
  std::vector<double> depth;
  for (const RigidContact& c : contacts)
    if (deep[c.i] || (c.j >= 0 && deep[c.j])) {
      near_.push_back(c);
      depth.push_back(std::max(0.0, excess(c)));
    }
  system_.build(world, near_);
  // The same rows read as displacements: u_n >= depth moves the point out of the overlap.
  system_.at_rest();
  // Gauss-Seidel alone: the depths of a face's corners need not be ones a rigid body can
  // undo exactly, and nothing creeps here (velocities are untouched).
  solve_contacts(system_, depth, treatment.iterations, ContactTreatment::Solver::pgs);
  for (const ContactSystem::Body& b : system_.bodies()) {
    if (!b.moves) continue;
    world.x.col(b.index) += b.v;
    const double angle = b.w.norm();
    if (angle > 0) {
      world.q[b.index] =
          (Quat(Eigen::AngleAxisd(angle, b.w / angle)) * world.q[b.index]).normalized();
      world.sync_angular_velocity(b.index);  // L kept: the body turned, not its momentum
    }
  }
  return true;
}

void ImpulseContact::contact_forces(const std::vector<RigidContact>& contacts, double dt,
                                    std::vector<ForceModel::ContactForce>& out) const {
  if (contacts.size() != resting_.size()) return;  // not the resolve's: reset or reloaded since
  // One line per pair, its points' forces added.
  for (size_t k = 0; k < contacts.size(); ++k) {
    const RigidContact& c = contacts[k];
    if (k > 0 && c.i == contacts[k - 1].i && c.j == contacts[k - 1].j)
      out.back().normal_force += resting_[k] / dt;
    else
      out.push_back({c.i, c.j, resting_[k] / dt});
  }
}

void ImpulseContact::contact_points(const std::vector<RigidContact>& contacts, int body, double dt,
                                    std::vector<ForceModel::ContactReport>& out) const {
  if (contacts.size() != resting_.size()) return;
  for (size_t k = 0; k < contacts.size(); ++k) {
    const RigidContact& c = contacts[k];
    if (c.i != body && c.j != body) continue;
    // The normal pushes i out of j; seen from j it is reversed.
    out.push_back({c.i == body ? c.j : c.i, c.position, c.i == body ? c.normal : Vec3(-c.normal),
                   c.depth, resting_[k] / dt});
  }
}

void ImpulseContact::save_state(ParamTable& out) const {
  std::vector<double> warm;
  for (const auto& [key, P] : warm_) {
    const auto& [i, j, feature] = key;
    warm.insert(warm.end(), {double(i), double(j), double(feature >> 32),
                             double(feature & 0xffffffffu), P.x(), P.y(), P.z()});
  }
  if (!warm.empty()) out.set("impulses", warm);
}

void ImpulseContact::load_state(const ParamTable& in) {
  const std::vector<double> warm = in.numbers("impulses", {});
  if (warm.size() % 7) throw InputError(in.where() + ": impulses come in groups of 7 numbers");
  warm_.clear();
  for (size_t k = 0; k < warm.size(); k += 7) {
    const double* v = warm.data() + k;
    if (!limits::contact_key(v))
      throw InputError(in.where() + ": impulses: ids must be whole numbers");
    for (int c = 4; c < 7; ++c) limits::checked(in.where() + ": impulses", v[c], -1e300, 1e300);
    const std::uint64_t feature = std::uint64_t(v[2]) << 32 | std::uint64_t(v[3]);
    warm_.emplace_back(Key{int(v[0]), int(v[1]), feature}, Vec3(v[4], v[5], v[6]));
  }
  sort_warm_starts();
}

}  // namespace stepwise
