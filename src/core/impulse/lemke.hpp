#pragma once
// Lemke's complementary pivoting method for the linear complementarity problem
//   w = M z + q,  w >= 0,  z >= 0,  w_i z_i = 0,
// with the covering vector of ones and the lexicographic rule (so a degenerate problem, as four
// corners of a face resting on a floor make, cannot cycle). Exact in finitely many pivots: it
// ends on a solution, or on a secondary ray where none can be found by it (M copositive-plus
// with no solution; Lemke's theorem), which it reports.
#include <vector>

#include <Eigen/Core>

namespace stepwise {

struct LemkeResult {
  bool solved = false;
  int pivots = 0;
  std::vector<int> basis;  // the basic variable of each row at the end: i < n w_i, else z_(i-n)
};

// z is resized to q's size; solved only if w >= 0 and w_i z_i = 0 hold to 1e-9 of the problem's
// scale when checked on the answer (round-off in an ill-conditioned basis is caught, not
// returned). max_pivots bounds the work (the method itself always ends, but a
// bound keeps a near-singular problem from costing more than its caller allows).
LemkeResult lemke(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, Eigen::VectorXd& z,
                  int max_pivots);

// The solution that a basis (from lemke()) stands for, from one linear solve with the
// original columns: a basis found on a nearby problem (M plus ridge on the diagonal) gives this
// one's exact answer where the same points touch. Where M's own basis is singular (four corners
// of a face), `ridge` > 0 reaches the answer nearest the ridged one by iterated Tikhonov. False,
// z unchanged, unless it checks as lemke()'s does.
bool solve_on_basis(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                    const std::vector<int>& basis, Eigen::VectorXd& z, double ridge = 0);

}  // namespace stepwise
