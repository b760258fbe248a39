// The implicit integrators' Newton solve (core/integrators/newton.hpp) on residuals whose
// answers are known: it reuses its matrix while that works, backs off where full steps would
// run away or jump back and forth, and stops at a residual with a jump instead of cycling.
#include <doctest/doctest.h>
#include <cmath>
#include <functional>

#include "core/integrators/newton.hpp"

using namespace stepwise;

namespace {

struct Solved {
  Positions u;
  IntegratorStats stats;
};

// Bodies' three dofs, each with the residual f(u) and derivative df(u), from `start`; or body
// 0's with f0 and df0.
using Function = std::function<double(double)>;
Solved solve(const Function& f, const Function& df, const Positions& start, const Function& f0 = {},
             const Function& df0 = {}) {
  Solved out{start, {}};
  const int n = int(start.cols());
  auto residual = [&](const Positions& u, Positions& r) {
    r = u.unaryExpr(f);
    if (f0) r.col(0) = u.col(0).unaryExpr(f0);
    return flat(r).norm();
  };
  auto matrix = [&](const Positions& u) {
    SparseMatrix J(3 * n, 3 * n);
    for (int k = 0; k < 3 * n; ++k) J.insert(k, k) = (k < 3 && df0 ? df0 : df)(u(k % 3, k / 3));
    return J;
  };
  newton_solve(out.u, residual, matrix, VecX::Ones(n), NewtonSettings{}, out.stats);
  return out;
}

}  // namespace

TEST_CASE("Newton: one matrix while it converges fast, a new one where it slows") {
  // u + u^3 / 10 from 0.5: the matrix at the start takes the error down some 14-fold an update
  // (1 - f'(0) / f'(0.5)), so it is kept to the end; Newton rebuilt at every iterate would have
  // built four.
  const Solved cubic =
      solve([](double u) { return u + 0.1 * u * u * u; }, [](double u) { return 1 + 0.3 * u * u; },
            Positions(Vec3(0.5, -0.4, 0.3)));
  CHECK(cubic.stats.newton_residual < 1e-10);
  CHECK(cubic.stats.newton_matrices == 1);
  CHECK(cubic.stats.newton_iterations >= 5);
  CHECK(cubic.u.norm() < 1e-10);
  // e^u - 1 from 2: the slope at the start is 7.4 times the slope at the root, so that matrix's
  // updates come to take off only 1/7.4 of the error each: rebuilt, and converged.
  const Solved exp = solve([](double u) { return std::exp(u) - 1; },
                           [](double u) { return std::exp(u); }, Positions(Vec3(2, 1.5, 1)));
  CHECK(exp.stats.newton_residual < 1e-10);
  CHECK(exp.stats.newton_matrices >= 2);
  CHECK(exp.stats.newton_matrices < exp.stats.newton_iterations - 2);
  CHECK(exp.u.norm() < 1e-10);
}

TEST_CASE("Newton: steps that overshoot are halved until the residual falls") {
  // atan(u): full Newton steps from |u| > 1.39 overshoot further each time and run away
  // (1.5 -> -1.69 -> 2.32 -> -5.11 ...); halved where they do not lower |r|, they converge.
  const Solved atan =
      solve([](double u) { return std::atan(u); }, [](double u) { return 1 / (1 + u * u); },
            Positions(Vec3(1.5, -2.0, 3.0)));
  CHECK(atan.stats.newton_residual < 1e-10);
  CHECK(atan.u.norm() < 1e-10);
}

TEST_CASE("Newton: a residual with a jump and no root ends at its lowest, not cycling") {
  // u + sign(u) / 2 (+1/2 at 0) has no root: Newton from 1 jumps between -1/2 and 1/2, |r| = 1,
  // to the iteration limit. Taking only updates that lower |r| it comes to u = 0, where
  // |r| = 1/2 is the least there is, and stops: the step from there lowers no residual.
  auto f = [](double u) { return u + (u >= 0 ? 0.5 : -0.5); };
  const Solved jump = solve(
      f, [](double) { return 1.0; }, Positions(Vec3(1, 1, 1)));
  CHECK(jump.u.norm() == 0.0);
  CHECK(jump.stats.newton_residual == doctest::Approx(0.5 * std::sqrt(3.0)));
  CHECK(jump.stats.newton_iterations < 25);  // (of the 60 allowed)
  CHECK(jump.stats.newton_held == 1);
  // Body 0 at the jump from the start, u + u^3 / 10 from 0.5 in two more: the steps that lower
  // the residual take body 0 about the jump, until none does; then body 0, whose residual grew
  // even so, is held and the others converge, judged by their own residual.
  Positions start = Positions::Constant(3, 3, 0.5);
  start.col(0).setZero();
  const Solved mixed =
      solve([](double u) { return u + 0.1 * u * u * u; }, [](double u) { return 1 + 0.3 * u * u; },
            start, f, [](double) { return 1.0; });
  CHECK(mixed.u.col(0).norm() < 0.01);
  CHECK(mixed.u.rightCols(2).norm() < 1e-10);
  CHECK(mixed.stats.newton_residual_rest < 1e-10);
  CHECK(mixed.stats.newton_held == 1);
  CHECK(mixed.stats.newton_residual == doctest::Approx(0.5 * std::sqrt(3.0)).epsilon(0.01));
}

