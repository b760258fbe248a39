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
    pair.known = !loaded_;
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
  loaded_ = false;
}

double ShapeContacts::manifold_jumps(double dt) {
  // A point that starts or stops touching by its depth crossing zero does so continuously: its
  // depth is then at most what one step of approach makes. One that comes or goes any other way
  // (the manifold's reference face or kind changed, a corner split into two clipped points, a
  // point reduced away) carries its energy with it: that jump is energy the contact geometry
  // made or took, which no force worked for.
  auto jumped = [dt](double depth, double speed) { return depth > 2 * std::abs(speed) * dt; };
  double made = 0;
  size_t next = 0;
  std::vector<Pair::Touch> now;
  for (Pair& pair : pairs_) {
    now.clear();
    for (; next < points_.size() && points_[next].pair == &pair; ++next) {
      const Point& p = points_[next];
      now.push_back(
          {p.contact.feature, p.normal_energy, p.contact.depth, p.slip.dot(p.contact.normal)});
    }
    if (now.empty() && pair.touched.empty()) continue;
    if (pair.known) {
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
    pair.known = true;
    pair.touched.swap(now);
  }
  return made;
}

void ShapeContacts::save_state(ParamTable& out) const {
  // Per spring: i, j, the feature as two 32-bit halves, the spring and both arms.
  std::vector<double> springs, kts;
  for (const Pair& p : pairs_)
    for (const FeatureSpring& f : p.springs) {
      kts.push_back(f.kt);
      springs.insert(springs.end(),
                     {double(p.i), double(p.j), double(f.feature >> 32),
                      double(f.feature & 0xffffffffu), f.xi.x(), f.xi.y(), f.xi.z(), f.arm_i.x(),
                      f.arm_i.y(), f.arm_i.z(), f.arm_j.x(), f.arm_j.y(), f.arm_j.z()});
    }
  if (!springs.empty()) out.set("shape_springs", springs);
  // Per point touching at the last evaluation: i, j, the feature's halves, its normal energy,
  // depth and approach speed (manifold_jumps books against them). Written even when empty, so
  // a reloaded run knows nothing touched.
  std::vector<double> touched;
  for (const Pair& p : pairs_)
    for (const Pair::Touch& t : p.touched)
      touched.insert(touched.end(), {double(p.i), double(p.j), double(t.feature >> 32),
                                     double(t.feature & 0xffffffffu), t.energy, t.depth, t.speed});
  if (!pairs_.empty() &&
      std::all_of(pairs_.begin(), pairs_.end(), [](const Pair& p) { return p.known; }))
    out.set("shape_touched", touched);
  if (std::any_of(kts.begin(), kts.end(), [](double kt) { return kt != 0; }))
    out.set("shape_springs_kt", kts);
}

void ShapeContacts::load_state(const ParamTable& in) {
  const std::vector<double> springs = in.numbers("shape_springs", {});
  const std::vector<double> kts = in.numbers("shape_springs_kt", {});
  for (double kt : kts) limits::checked(in.where() + ": shape_springs_kt", kt, 0, 1e300);
  if (springs.size() % 13)
    throw InputError(in.where() + ": shape_springs come in groups of 13 numbers");
  pending_.clear();
  pending_touched_.clear();
  pairs_.clear();
  reports_.clear();
  // States written before the touching points were saved: the first evaluation books nothing.
  loaded_ = !in.has("shape_touched");
  const std::vector<double> touched = in.numbers("shape_touched", {});
  if (touched.size() % 7)
    throw InputError(in.where() + ": shape_touched come in groups of 7 numbers");
  for (size_t k = 0; k < touched.size(); k += 7) {
    const double* v = touched.data() + k;
    if (!limits::contact_key(v))
      throw InputError(in.where() + ": shape_touched: ids must be whole numbers");
    for (int c = 4; c < 7; ++c)
      limits::checked(in.where() + ": shape_touched", v[c], -1e300, 1e300);
    pending_touched_[{int(v[0]), int(v[1])}].push_back(
        {std::uint64_t(v[2]) << 32 | std::uint64_t(v[3]), v[4], v[5], v[6]});
  }
  for (size_t k = 0; k < springs.size(); k += 13) {
    const double* v = springs.data() + k;
    if (!limits::contact_key(v))
      throw InputError(in.where() + ": shape_springs: ids must be whole numbers");
    const std::uint64_t feature = std::uint64_t(v[2]) << 32 | std::uint64_t(v[3]);
    pending_[{int(v[0]), int(v[1])}].push_back({feature, Vec3(v[4], v[5], v[6]),
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
