// The rigid-contact solver against an independent one: Siconos numerics' fc3d (Debian's
// libsiconos-numerics-dev, test-only). On 1000 random small contact problems (bodies of random
// masses and shapes, random points, normals and friction), stepwise's Gauss-Seidel with
// subspace minimisation and Siconos' nonsmooth Gauss-Seidel solve the same Coulomb problem
// u = W r + q, 0 <= u_n _|_ r_n >= 0, |r_t| <= mu r_n, sticking or sliding against u_t: the
// two answers agree, and Siconos' own error measure accepts stepwise's.
#include <doctest/doctest.h>

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc3d_compute_error.h>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/impulse/contact_solver.hpp"
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