TEST_CASE("the masses go onto the Newton matrix's diagonal as adding them entry by entry would") {
  // Three bodies: the first two coupled (a full 6x6 block), the third with no entries at all,
  // as a body nothing touches; one diagonal entry of the block stored as an explicit zero.
  SparseMatrix A(9, 9);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) A.insert(r, c) = r == 4 && c == 4 ? 0.0 : 0.1 * (r + 1) - 0.3 * c;
  A.makeCompressed();
  const VecX mass = (VecX(3) << 2.5, 1e-3, 7.0).finished();
  for (double sign : {1.0, -1.0}) {
    SparseMatrix entrywise = A;  // the plain way
    for (int j = 0; j < 9; ++j) entrywise.coeffRef(j, j) += sign * mass(j / 3);
    entrywise.makeCompressed();
    const SparseMatrix summed = plus_masses(A, mass, sign);
    REQUIRE(summed.nonZeros() == entrywise.nonZeros());
    for (int c = 0; c < 9; ++c)
      for (int r = 0; r < 9; ++r) CHECK(summed.coeff(r, c) == entrywise.coeff(r, c));
    CHECK(summed.coeff(8, 8) == sign * 7.0);  // the untouched body's mass, inserted
  }
}

namespace {

// A sparse matrix of n bodies: a diagonal of `diagonal` (its sign alternating by body) and, for
// each pair of neighbouring bodies, off-diagonal entries in both rows, adding up to
// at most 0.72 `coupling` of it in each row; the last body with no entries off the diagonal.
SparseMatrix coupled(int n, double diagonal, double coupling) {
  std::vector<Eigen::Triplet<double>> t;
  const int dofs = 3 * n;
  for (int j = 0; j < dofs; ++j) t.emplace_back(j, j, (j / 3) % 2 ? -diagonal : diagonal);
  for (int b = 0; b + 2 < n; ++b)  // body b with b + 1: six entries a row, of either sign
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 3; ++c) {
        const double value = coupling * diagonal / 12 * (1 + 0.5 * std::sin(7.0 * b + 3 * a + c));
        t.emplace_back(3 * b + a, 3 * (b + 1) + c, value);
        t.emplace_back(3 * (b + 1) + c, 3 * b + a, -0.9 * value);
      }
  SparseMatrix J(dofs, dofs);
  J.setFromTriplets(t.begin(), t.end());
  return J;
}

Eigen::VectorXd some_residual(int dofs) {
  Eigen::VectorXd r(dofs);
  for (int j = 0; j < dofs; ++j) r(j) = std::cos(1.3 * j) * (1 + j % 5);
  return r;
}

}  // namespace

TEST_CASE("a diagonally dominant Newton matrix is solved by iteration, as its LU solves it") {
  const int n = 40;
  VecX inv_mass = VecX::Ones(n);
  inv_mass(5) = 0;  // a fixed body: its dofs' updates stay zero
  const Eigen::VectorXd r = some_residual(3 * n);
  for (double coupling : {0.05, 0.45}) {  // a packing's few per cent, and near the bound
    CAPTURE(coupling);
    const SparseMatrix J = coupled(n, 2.5, coupling);
    NewtonMatrix iterated, factorised;
    iterated.build(J, inv_mass);
    factorised.build(J, inv_mass, true);
    CHECK(iterated.iterated() == 1);
    CHECK(factorised.iterated() == 0);
    const Eigen::VectorXd a = iterated.update(r, 1.0), b = factorised.update(r, 1.0);
    CHECK((a - b).lpNorm<Eigen::Infinity>() <= 1e-14 * b.lpNorm<Eigen::Infinity>());
    CHECK(a.segment<3>(15).isZero(0));
  }
}

TEST_CASE("a Newton matrix whose rows are not dominant keeps the sparse LU") {
  // A stiff spring at a long step: h^2 k far above m, each row's coupling its diagonal's size.
  const int n = 12;
  const SparseMatrix J = coupled(n, 1.0, 1.5);
  NewtonMatrix matrix;
  matrix.build(J, VecX::Ones(n));
  CHECK(matrix.iterated() == 0);
  const Eigen::VectorXd r = some_residual(3 * n);
  const Eigen::VectorXd delta = matrix.update(r, 1.0);
  CHECK((J * delta + r).norm() <= 1e-12 * r.norm());
}
