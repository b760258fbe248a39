// The contact problem of an island as one linear complementarity problem, solved by Lemke's
// method (contact_solver.hpp): the exact answer for the friction cone replaced by a pyramid.
//
// The formulation is Stewart and Trinkle's (1996), at velocity level as Anitescu and Potra's
// (1997), for which Lemke's method is proven to end on a solution. At point k, with normal
// impulse c, friction sum_j beta_j d_j over d tangent directions d_j spaced 2 pi / d apart, and
// lambda (the sliding speed, a multiplier):
//   u_n - target     >= 0  _|_  c      >= 0
//   d_j . u_t + lambda >= 0  _|_  beta_j >= 0
//   mu c - sum beta_j  >= 0  _|_  lambda >= 0,
// u = W P + u_free, P the impulses in the points' frames. Sticking points hold any friction
// inside the pyramid; a sliding point's friction is mu c along the directions closest to
// against its sliding. The first direction is laid against the point's velocity before the
// solve, so a point that slides on the way it went (a box down an incline) gets the full mu c
// against its motion: the pyramid only shows where the sliding turns.
#include <algorithm>
#include <cmath>

#include "core/impulse/contact_solver.hpp"
#include "core/impulse/lemke.hpp"

namespace stepwise {

bool solve_island_by_pivoting(ContactSystem& system, const std::vector<int>& rows,
                              const std::vector<double>& target, int facets,
                              const Eigen::MatrixXd& W) {
  auto& all = system.rows();
  const int m = int(rows.size());
  // Each point's unknowns: c, then (if it has friction) d betas; the lambdas after all of them.
  std::vector<int> first(m + 1, 0), directions(m, 0);
  int lambdas = 0;
  for (int k = 0; k < m; ++k) {
    directions[k] = all[rows[k]].mu > 0 ? facets : 0;
    first[k + 1] = first[k] + 1 + directions[k];
    lambdas += directions[k] > 0;
  }
  const int impulses = first[m], n = impulses + lambdas;
  // G maps the unknowns to the points' impulses (frame components); u_free is the velocity the
  // points would have with none (the island holds warm-start impulses: take them out).
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(3 * m, impulses);
  Eigen::VectorXd held(3 * m), u(3 * m);
  for (int k = 0; k < m; ++k) {
    const ContactSystem::Row& r = all[rows[k]];
    held.segment<3>(3 * k) = r.impulse;
    u.segment<3>(3 * k) = system.velocity(r);
  }
  const Eigen::VectorXd u_free = u - W * held;
  const double still = 1e-6 * u_free.cwiseAbs().maxCoeff();
  for (int k = 0; k < m; ++k) {
    G(3 * k, first[k]) = 1;
    const Eigen::Vector2d slide = u_free.segment<2>(3 * k + 1);
    const double start =
        slide.norm() > still ? std::atan2(-slide.y(), -slide.x()) : 0.0;  // against the sliding
    for (int j = 0; j < directions[k]; ++j) {
      const double angle = start + 2 * M_PI * j / directions[k];
      G(3 * k + 1, first[k] + 1 + j) = std::cos(angle);
      G(3 * k + 2, first[k] + 1 + j) = std::sin(angle);
    }
  }
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(n);
  M.topLeftCorner(impulses, impulses) = G.transpose() * W * G;
  q.head(impulses) = G.transpose() * u_free;
  for (int k = 0, l = impulses; k < m; ++k) {
    q(first[k]) -= target[rows[k]];
    if (directions[k] == 0) continue;
    M(l, first[k]) = all[rows[k]].mu;
    for (int j = 0; j < directions[k]; ++j) {
      M(first[k] + 1 + j, l) = 1;
      M(l, first[k] + 1 + j) = -1;
    }
    ++l;
  }
  Eigen::VectorXd z;
  // In exact arithmetic Lemke's method solves this problem (M is copositive and q lies in the
  // dual of its solutions at q = 0: Anitescu and Potra). In floating point a degenerate island -
  // a face's four corners, points that together ask more than their bodies' six motions - can
  // end it on a ray, or leave it to choose among many answers a different one each step, which
  // makes a stack rock. A ridge on the impulses' diagonal gives one answer; if that still ends
  // on a ray, a ridge on the lambdas' too makes M strictly copositive (it cannot end on a ray).
  // The ridge's own error (1e-12 of a velocity) is then taken out by solving the problem itself
  // on the basis the ridged one ended on, where that basis serves it.
  const double diagonal = M.diagonal().cwiseAbs().maxCoeff();
  bool solved = false;
  for (int attempt = 0; attempt < 4 && !solved; ++attempt) {
    const double ridge = (attempt % 2 ? 1e-10 : 1e-12) * diagonal;
    Eigen::MatrixXd R = M;
    R.diagonal().head(attempt < 2 ? impulses : n).array() += ridge;
    const LemkeResult result = lemke(R, q, z, 50 * n + 100);
    if ((solved = result.solved) && !solve_on_basis(M, q, result.basis, z))
      solve_on_basis(M, q, result.basis, z, ridge);
  }
  if (!solved) return false;
  const Eigen::VectorXd P = G * z.head(impulses);
  for (int k = 0; k < m; ++k) {
    const Vec3 delta = P.segment<3>(3 * k) - held.segment<3>(3 * k);
    if (delta.squaredNorm() > 0) system.apply(all[rows[k]], delta);
  }
  return true;
}

}  // namespace stepwise
