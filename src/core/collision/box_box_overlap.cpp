// Two boxes' least overlap in closed form (Gottschalk's OBB test): along an axis L a box of half
// extents h and axes u_k reaches sum h_k |u_k . L| from its centre, so each of the 15 axes costs
// a few products of C = R_a^T R_b instead of a pass over sixteen corners. Only for speed: the
// axes, their order, ids and normals are least_overlap_by_corners' (the reference it is tested
// against in test_shape_contacts.cpp); only round-off differs.
#include <cmath>
#include <limits>

#include "core/collision/separating_axis.hpp"

namespace stepwise {

OverlapQuery least_overlap_boxes(const PlacedHull& a, const PlacedHull& b, int cached) {
  const Vec3& ha = a.hull->box_half;
  const Vec3& hb = b.hull->box_half;
  const Mat3 C = a.R.transpose() * b.R;  // C(i, j) = u_ai . u_bj
  const Mat3 absC = C.cwiseAbs();
  const Vec3 d = b.centre - a.centre;
  const Vec3 ta = a.R.transpose() * d, tb = b.R.transpose() * d;
  // Each face's overlap, both bodies' at once (faces in the hull's order): a's face +-u_k is
  // reached below by h_k + r_b -+ t_k; seen from b, a lies at -tb.
  double face_overlap[12];
  Vec3 face_normal[12];
  for (int k = 0; k < 3; ++k)
    for (int s = 0; s < 2; ++s) {
      const double sign = s ? -1 : 1;
      const int fa = a.hull->box_face[k][s], fb = 6 + b.hull->box_face[k][s];
      face_overlap[fa] = ha(k) + hb.dot(absC.row(k).transpose()) - sign * ta(k);
      face_normal[fa] = -sign * a.R.col(k);
      face_overlap[fb] = hb(k) + ha.dot(absC.col(k)) + sign * tb(k);
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
    const int i = (axis - 512) / 64, j = (axis - 512) % 64;
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    const Vec3 l = a.R.col(i).cross(b.R.col(j));
    const double length2 = l.squaredNorm();
    if (length2 < 1e-18) return false;
    // Projections on the unnormalised l, scaled once: one root and one division per axis.
    const double ra = ha(i1) * absC(i2, j) + ha(i2) * absC(i1, j);
    const double rb = hb(j1) * absC(i, j2) + hb(j2) * absC(i, j1);
    const double s = ta(i2) * C(i1, j) - ta(i1) * C(i2, j);
    const double inverse = 1 / std::sqrt(length2);
    overlap = (ra + rb - std::abs(s)) * inverse;
    normal = (s <= 0 ? inverse : -inverse) * l;
    return true;
  };
  return search_axes(6, 6, 3, 3, cached, along);
}

}  // namespace stepwise
