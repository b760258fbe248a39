// The rigid-contact solvers against independent ones: Siconos numerics' fc3d and LCP solvers
// (Debian's libsiconos-numerics-dev, test-only). On 1000 random small contact problems (bodies of
// random masses and shapes, random points, normals and friction), stepwise's Gauss-Seidel with
// subspace minimisation and Siconos' nonsmooth Gauss-Seidel solve the same Coulomb problem
// u = W r + q, 0 <= u_n _|_ r_n >= 0, |r_t| <= mu r_n, sticking or sliding against u_t: the
// two answers agree, and Siconos' own error measure accepts stepwise's.
#include <doctest/doctest.h>

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc3d_compute_error.h>
#include <siconos/numerics/lcp_cst.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/impulse/contact_solver.hpp"
#include "core/impulse/lemke.hpp"
#include "core/random.hpp"

using namespace stepwise;

namespace {

Vec3 random_unit(Random& random) {
  const Vec3 v(random.normal(), random.normal(), random.normal());
  return v.normalized();
}

// Two or three bodies (boxes of random sides, masses, orientations and motions, their centres
// within 0.3 of the origin), one to three contacts between them or against a wall, at points
// within 0.3 of the origin: touching bodies' arms, not a lever from afar.
World random_world(Random& random, std::vector<ForceModel::RigidContact>& contacts) {
  World world;
  const int bodies = 2 + int(random.uniform() * 2);
  for (int b = 0; b < bodies; ++b) {
    const Vec3 half(random.uniform(0.1, 0.5), random.uniform(0.1, 0.5), random.uniform(0.1, 0.5));
    const Quat q(Eigen::AngleAxisd(random.uniform(0, M_PI), random_unit(random)));
    BodySpec body =
        shaped_body(box_shape(half), random.uniform(0.5, 2.0), 0.3 * random_unit(random), q);
    body.velocity = Vec3(random.normal(), random.normal(), random.normal());
    body.angular_velocity = Vec3(random.normal(), random.normal(), random.normal());
    world.add_body(body);
  }
  const int count = 1 + int(random.uniform() * 3);
  for (int c = 0; c < count; ++c) {
    const int i = int(random.uniform() * bodies);
    int j = int(random.uniform() * (bodies + 1)) - 1;  // -1: a wall
    if (j == i) j = -1;
    const Vec3 at = 0.3 * random.uniform() * random_unit(random);
    contacts.push_back({i, j, at, random_unit(random), 0.0, std::uint64_t(c),
                        random.uniform(0, 1.0), Vec3::Zero()});
  }
  return world;
}

struct Answer {
  Eigen::VectorXd r, u;
};

}  // namespace

TEST_CASE("impulse solver agrees with Siconos' fc3d on 1000 random small contact problems") {
  Random random(2026);
  int compared = 0, regular = 0, sliding = 0;
  double worst_gap = 0, worst_error = 0;
  for (int problem = 0; problem < 1000; ++problem) {
    std::vector<ForceModel::RigidContact> contacts;
    const World world = random_world(random, contacts);
    ContactSystem system;
    system.build(world, contacts);
    const int m = int(contacts.size());
    std::vector<int> all(m);
    for (int k = 0; k < m; ++k) all[k] = k;
    Eigen::MatrixXd W = system.delassus(all);
    Eigen::VectorXd q(3 * m), mu(m);
    for (int k = 0; k < m; ++k) {
      q.segment<3>(3 * k) = system.velocity(system.rows()[k]);
      mu(k) = contacts[k].mu;
    }
    // stepwise
    const SolveResult solved = solve_contacts(system, std::vector<double>(m, 0.0), 100000);
    REQUIRE(solved.converged);
    Answer ours{Eigen::VectorXd(3 * m), Eigen::VectorXd(3 * m)};
    for (int k = 0; k < m; ++k) {
      ours.r.segment<3>(3 * k) = system.rows()[k].impulse;
      ours.u.segment<3>(3 * k) = system.velocity(system.rows()[k]);
    }
    CHECK((ours.u - (W * ours.r + q)).norm() < 1e-10 * (1 + q.norm()));
    // Siconos, on copies it owns (column-major dense W, as Eigen's).
    auto owned = [](const double* data, size_t count) {
      double* copy = static_cast<double*>(std::malloc(count * sizeof(double)));
      std::memcpy(copy, data, count * sizeof(double));
      return copy;
    };
    NumericsMatrix* M = NM_create_from_data(NM_DENSE, 3 * m, 3 * m, owned(W.data(), W.size()));
    FrictionContactProblem* fc = frictionContactProblem_new_with_data(
        3, m, M, owned(q.data(), q.size()), owned(mu.data(), mu.size()));
    SolverOptions* options = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = 100000;
    options->dparam[SICONOS_DPARAM_TOL] = 1e-14;
    Answer theirs{Eigen::VectorXd::Zero(3 * m), Eigen::VectorXd::Zero(3 * m)};
    const int info = fc3d_driver(fc, theirs.r.data(), theirs.u.data(), options);
    // Siconos' error of our answer (its normal-map residual, relative to |q|).
    double error = 0;
    fc3d_compute_error(fc, ours.r.data(), ours.u.data(), 1e-10, options, q.norm(), &error);
    worst_error = std::max(worst_error, error);
    CHECK(error < 1e-8);
    if (info == 0) {
      ++compared;
      const double scale = 1 + theirs.r.norm();
      // The impulses are unique where W is regular (three points between two bodies may ask
      // for more than their six relative motions: then only the velocities are).
      const Eigen::VectorXd eigen = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(W).eigenvalues();
      if (eigen.minCoeff() > 1e-8 * eigen.maxCoeff()) {
        ++regular;
        worst_gap = std::max(worst_gap, (ours.r - theirs.r).norm() / scale);
        CHECK((ours.r - theirs.r).norm() < 1e-6 * scale);
      }
      CHECK((ours.u - theirs.u).norm() < 1e-6 * (1 + q.norm()));
    }
    for (int k = 0; k < m; ++k)
      sliding += ours.r(3 * k) > 0 &&
                 ours.r.segment<2>(3 * k + 1).norm() >= mu(k) * ours.r(3 * k) * (1 - 1e-9);
    solver_options_delete(options);
    frictionContactProblem_free(fc);
  }
  MESSAGE("compared " << compared << " of 1000 with Siconos (" << regular << " with a regular W); "
                      << sliding << " sliding points; largest relative gap in impulses "
                      << worst_gap << "; largest Siconos error of ours " << worst_error);
  CHECK(compared > 950);
  CHECK(regular > 500);
  CHECK(sliding > 100);  // the sample exercises the cone's edge, not only sticking
}

