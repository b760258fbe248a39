#include "core/collision/collision.hpp"

#include <algorithm>

namespace stepwise {
namespace {

// Walls are half-spaces: a shape only the collision table sees (never a body).
class WallShape final : public Shape {
 public:
  WallShape() : Shape("wall") {}
  double volume() const override { return 0; }
  Vec3 unit_inertia() const override { return Vec3::Zero(); }
  double bounding_radius() const override { return INFINITY; }
  double contact_radius() const override { return INFINITY; }
  Vec3 support(const Vec3&) const override { return Vec3::Zero(); }
  void save(ParamTable&) const override {}
  void draw(DrawSink&) const override {}
};

// A member's features, told apart from its siblings': member ids in the high bits.
std::uint64_t member_feature(std::uint64_t local, int member_a, int member_b) {
  return (local & 0xffffffffu) | std::uint64_t(member_a + 1) << 48 |
         std::uint64_t(member_b + 1) << 32;
}

}  // namespace

const Shape& wall_shape() {
  static const WallShape wall;
  return wall;
}

CollisionTable& CollisionTable::instance() {
  static CollisionTable table;
  return table;
}

bool CollisionTable::add(const std::string& kind_a, const std::string& kind_b, CollideFn collide) {
  const int a = shape_type(kind_a), b = shape_type(kind_b);
  const size_t size = std::max(a, b) + 1;
  if (table_.size() < size) table_.resize(size);
  for (auto& row : table_) row.resize(std::max(row.size(), size), nullptr);
  table_[a][b] = collide;
  return true;
}

CollideFn CollisionTable::find(int a, int b, bool& swapped) const {
  swapped = false;
  if (a < int(table_.size()) && b < int(table_[a].size()) && table_[a][b]) return table_[a][b];
  swapped = true;
  if (b < int(table_.size()) && a < int(table_[b].size())) return table_[b][a];
  return nullptr;
}

int CollisionTable::collide(const Placement& a, const Placement& b, PairCache& cache,
                            Contacts& out) const {
  const size_t first = out.size();
  const auto& parts_a = a.shape.member_shapes();
  const auto& parts_b = b.shape.member_shapes();
  if (!parts_a.empty() || !parts_b.empty()) {
    // A compound is its parts: each against the other body (or its parts).
    const int count_a = std::max<int>(1, parts_a.size()),
              count_b = std::max<int>(1, parts_b.size());
    for (int ka = 0; ka < count_a; ++ka) {
      const Placement part_a =
          parts_a.empty() ? a
                          : Placement{*parts_a[ka], a.x + a.R * a.shape.members()[ka].centre, a.R};
      for (int kb = 0; kb < count_b; ++kb) {
        const Placement part_b =
            parts_b.empty()
                ? b
                : Placement{*parts_b[kb], b.x + b.R * b.shape.members()[kb].centre, b.R};
        const double reach = part_a.shape.bounding_radius() + part_b.shape.bounding_radius();
        if ((part_a.x - part_b.x).squaredNorm() >= reach * reach) continue;
        const size_t before = out.size();
        PairCache none;
        collide(part_a, part_b, none, out);
        for (size_t k = before; k < out.size(); ++k)
          out[k].feature =
              member_feature(out[k].feature, parts_a.empty() ? -1 : ka, parts_b.empty() ? -1 : kb);
      }
    }
    return int(out.size() - first);
  }
  bool swapped;
  const CollideFn fn = find(a.shape.type(), b.shape.type(), swapped);
  if (!fn)
    throw InputError("no collision function for " + a.shape.kind() + " and " + b.shape.kind());
  if (!swapped) {
    fn(a, b, cache, out);
  } else {
    fn(b, a, cache, out);
    for (size_t k = first; k < out.size(); ++k)
      out[k].normal = -out[k].normal, out[k].lean = -out[k].lean;
  }
  return int(out.size() - first);
}

int CollisionTable::collide_wall(const Placement& a, const Vec3& normal, double offset,
                                 Contacts& out) const {
  // The wall placed so that its third axis is the normal and its point the plane's nearest to 0.
  Mat3 R = Mat3::Identity();
  R.col(2) = normal;
  PairCache cache;
  return collide(a, Placement{wall_shape(), offset * normal, R}, cache, out);
}

void reduce_manifold(Contacts& out, size_t first) {
  const size_t count = out.size() - first;
  if (count <= size_t(kMaxManifold)) return;
  ContactPoint* p = out.data() + first;
  // 1: the deepest; 2: the farthest from it; 3: the largest triangle with them; 4: the point
  // farthest outside that triangle (the largest quadrilateral).
  size_t keep[4] = {0, 0, 0, 0};
  for (size_t k = 1; k < count; ++k)
    if (p[k].depth > p[keep[0]].depth) keep[0] = k;
  double best = -1;
  for (size_t k = 0; k < count; ++k) {
    const double d = (p[k].position - p[keep[0]].position).squaredNorm();
    if (d > best) best = d, keep[1] = k;
  }
  const Vec3 n = p[keep[0]].normal;
  best = -1;
  for (size_t k = 0; k < count; ++k) {
    const double area = std::abs((p[keep[1]].position - p[keep[0]].position)
                                     .cross(p[k].position - p[keep[0]].position)
                                     .dot(n));
    if (area > best) best = area, keep[2] = k;
  }
  best = -1;
  for (size_t k = 0; k < count; ++k) {
    double outside = 0;  // the largest area it adds beyond one of the triangle's sides
    for (int e = 0; e < 3; ++e) {
      const Vec3& s = p[keep[e]].position;
      const Vec3& t = p[keep[(e + 1) % 3]].position;
      const Vec3& u = p[keep[(e + 2) % 3]].position;
      const double side = (t - s).cross(p[k].position - s).dot(n);
      const double inner = (t - s).cross(u - s).dot(n);
      if (side * inner < 0) outside = std::max(outside, std::abs(side));
    }
    if (outside > best) best = outside, keep[3] = k;
  }
  std::sort(keep, keep + 4);
  ContactPoint kept[4];
  int kept_count = 0;
  for (int k = 0; k < 4; ++k)
    if (k == 0 || keep[k] != keep[k - 1]) kept[kept_count++] = p[keep[k]];
  out.resize(first);
  out.insert(out.end(), kept, kept + kept_count);
}

}  // namespace stepwise
