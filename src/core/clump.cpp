#include "core/clump.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

namespace stepwise {
namespace {

struct Moments {
  double m0 = 0;
  Vec3 m1 = Vec3::Zero();
  Mat3 m2 = Mat3::Zero();  // integral of r r^T
  double visits = 0;       // sphere-column tests made (the work of this resolution)
};

// Work allowed for one clump's integration: a finer grid whose visits would exceed it is not
// tried (a few tenths of a second at most here, a few seconds under the sanitizers), so no
// clump a file describes can stall loading.
constexpr double kVisitBudget = 4e6;

Moments integrate(const std::vector<ClumpSphere>& spheres, int n) {
  Vec3 lo = Vec3::Constant(INFINITY), hi = -lo;
  for (const ClumpSphere& s : spheres) {
    lo = lo.cwiseMin(s.centre - Vec3::Constant(s.radius));
    hi = hi.cwiseMax(s.centre + Vec3::Constant(s.radius));
  }
  const double dx = (hi.x() - lo.x()) / n, dy = (hi.y() - lo.y()) / n;
  Moments m;
  std::vector<std::pair<double, double>> spans;
  std::vector<const ClumpSphere*> slab;  // the spheres this x slab cuts
  for (int i = 0; i < n; ++i) {
    const double x = lo.x() + (i + 0.5) * dx;
    slab.clear();
    for (const ClumpSphere& s : spheres)
      if (std::abs(x - s.centre.x()) < s.radius) slab.push_back(&s);
    if (slab.empty()) continue;
    for (int j = 0; j < n; ++j) {
      const double y = lo.y() + (j + 0.5) * dy;
      spans.clear();
      m.visits += double(slab.size());
      for (const ClumpSphere* sp : slab) {
        const ClumpSphere& s = *sp;
        const double d2 =
            (x - s.centre.x()) * (x - s.centre.x()) + (y - s.centre.y()) * (y - s.centre.y());
        if (d2 >= s.radius * s.radius) continue;
        const double h = std::sqrt(s.radius * s.radius - d2);
        spans.emplace_back(s.centre.z() - h, s.centre.z() + h);
      }
      if (spans.empty()) continue;
      std::sort(spans.begin(), spans.end());
      // The union of the column's z intervals, integrated exactly: int 1, z, z^2 dz.
      double z0 = 0, z1 = 0, z2 = 0;
      double a = spans[0].first, b = spans[0].second;
      auto flush = [&] {
        z0 += b - a;
        z1 += 0.5 * (b * b - a * a);
        z2 += (b * b * b - a * a * a) / 3.0;
      };
      for (size_t k = 1; k < spans.size(); ++k) {
        if (spans[k].first > b) {
          flush();
          a = spans[k].first;
          b = spans[k].second;
        } else {
          b = std::max(b, spans[k].second);
        }
      }
      flush();
      const double area = dx * dy;
      m.m0 += area * z0;
      m.m1 += area * Vec3(x * z0, y * z0, z1);
      Mat3 block;
      block << x * x * z0, x * y * z0, x * z1, x * y * z0, y * y * z0, y * z1, x * z1, y * z1, z2;
      m.m2 += area * block;
    }
  }
  return m;
}

MassProperties from_moments(const Moments& m, int n) {
  MassProperties p;
  p.volume = m.m0;
  p.centre = m.m1 / m.m0;
  const Mat3 second = m.m2 - m.m0 * p.centre * p.centre.transpose();  // about the centroid
  p.inertia = second.trace() * Mat3::Identity() - second;
  Eigen::SelfAdjointEigenSolver<Mat3> solver(p.inertia);
  p.principal = solver.eigenvalues();
  Mat3 axes = solver.eigenvectors();
  if (axes.determinant() < 0) axes.col(2) = -axes.col(2);
  p.axes = Quat(axes).normalized();
  p.resolution = n;
  return p;
}

}  // namespace

MassProperties clump_mass_properties(const std::vector<ClumpSphere>& spheres, double tolerance) {
  if (spheres.empty()) throw InputError("a clump needs at least one sphere");
  for (const ClumpSphere& s : spheres)
    if (!(s.radius > 0) || !s.centre.allFinite())
      throw InputError("clump spheres need finite centres and positive radii");
  Moments coarse = integrate(spheres, 64);
  MassProperties previous = from_moments(coarse, 64);
  for (int n = 128; n <= 4096; n *= 2) {
    if (4 * coarse.visits > kVisitBudget) break;  // doubling n quadruples the work
    coarse = integrate(spheres, n);
    MassProperties next = from_moments(coarse, n);
    const double dv = std::abs(next.volume / previous.volume - 1);
    const double di = (next.inertia - previous.inertia).norm() / next.inertia.norm();
    previous = next;
    if (dv < tolerance && di < tolerance) break;
  }
  return previous;
}

Vec3 members_support(const std::vector<ClumpSphere>& spheres, const Vec3& d) {
  const double length = d.norm();
  Vec3 best = spheres[0].centre;
  double most = -INFINITY;
  for (const ClumpSphere& s : spheres) {
    const Vec3 p = s.centre + (length > 0 ? Vec3(s.radius / length * d) : Vec3::Zero());
    if (p.dot(d) > most) most = p.dot(d), best = p;
  }
  return best;
}

}  // namespace stepwise