namespace {

// Siconos' answer to w = M z + q, 0 <= z _|_ w >= 0 by the named solver; false if it found none.
bool siconos_lcp(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, int solver,
                 Eigen::VectorXd& z) {
  const int n = int(q.size());
  auto owned = [](const double* data, size_t count) {
    double* copy = static_cast<double*>(std::malloc(count * sizeof(double)));
    std::memcpy(copy, data, count * sizeof(double));
    return copy;
  };
  LinearComplementarityProblem* problem = newLCP();
  problem->size = n;
  problem->M = NM_create_from_data(NM_DENSE, n, n, owned(M.data(), M.size()));
  problem->q = owned(q.data(), q.size());
  SolverOptions* options = solver_options_create(solver);
  z = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  const int info = linearComplementarity_driver(problem, z.data(), w.data(), options);
  solver_options_delete(options);
  freeLinearComplementarityProblem(problem);
  return info == 0;
}

// How far z is from solving the LCP: the worst of -w, -z and |w_i z_i|, relative to the data.
double lcp_violation(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& z) {
  const Eigen::VectorXd w = M * z + q;
  const double scale = 1 + q.cwiseAbs().maxCoeff() + (M * z).cwiseAbs().maxCoeff();
  return std::max({-w.minCoeff(), -z.minCoeff(), w.cwiseProduct(z).cwiseAbs().maxCoeff()}) / scale;
}

}  // namespace

