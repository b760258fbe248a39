#pragma once
// Solvers of the velocity-level contact problem (contact_system.hpp): each point's normal
// impulse P_n >= 0 with u_n >= target, one of them at its bound, and its friction impulse on the
// circular cone |P_t| <= mu P_n, stopping the point where it can (sticking) and otherwise
// against its sliding (maximal dissipation).
#include <vector>

#include "core/impulse/contact_system.hpp"
#include "core/impulse/contact_treatment.hpp"

namespace stepwise {

struct SolveResult {
  int sweeps = 0;
  bool converged = false;  // no sweep changed a point's velocity by more than 1e-10 of the start
};

// Projected Gauss-Seidel over these rows, forward and backward in turn, from the impulses they
// hold (a warm start); target is indexed by row.
SolveResult projected_gauss_seidel(ContactSystem& system, const std::vector<int>& rows,
                                   const std::vector<double>& target, int sweeps);

// Every island of the system on its own: projected Gauss-Seidel, and for an island of at most
// kExactRows points, subspace minimisation between its sweeps (Silcowitz, Niebe & Erleben
// 2010): the points whose impulses are inside their bounds (touching, sticking) take the
// impulses that make their velocities exactly the targets, by one linear solve on the Delassus
// matrix (least squares where it is singular, as four corners of a face are), kept if they
// stay inside the bounds. A stack at rest then rests exactly, where Gauss-Seidel alone would
// creep on for thousands of sweeps. Returns the sweeps of the largest island.
constexpr int kExactRows = 96;
// Solver::lemke: islands of at most kPivotRows points by Lemke's method on the friction pyramid
// of `facets` sides (pivoting_solver.cpp), the others as automatic. (Its tableau grows as the
// square of points x (facets + 2): 16 points are a stack of four boxes, about 1 ms a step.)
constexpr int kPivotRows = 16;
SolveResult solve_contacts(ContactSystem& system, const std::vector<double>& target, int sweeps,
                           ContactTreatment::Solver solver = ContactTreatment::Solver::automatic,
                           int facets = 8);

// One island as a linear complementarity problem: each point's friction cone replaced by a
// pyramid of `facets` sides, its first edge against the point's sliding, solved exactly by
// Lemke's method (W: the island's Delassus matrix). False if Lemke's method found no solution
// (the island's impulses are then as they were).
bool solve_island_by_pivoting(ContactSystem& system, const std::vector<int>& rows,
                              const std::vector<double>& target, int facets,
                              const Eigen::MatrixXd& W);

// The friction impulse of a sliding point (its tangential block K given by its eigenvectors
// and eigenvalues): on the cone's edge |P| = cap, against the velocity u = a + K P it leaves.
Eigen::Vector2d sliding_impulse(const Eigen::Matrix2d& axes, const Eigen::Vector2d& eigen,
                                const Eigen::Vector2d& a, double cap, double* guess = nullptr);

}  // namespace stepwise
