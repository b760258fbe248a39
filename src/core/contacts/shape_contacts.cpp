#include "core/contacts/shape_contacts.hpp"

#include <algorithm>
#include <limits>

#include "core/limits.hpp"

namespace stepwise {

void ShapeContacts::rebuild(const World& world, const NeighborList& list, int walls,
                            std::vector<double>& gaps, const ContactExclusions& exclusions) {
  const auto& offsets = list.offsets();
  const auto& neighbors = list.neighbors();
  // Springs and touching points carried over by pair (a pair that left the list had let go of
  // them: it opened).
  std::map<std::pair<int, int>, std::vector<FeatureSpring>> carried;
  std::map<std::pair<int, int>, std::vector<Pair::Touch>> touched;
  carried.swap(pending_);
  touched.swap(pending_touched_);
  for (Pair& p : pairs_) {
    if (!p.springs.empty()) carried[{p.i, p.j}] = std::move(p.springs);
    if (!p.touched.empty()) touched[{p.i, p.j}] = std::move(p.touched);
  }
  pairs_.clear();
  touched_pairs_.clear();
  costs_.clear();
  bodies_.clear();
  slot_.assign(world.size(), -1);
  for (int i = 0; i < world.size(); ++i)
    if (world.shape[i]->type() != sphere_type())
      slot_[i] = int(bodies_.size()), bodies_.push_back(i);
  rotation_.resize(bodies_.size());
  if (bodies_.empty()) return;
  auto add = [&](int i, int j) {
    Pair pair;
    pair.i = i, pair.j = j;
    const auto found = carried.find({i, j});
    if (found != carried.end()) pair.springs = std::move(found->second);
    const auto was = touched.find({i, j});
    if (was != touched.end()) pair.touched = std::move(was->second);
    pairs_.push_back(std::move(pair));
  };
  for (int i = 0; i < list.size(); ++i)
    for (int k = offsets[i]; k < offsets[i + 1]; ++k)
      if (involves(i, neighbors[k])) {
        gaps[k] = std::numeric_limits<double>::infinity();
        if (!exclusions.excluded(i, neighbors[k])) add(i, neighbors[k]);
      }
  for (int b : bodies_)
    for (int w = 0; w < walls; ++w) add(b, -1 - w);
  costs_.assign(pairs_.size(), 1);
  for (size_t k = 0; k < pairs_.size(); ++k)
    if (!pairs_[k].touched.empty()) touched_pairs_.push_back(int(k));
}

double ShapeContacts::manifold_jumps(double dt) {
  // A point that starts or stops touching by its depth crossing zero does so continuously: its
  // depth is then at most what one step of approach makes. One that comes or goes any other way
  // (the manifold's reference face or kind changed, a corner split into two clipped points, a
  // point reduced away) carries its energy with it: that jump is energy the contact geometry
  // made or took, which no force worked for.
  auto jumped = [dt](double depth, double speed) { return depth > 2 * std::abs(speed) * dt; };
  double made = 0;
  size_t next = 0, old = 0;
  std::vector<Pair::Touch> now;
  next_touched_.clear();
  // The pairs that touch now or touched before, in order (the others have nothing to book).
  constexpr int kNone = std::numeric_limits<int>::max();
  while (next < points_.size() || old < touched_pairs_.size()) {
    const int k = std::min(next < points_.size() ? int(points_[next]->pair - pairs_.data()) : kNone,
                           old < touched_pairs_.size() ? touched_pairs_[old] : kNone);
    if (old < touched_pairs_.size() && touched_pairs_[old] == k) ++old;
    Pair& pair = pairs_[k];
    now.clear();
    for (; next < points_.size() && points_[next]->pair == &pair; ++next) {
      const Point& p = *points_[next];
      now.push_back(
          {p.contact.feature, p.normal_energy, p.contact.depth, p.slip.dot(p.contact.normal)});
    }
    if (touched_known_) {
      auto has = [](const std::vector<Pair::Touch>& set, std::uint64_t feature) {
        for (const Pair::Touch& t : set)
          if (t.feature == feature) return true;
        return false;
      };
      for (const Pair::Touch& t : now)
        if (!has(pair.touched, t.feature) && jumped(t.depth, t.speed)) made += t.energy;
      for (const Pair::Touch& t : pair.touched)
        if (!has(now, t.feature) && jumped(t.depth, t.speed)) made -= t.energy;
    }
    pair.touched.swap(now);
    if (!pair.touched.empty()) next_touched_.push_back(k);
  }
  touched_pairs_.swap(next_touched_);
  touched_known_ = true;
  return made;
}

namespace {
// A saved point's key: i, j and its feature as two 32-bit halves (limits::contact_key checks them).
void put_key(std::vector<double>& out, int i, int j, std::uint64_t feature) {
  out.insert(out.end(),
             {double(i), double(j), double(feature >> 32), double(feature & 0xffffffffu)});
}
std::uint64_t feature_of(const double* key) {
  return std::uint64_t(key[2]) << 32 | std::uint64_t(key[3]);
}
}  // namespace

void ShapeContacts::save_state(ParamTable& out) const {
  // Per spring: its key, the spring and both arms; per point touching at the last evaluation:
  // its key, normal energy, depth and approach speed (manifold_jumps books against them). A
  // state loaded and not yet taken over by a rebuild is written as it was loaded.
  std::vector<double> springs, kts, touched;
  auto put_spring = [&](int i, int j, const FeatureSpring& f) {
    kts.push_back(f.kt);
    put_key(springs, i, j, f.feature);
    springs.insert(springs.end(), {f.xi.x(), f.xi.y(), f.xi.z(), f.arm_i.x(), f.arm_i.y(),
                                   f.arm_i.z(), f.arm_j.x(), f.arm_j.y(), f.arm_j.z()});
  };
  auto put_touch = [&](int i, int j, const Pair::Touch& t) {
    put_key(touched, i, j, t.feature);
    touched.insert(touched.end(), {t.energy, t.depth, t.speed});
  };
  for (const Pair& p : pairs_) {
    for (const FeatureSpring& f : p.springs) put_spring(p.i, p.j, f);
    for (const Pair::Touch& t : p.touched) put_touch(p.i, p.j, t);
  }
  for (const auto& [ij, list] : pending_)
    for (const FeatureSpring& f : list) put_spring(ij.first, ij.second, f);
  for (const auto& [ij, list] : pending_touched_)
    for (const Pair::Touch& t : list) put_touch(ij.first, ij.second, t);
  if (!springs.empty()) out.set("shape_springs", springs);
  if (std::any_of(kts.begin(), kts.end(), [](double kt) { return kt != 0; }))
    out.set("shape_springs_kt", kts);
  // Written even when empty (so a reloaded run knows nothing touched) where there are shapes.
  if (touched_known_ && (!pairs_.empty() || !pending_.empty() || !pending_touched_.empty()))
    out.set("shape_touched", touched);
}

void ShapeContacts::load_state(const ParamTable& in) {
  const std::vector<double> springs = in.numbers("shape_springs", {});
  const std::vector<double> kts = in.numbers("shape_springs_kt", {});
  const std::vector<double> touched = in.numbers("shape_touched", {});
  for (double kt : kts) limits::checked(in.where() + ": shape_springs_kt", kt, 0, 1e300);
  if (springs.size() % 13)
    throw InputError(in.where() + ": shape_springs come in groups of 13 numbers");
  if (touched.size() % 7)
    throw InputError(in.where() + ": shape_touched come in groups of 7 numbers");
  pending_.clear();
  pending_touched_.clear();
  pairs_.clear();
  reports_.clear();
  touched_known_ = in.has("shape_touched");  // older states: the first evaluation books nothing
  for (size_t k = 0; k < touched.size(); k += 7) {
    const double* v = touched.data() + k;
    if (!limits::contact_key(v))
      throw InputError(in.where() + ": shape_touched: ids must be whole numbers");
    for (int c = 4; c < 7; ++c)
      limits::checked(in.where() + ": shape_touched", v[c], -1e300, 1e300);
    pending_touched_[{int(v[0]), int(v[1])}].push_back({feature_of(v), v[4], v[5], v[6]});
  }
  for (size_t k = 0; k < springs.size(); k += 13) {
    const double* v = springs.data() + k;
    if (!limits::contact_key(v))
      throw InputError(in.where() + ": shape_springs: ids must be whole numbers");
    pending_[{int(v[0]), int(v[1])}].push_back({feature_of(v), Vec3(v[4], v[5], v[6]),
                                                Vec3(v[7], v[8], v[9]), Vec3(v[10], v[11], v[12]),
                                                kts.size() > k / 13 ? kts[k / 13] : 0.0});
  }
}

void ShapeContacts::contact_points(int body, std::vector<ForceModel::ContactReport>& out) const {
  for (const Report& r : reports_) {
    if (r.i != body && r.j != body) continue;
    const ContactPoint& c = r.contact;
    // The point's normal pushes i out of j; seen from j it is reversed.
    out.push_back({r.i == body ? r.j : r.i, c.position, r.i == body ? c.normal : Vec3(-c.normal),
                   c.depth, r.normal_force});
  }
}

void ShapeContacts::contact_forces(std::vector<ForceModel::ContactForce>& out) const {
  for (const Pair& p : pairs_)
    if (p.normal_force != 0) out.push_back({p.i, p.j, p.normal_force});
}

}  // namespace stepwise