TEST_CASE("Lemke's method agrees with Siconos' on 1000 random LCPs, degenerate ones among them") {
  Random random(24);
  int unique = 0, degenerate = 0;
  double worst_gap = 0, worst_violation = 0;
  for (int problem = 0; problem < 1000; ++problem) {
    const int n = 1 + problem % 30;
    Eigen::MatrixXd A(n, n), S(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A(i, j) = random.normal(), S(i, j) = random.normal();
    Eigen::MatrixXd M;
    Eigen::VectorXd q(n);
    if (problem % 2 == 0) {
      // A P-matrix (positive definite symmetric part): one solution, which both must find.
      M = A * A.transpose() + (S - S.transpose()) + 0.1 * Eigen::MatrixXd::Identity(n, n);
      for (int i = 0; i < n; ++i) q(i) = random.normal();
    } else {
      // Positive semi-definite of rank n / 2 (copositive-plus: Lemke's method cannot fail on a
      // feasible one), q made from a solution with ties (w_i = z_i = 0) as a degenerate
      // contact problem has: four corners of a face, one of them carrying nothing.
      const Eigen::MatrixXd half = A.leftCols((n + 1) / 2);
      M = half * half.transpose();
      Eigen::VectorXd z0 = Eigen::VectorXd::Zero(n), w0 = Eigen::VectorXd::Zero(n);
      for (int i = 0; i < n; ++i) {
        const double pick = random.uniform();
        if (pick < 0.4)
          z0(i) = random.uniform();
        else if (pick < 0.8)
          w0(i) = random.uniform();
      }
      q = w0 - M * z0;
    }
    Eigen::VectorXd ours, theirs;
    const LemkeResult result = lemke(M, q, ours, 50 * n + 100);
    REQUIRE(result.solved);
    const double violation = lcp_violation(M, q, ours);
    worst_violation = std::max(worst_violation, violation);
    CHECK(violation < 1e-12);
    if (problem % 2 == 0) {
      REQUIRE(siconos_lcp(M, q, n <= 10 ? SICONOS_LCP_ENUM : SICONOS_LCP_LEMKE, theirs));
      const double gap = (ours - theirs).norm() / (1 + theirs.norm());
      worst_gap = std::max(worst_gap, gap);
      CHECK(gap < 1e-9);
      ++unique;
    } else if (siconos_lcp(M, q, SICONOS_LCP_LEMKE, theirs)) {
      // Many solutions: the velocities w are what is unique (M symmetric semi-definite).
      const Eigen::VectorXd w_ours = M * ours + q, w_theirs = M * theirs + q;
      CHECK((w_ours - w_theirs).norm() < 1e-8 * (1 + q.norm()));
      ++degenerate;
    }
  }
  MESSAGE("Lemke: " << unique << " P-matrix problems against Siconos (largest gap " << worst_gap
                    << "), " << degenerate << " degenerate ones; largest violation "
                    << worst_violation);
  CHECK(unique == 500);
  CHECK(degenerate > 400);
}

TEST_CASE("the pivoting contact solver: Siconos' answer without friction, the pyramid's with it") {
  Random random(2027);
  double worst_frictionless = 0, worst_cone = 0;
  int sliding = 0, sticking = 0;
  const int facets = 8;
  for (int problem = 0; problem < 1000; ++problem) {
    std::vector<ForceModel::RigidContact> contacts;
    World world = random_world(random, contacts);
    const bool frictionless = problem % 2 == 0;
    if (frictionless)
      for (auto& c : contacts) c.mu = 0;
    ContactSystem system;
    system.build(world, contacts);
    const int m = int(contacts.size());
    std::vector<int> all(m);
    for (int k = 0; k < m; ++k) all[k] = k;
    const Eigen::MatrixXd W = system.delassus(all);
    REQUIRE(solve_island_by_pivoting(system, all, std::vector<double>(m, 0.0), facets, W));
    if (frictionless) {
      // Without friction the problem is an LCP in the normal impulses alone: Siconos' own
      // enumerative solver on it; the velocities are unique (W is semi-definite).
      std::vector<int> normal;
      for (int k = 0; k < m; ++k) normal.push_back(3 * k);
      Eigen::VectorXd q(3 * m);
      for (int k = 0; k < m; ++k) q.segment<3>(3 * k) = system.velocity(system.rows()[k]);
      Eigen::VectorXd held(3 * m);
      for (int k = 0; k < m; ++k) held.segment<3>(3 * k) = system.rows()[k].impulse;
      q -= W * held;  // the velocities before any impulse
      Eigen::MatrixXd Wnn(m, m);
      Eigen::VectorXd qn(m), rn;
      for (int a = 0; a < m; ++a) {
        qn(a) = q(normal[a]);
        for (int b = 0; b < m; ++b) Wnn(a, b) = W(normal[a], normal[b]);
      }
      REQUIRE(siconos_lcp(Wnn, qn, SICONOS_LCP_ENUM, rn));
      Eigen::VectorXd theirs = q;
      for (int b = 0; b < m; ++b) theirs += W.col(normal[b]) * rn(b);
      for (int k = 0; k < m; ++k)
        worst_frictionless =
            std::max(worst_frictionless,
                     (system.velocity(system.rows()[k]) - Vec3(theirs.segment<3>(3 * k))).norm());
      continue;
    }
    // The pyramid's conditions at every point, checked on the answer: touching normals push
    // and do not close, the friction lies in the cone (the pyramid is inside it), a point that
    // slips is resisted by a friction no more than cos(pi / facets) off the best it could do
    // against the slip within the cone, and one that holds has its friction where it chose.
    for (int k = 0; k < m; ++k) {
      const ContactSystem::Row& r = system.rows()[k];
      const Vec3 u = system.velocity(r), P = r.impulse;
      CHECK(P.x() >= 0);
      CHECK(u.x() > -1e-10);
      CHECK(std::abs(P.x() * u.x()) < 1e-10);
      CHECK(P.tail<2>().norm() <= r.mu * P.x() * (1 + 1e-12) + 1e-14);
      const double slip = u.tail<2>().norm();
      if (slip > 1e-9 && P.x() > 1e-9) {
        ++sliding;
        const double against = -P.tail<2>().dot(u.tail<2>()) / (slip * r.mu * P.x());
        worst_cone = std::max(worst_cone, 1 - against);
        CHECK(against > std::cos(M_PI / facets) - 1e-9);
      } else if (P.x() > 1e-9) {
        ++sticking;
      }
    }
  }
  MESSAGE("pivoting: frictionless velocities within "
          << worst_frictionless << " of Siconos'; " << sliding << " sliding points, worst friction "
          << worst_cone << " short of mu P_n "
          << "against the slip; " << sticking << " sticking points");
  CHECK(worst_frictionless < 1e-9);
  CHECK(sliding > 100);
  CHECK(sticking > 40);
}
