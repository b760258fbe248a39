// Box against box, box against polyhedron and polyhedron against polyhedron: the separating-axis
// test (separating_axis.hpp) finds the axis of least overlap. On a face axis the other body's
// most opposed face is clipped against the reference face's sides (Sutherland-Hodgman) and the
// points below the reference plane are the manifold (at most four kept); on an edge pair the
// contact is the pair of nearest points of the two edges.
#include <algorithm>
#include <cmath>

#include "core/collision/separating_axis.hpp"

namespace stepwise {
namespace {

// A point of the incident polygon as it is clipped, and the two lines it lies on (the segments
// arriving at it and leaving it): an incident edge, or a side plane of the reference face, each a
// 16-bit carrier code. A point's feature is its incident corner, or the pair of lines it is on,
// so it names the same point whichever incident face or clipping order produced it.
struct ClipPoint {
  Vec3 p;
  std::uint32_t in, out;
  std::uint64_t id;
};
std::uint32_t edge_carrier(int a, int b) {  // corners below kMaxHullVertices = 64: 7 bits each
  return std::uint32_t(std::min(a, b)) << 7 | std::uint32_t(std::max(a, b));
}
std::uint32_t side_carrier(int s) {
  return 1u << 15 | std::uint32_t(s);
}
bool is_side(std::uint32_t carrier) {
  return carrier >> 15;
}
std::uint64_t crossing_id(std::uint32_t u, std::uint32_t v) {  // a corner's id is below 2^32
  return std::uint64_t(1) << 32 | std::uint64_t(std::min(u, v)) << 16 | std::max(u, v);
}

// A point p is where three planes meet, each fixed in one body; its depth below the reference
// plane is d = offset - n . p. Moving the bodies moves p, and the gradient of d with respect to
// the incident body's motion at p is -G, G = the sum of w_k m_k over the incident body's planes,
// where n = sum of w_k m_k over all three. So the force -dU/dd G on the incident body at p (and
// its opposite on the reference body) is minus the gradient of the point's energy U(d). For an
// incident corner G = n. For an incident edge e crossing the side plane s, w_s = n.e / s.e and
// G = n - w_s s; for a reference corner under the incident face m, G = m / m.n. Returns G - n,
// at most kMaxLean long: where the edge grazes the side plane (s.e near 0) the point slides
// fast and the exact lean grows without bound, a stiffness no step could follow (random poses:
// 3% of points lean more than 1, 0.2% more than 3).
constexpr double kMaxLean = 3;
Vec3 capped(const Vec3& lean) {
  const double length = lean.norm();
  return length > kMaxLean ? Vec3(kMaxLean / length * lean) : lean;
}
Vec3 contact_lean(const PlacedHull& ref, int face, const PlacedHull& inc, int incident,
                  const ClipPoint& p) {
  if (p.id < std::uint64_t(1) << 32) return Vec3::Zero();  // an incident corner
  const Vec3& n = ref.normals[face];
  if (!is_side(p.in) || !is_side(p.out)) {  // an incident edge and a side plane
    const std::uint32_t edge = is_side(p.in) ? p.out : p.in, plane = is_side(p.in) ? p.in : p.out;
    const Vec3 e = inc.vertices[edge & 127] - inc.vertices[edge >> 7];
    const std::vector<int>& corners = ref.hull->faces[face].corners;
    const int side = int(plane & 0x7fff), sides = int(corners.size());
    const Vec3 s =
        (ref.vertices[corners[(side + 1) % sides]] - ref.vertices[corners[side]]).cross(n);
    return capped(-(n.dot(e) / s.dot(e)) * s);
  }
  const Vec3& m = inc.normals[incident];
  return capped(m / m.dot(n) - n);
}

// h's corner deepest along -n, and of the faces around it the one most opposed to n. (The face
// most opposed overall may lie elsewhere on a polyhedron of many faces, and clip away entirely.)
int deepest_corner(const PlacedHull& h, const Vec3& n) {
  int deepest = 0;
  for (int c = 1; c < int(h.vertices.size()); ++c)
    if (h.vertices[c].dot(n) < h.vertices[deepest].dot(n)) deepest = c;
  return deepest;
}
int incident_face(const PlacedHull& h, const Vec3& n, int corner) {
  int best = -1;
  for (int f = 0; f < int(h.normals.size()); ++f) {
    const auto& corners = h.hull->faces[f].corners;
    if (std::find(corners.begin(), corners.end(), corner) == corners.end()) continue;
    if (best < 0 || h.normals[f].dot(n) < h.normals[best].dot(n)) best = f;
  }
  return best;
}

void face_contact(const PlacedHull& ref, int face, const PlacedHull& inc, bool ref_is_b,
                  Contacts& out) {
  thread_local std::vector<ClipPoint> polygon, clipped;
  thread_local std::vector<double> distance;
  const Vec3 n = ref.normals[face];
  const int corner = deepest_corner(inc, n);
  const int incident = incident_face(inc, n, corner);
  polygon.clear();
  const std::vector<int>& around = inc.hull->faces[incident].corners;
  for (size_t k = 0; k < around.size(); ++k) {
    const int c = around[k], before = around[k ? k - 1 : around.size() - 1],
              after = around[k + 1 < around.size() ? k + 1 : 0];
    polygon.push_back(
        {inc.vertices[c], edge_carrier(before, c), edge_carrier(c, after), std::uint64_t(c)});
  }
  const std::vector<int>& corners = ref.hull->faces[face].corners;
  const int sides = int(corners.size());
  for (int s = 0; s < sides && !polygon.empty(); ++s) {
    const Vec3& u = ref.vertices[corners[s]];
    const Vec3 side = (ref.vertices[corners[(s + 1) % sides]] - u).cross(n);  // outward
    clipped.clear();
    distance.resize(polygon.size());  // each point's, worked out once (it is p, then q)
    for (size_t k = 0; k < polygon.size(); ++k) distance[k] = side.dot(polygon[k].p - u);
    for (size_t k = 0; k < polygon.size(); ++k) {
      const size_t next = k + 1 < polygon.size() ? k + 1 : 0;
      const ClipPoint& p = polygon[k];
      const ClipPoint& q = polygon[next];
      const double dp = distance[k], dq = distance[next];
      if (dp <= 0) clipped.push_back(p);
      if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
        // On the segment's line (p.out, which is q.in) and the side plane: leaving or entering.
        const std::uint32_t along = p.out, side = side_carrier(s);
        clipped.push_back({p.p + dp / (dp - dq) * (q.p - p.p), dp < 0 ? along : side,
                           dp < 0 ? side : along, crossing_id(along, side)});
      }
    }
    polygon.swap(clipped);
  }
  const size_t first = out.size();
  const Vec3 normal = ref_is_b ? n : Vec3(-n);
  // Not the incident face: a corner or crossing is the same point whichever face brought it.
  const std::uint64_t faces = std::uint64_t(ref_is_b) << 63 | std::uint64_t(face) << 48;
  for (const ClipPoint& p : polygon) {
    const double below = n.dot(p.p) - ref.offsets[face];
    if (below < 0) {
      const Vec3 lean = contact_lean(ref, face, inc, incident, p);
      out.push_back({p.p - 0.5 * below * n, normal, -below, faces | p.id,
                     ref_is_b ? lean : Vec3(-lean), p.p});
    }
  }
  if (out.size() == first) {
    // The deepest corner lies outside the reference face's sides (a corner reaching in past
    // an edge): it is the one point of contact.
    const double below = n.dot(inc.vertices[corner]) - ref.offsets[face];
    if (below < 0)
      out.push_back(
          {inc.vertices[corner] - 0.5 * below * n, normal, -below, faces | std::uint64_t(corner)});
  }
  reduce_manifold(out, first);
}

// The edge of h along direction d that reaches farthest along `towards` (its middle, so of two
// parallel edges the one nearer the other body).
int supporting_edge(const PlacedHull& h, const Vec3& d, const Vec3& towards) {
  int best = -1;
  double most = -INFINITY;
  const auto& edges = h.hull->edges;
  for (int e = 0; e < int(edges.size()); ++e) {
    const Vec3& p = h.vertices[edges[e].first];
    const Vec3& q = h.vertices[edges[e].second];
    const Vec3 along = q - p;
    if (std::abs(along.dot(d)) < (1 - 1e-9) * along.norm()) continue;
    const double reach = (p + q).dot(towards);
    if (reach > most) most = reach, best = e;
  }
  return best;
}

void edge_contact(const PlacedHull& a, const PlacedHull& b, const AxisQuery& axis, Contacts& out) {
  const int ea = supporting_edge(a, a.directions[axis.index / 64], -axis.normal);
  const int eb = supporting_edge(b, b.directions[axis.index % 64], axis.normal);
  if (ea < 0 || eb < 0) return;
  const Vec3& p1 = a.vertices[a.hull->edges[ea].first];
  const Vec3& q1 = a.vertices[a.hull->edges[ea].second];
  const Vec3& p2 = b.vertices[b.hull->edges[eb].first];
  const Vec3& q2 = b.vertices[b.hull->edges[eb].second];
  // Nearest points of the two lines (not parallel: their cross product is the axis).
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double aa = d1.dot(d1), e = d2.dot(d2), bb = d1.dot(d2), c = d1.dot(r), f = d2.dot(r);
  const double denominator = aa * e - bb * bb;
  const double s = std::clamp((bb * f - c * e) / denominator, 0.0, 1.0);
  const double t = std::clamp((bb * s + f) / e, 0.0, 1.0);
  const Vec3 on_a = p1 + s * d1, on_b = p2 + t * d2;
  out.push_back({0.5 * (on_a + on_b), axis.normal, axis.depth,
                 std::uint64_t(1) << 62 | std::uint64_t(ea) << 16 | std::uint64_t(eb)});
}

void convex_convex(const Placement& a, const Placement& b, PairCache& cache, Contacts& out) {
  thread_local PlacedHull ha, hb;
  ha.place_frame(*a.shape.hull(), a);
  hb.place_frame(*b.shape.hull(), b);
  // Two boxes are tested from their frames alone; corners are placed once they touch.
  const bool boxes = a.shape.hull()->box_half.x() != 0 && b.shape.hull()->box_half.x() != 0;
  if (!boxes) ha.place_corners(), hb.place_corners();
  const OverlapQuery q = least_overlap(ha, hb, cache.axis);
  if (q.face_a.kind == AxisKind::Separated) {
    cache.axis = q.face_a.axis;
    return;
  }
  if (boxes) ha.place_corners(), hb.place_corners();
  // The manifold's kind must not flicker between nearly equal axes (two parallel faces overlap
  // alike whichever is the reference): b's face is taken over a's, and an edge pair over both,
  // only if clearly shallower. The depth of each point is its own either way.
  const AxisQuery* chosen = &q.face_a;
  if (q.face_b.depth < 0.95 * q.face_a.depth - 1e-9) chosen = &q.face_b;
  if (q.edges.kind == AxisKind::Edges && q.edges.depth < 0.95 * chosen->depth - 1e-9)
    chosen = &q.edges;
  const AxisQuery& axis = *chosen;
  cache.axis = axis.axis;
  switch (axis.kind) {
    case AxisKind::Separated:
      return;
    case AxisKind::FaceA:
      face_contact(ha, axis.index, hb, false, out);
      return;
    case AxisKind::FaceB:
      face_contact(hb, axis.index, ha, true, out);
      return;
    case AxisKind::Edges:
      edge_contact(ha, hb, axis, out);
      return;
  }
}

}  // namespace
STEPWISE_REGISTER_COLLISION("box", "box", convex_convex);
STEPWISE_REGISTER_COLLISION("box", "polyhedron", convex_convex);
STEPWISE_REGISTER_COLLISION("polyhedron", "polyhedron", convex_convex);
}  // namespace stepwise
