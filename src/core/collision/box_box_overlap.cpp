// Two boxes' least overlap in closed form (Gottschalk's OBB test): along an axis L a box of half
// extents h and axes u_k reaches sum h_k |u_k . L| from its centre, so each of the 15 axes costs
// a few products of C = R_a^T R_b instead of a pass over sixteen corners. Only for speed: the
// axes, their order, ids and normals are least_overlap_by_corners' (the reference it is tested
// against in test_shape_contacts.cpp); only round-off differs.
#include <cmath>
#include <limits>

#include "core/collision/separating_axis.hpp"

namespace stepwise {
namespace {

// One axis' overlap from the entries of C it reads (each the same dot product of two columns
// wherever it is read), so the cached axis alone and the full search give it to the same bit. a's
// face +-u_k is reached below by h_k + r_b -+ t_k (t = R_a^T d); seen from b, a lies at -t_b. An
// edge pair's projections are on the unnormalised l = u_ai x u_bj, scaled once: one root and one
// division per axis.
double face_a_overlap(const Vec3& ha, const Vec3& hb, int k, double sign, const Vec3& abs_row,
                      double ta_k) {
  return ha(k) + hb.dot(abs_row) - sign * ta_k;
}
double face_b_overlap(const Vec3& ha, const Vec3& hb, int k, double sign, const Vec3& abs_col,
                      double tb_k) {
  return hb(k) + ha.dot(abs_col) + sign * tb_k;
}

// Edge pair (i, j)'s overlap and normal from C's entries (i1, j), (i2, j), (i, j1), (i, j2) and t_a
// (i1 = i + 1, i2 = i + 2, j1, j2 likewise, mod 3); false for parallel edges.
template <class Entry>
bool edge_overlap(const PlacedHull& a, const PlacedHull& b, int i, int j, Entry&& C, const Vec3& ta,
                  double& overlap, Vec3& normal) {
  const Vec3& ha = a.hull->box_half;
  const Vec3& hb = b.hull->box_half;
  const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
  const Vec3 l = a.R.col(i).cross(b.R.col(j));
  const double length2 = l.squaredNorm();
  if (length2 < 1e-18) return false;
  const double c_i1j = C(i1, j), c_i2j = C(i2, j);
  const double ra = ha(i1) * std::abs(c_i2j) + ha(i2) * std::abs(c_i1j);
  const double rb = hb(j1) * std::abs(C(i, j2)) + hb(j2) * std::abs(C(i, j1));
  const double s = ta(i2) * c_i1j - ta(i1) * c_i2j;
  const double inverse = 1 / std::sqrt(length2);
  overlap = (ra + rb - std::abs(s)) * inverse;
  normal = (s <= 0 ? inverse : -inverse) * l;
  return true;
}

// A face's axis k and side s of a box hull (2 k + s), by face index.
int face_side(const ConvexHull& hull, int face) {
  for (int k = 0; k < 3; ++k)
    for (int s = 0; s < 2; ++s)
      if (hull.box_face[k][s] == face) return 2 * k + s;
  return 0;
}

}  // namespace

OverlapQuery least_overlap_boxes(const PlacedHull& a, const PlacedHull& b, int cached) {
  const Vec3& ha = a.hull->box_half;
  const Vec3& hb = b.hull->box_half;
  const Vec3 d = b.centre - a.centre;
  // Most pairs a pile tests are apart, found so by the axis that last separated them: it is
  // tried first from the entries of C it reads (for speed only).
  auto entry = [&](int i, int j) { return a.R.col(i).dot(b.R.col(j)); };
  if (cached >= 0) {
    double overlap = 0;
    Vec3 normal;
    bool measured = true;
    if (cached < 512) {
      const bool of_a = cached < 256;
      const int side = of_a ? face_side(*a.hull, cached) : face_side(*b.hull, cached - 256);
      const int k = side / 2;
      const double sign = side % 2 ? -1 : 1;
      Vec3 abs_line;
      if (of_a) {
        for (int j = 0; j < 3; ++j) abs_line(j) = std::abs(entry(k, j));
        overlap = face_a_overlap(ha, hb, k, sign, abs_line, a.R.col(k).dot(d));
        normal = -sign * a.R.col(k);
      } else {
        for (int i = 0; i < 3; ++i) abs_line(i) = std::abs(entry(i, k));
        overlap = face_b_overlap(ha, hb, k, sign, abs_line, b.R.col(k).dot(d));
        normal = sign * b.R.col(k);
      }
    } else {
      const int i = (cached - 512) / 64, j = (cached - 512) % 64;
      Vec3 ta = Vec3::Zero();
      ta((i + 1) % 3) = a.R.col((i + 1) % 3).dot(d);
      ta((i + 2) % 3) = a.R.col((i + 2) % 3).dot(d);
      measured = edge_overlap(a, b, i, j, entry, ta, overlap, normal);
    }
    if (measured && overlap < 0) {
      OverlapQuery q;
      q.face_a = {AxisKind::Separated, cached, -1, overlap, normal};
      q.face_b = q.edges = q.face_a;
      return q;
    }
  }
  // (Eigen's products sum each entry as the dot products above do: the test holds them to it.)
  const Mat3 C = a.R.transpose() * b.R;  // C(i, j) = u_ai . u_bj
  const Mat3 absC = C.cwiseAbs();
  const Vec3 ta = a.R.transpose() * d, tb = b.R.transpose() * d;
  // Each face's overlap, both bodies' at once (faces in the hull's order).
  double face_overlap[12];
  Vec3 face_normal[12];
  for (int k = 0; k < 3; ++k)
    for (int s = 0; s < 2; ++s) {
      const double sign = s ? -1 : 1;
      const int fa = a.hull->box_face[k][s], fb = 6 + b.hull->box_face[k][s];
      face_overlap[fa] = face_a_overlap(ha, hb, k, sign, absC.row(k).transpose(), ta(k));
      face_normal[fa] = -sign * a.R.col(k);
      face_overlap[fb] = face_b_overlap(ha, hb, k, sign, absC.col(k), tb(k));
      face_normal[fb] = sign * b.R.col(k);
    }
  // Overlap along one axis (ids as in separating_axis.hpp) and the normal pushing a out of b;
  // false for parallel edges (the face axes cover them).
  auto along = [&](int axis, double& overlap, Vec3& normal) {
    if (axis < 512) {
      const int f = axis < 256 ? axis : 6 + axis - 256;
      overlap = face_overlap[f];
      normal = face_normal[f];
      return true;
    }
    return edge_overlap(
        a, b, (axis - 512) / 64, (axis - 512) % 64, [&](int i, int j) { return C(i, j); }, ta,
        overlap, normal);
  };
  return search_axes(6, 6, 3, 3, cached, along);
}

}  // namespace stepwise
