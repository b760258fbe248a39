#include "core/disk_union.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {
namespace {

constexpr double kTwoPi = 2 * M_PI;

// Integrals of 1/2 (x dy - y dx), 1/2 x^2 dy, -1/2 y^2 dx and 1/3 (x^3 dy - y^3 dx) along the
// circle x = a + R cos u, y = b + R sin u for u in [u0, u1]: by Green's theorem their sums over
// the union's boundary are its area, first moments and polar moment about the origin.
struct ArcIntegrals {
  double area = 0, mx = 0, my = 0, polar = 0;
};

ArcIntegrals arc(double a, double b, double R, double u0, double u1) {
  // Antiderivatives of c, s, c^2, s^2, c^3, s^3, c^4, s^4 (c = cos u, s = sin u).
  auto F = [](double u) {
    const double c = std::cos(u), s = std::sin(u), s2 = std::sin(2 * u), s4 = std::sin(4 * u);
    struct {
      double c1, s1, c2, s2, c3, s3, c4, s4;
    } f{s,
        -c,
        u / 2 + s2 / 4,
        u / 2 - s2 / 4,
        s - s * s * s / 3,
        -c + c * c * c / 3,
        3 * u / 8 + s2 / 4 + s4 / 32,
        3 * u / 8 - s2 / 4 + s4 / 32};
    return f;
  };
  const auto f1 = F(u1), f0 = F(u0);
  const double c1 = f1.c1 - f0.c1, s1 = f1.s1 - f0.s1, c2 = f1.c2 - f0.c2, s2 = f1.s2 - f0.s2;
  const double c3 = f1.c3 - f0.c3, s3 = f1.s3 - f0.s3, c4 = f1.c4 - f0.c4, s4 = f1.s4 - f0.s4;
  const double du = u1 - u0;
  ArcIntegrals r;
  r.area = 0.5 * (R * R * du + R * a * c1 + R * b * s1);
  r.mx = 0.5 * R * (a * a * c1 + 2 * a * R * c2 + R * R * c3);
  r.my = 0.5 * R * (b * b * s1 + 2 * b * R * s2 + R * R * s3);
  r.polar = R / 3 *
            (a * a * a * c1 + 3 * a * a * R * c2 + 3 * a * R * R * c3 + R * R * R * c4 +
             b * b * b * s1 + 3 * b * b * R * s2 + 3 * b * R * R * s3 + R * R * R * s4);
  return r;
}

// The angles of disk i's circle that disk j covers, as intervals within [0, 2 pi); whether j
// covers all of it.
bool covered(const ClumpSphere& di, const ClumpSphere& dj, bool j_first,
             std::vector<std::pair<double, double>>& out) {
  const double dx = dj.centre.x() - di.centre.x(), dy = dj.centre.y() - di.centre.y();
  const double d = std::hypot(dx, dy), ri = di.radius, rj = dj.radius;
  if (d == 0 && ri == rj) return j_first;  // the same disk twice: the first one's circle counts
  if (d + ri <= rj) return true;           // i inside j
  if (d >= ri + rj || d + rj <= ri) return false;
  const double phi = std::atan2(dy, dx);
  const double half = std::acos(std::clamp((ri * ri + d * d - rj * rj) / (2 * ri * d), -1.0, 1.0));
  double lo = std::fmod(phi - half + 2 * kTwoPi, kTwoPi), hi = lo + 2 * half;
  if (hi <= kTwoPi) {
    out.emplace_back(lo, hi);
  } else {
    out.emplace_back(lo, kTwoPi);
    out.emplace_back(0, hi - kTwoPi);
  }
  return false;
}

}  // namespace

PlaneMassProperties disk_union_properties(const std::vector<ClumpSphere>& disks) {
  if (disks.empty()) throw InputError("a clump of disks needs at least one disk");
  ArcIntegrals sum;
  std::vector<std::pair<double, double>> cover;
  for (size_t i = 0; i < disks.size(); ++i) {
    const ClumpSphere& di = disks[i];
    cover.clear();
    bool hidden = false;
    for (size_t j = 0; j < disks.size() && !hidden; ++j)
      if (j != i) hidden = covered(di, disks[j], j < i, cover);
    if (hidden) continue;
    std::sort(cover.begin(), cover.end());
    // The free arcs are the gaps between the merged covered intervals.
    double from = 0;
    auto add = [&](double u0, double u1) {
      if (u1 <= u0) return;
      const ArcIntegrals a = arc(di.centre.x(), di.centre.y(), di.radius, u0, u1);
      sum.area += a.area, sum.mx += a.mx, sum.my += a.my, sum.polar += a.polar;
    };
    for (const auto& [lo, hi] : cover) {
      add(from, lo);
      from = std::max(from, hi);
    }
    add(from, kTwoPi);
  }
  PlaneMassProperties p;
  p.area = sum.area;
  p.centroid = Vec3(sum.mx / sum.area, sum.my / sum.area, 0);
  p.polar = sum.polar - sum.area * p.centroid.head<2>().squaredNorm();  // parallel axes
  return p;
}

}  // namespace stepwise
