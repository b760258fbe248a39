// Assembling J W Jᵀ row pair by row pair over shared bodies, and solving it.
#include "core/constraints/constraint_solver.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/rotation_scheme.hpp"
#include "core/world.hpp"

namespace stepwise {

BodyInverse body_inverse(const World& world, int body) {
  BodyInverse out;
  if (body < 0) return out;
  out.inv_mass = world.inv_mass(body);
  if (rotates_freely(world, body)) {
    const Mat3 R = world.q[body].toRotationMatrix();
    Vec3 inv = Vec3::Zero();
    const Vec3 moments = world.rotational_inertia(body);
    for (int k = 0; k < 3; ++k) inv(k) = moments(k) > 0 ? 1.0 / moments(k) : 0.0;
    out.inv_inertia = R * inv.asDiagonal() * R.transpose();
  }
  return out;
}

namespace {

// Row r's and row s's coupling through their ends on one body (slots k and l).
double coupling(const ConstraintRow& r, int k, const ConstraintRow& s, int l,
                const BodyInverse& w) {
  return w.inv_mass * r.lin[k].dot(s.lin[l]) + r.ang[k].dot(w.inv_inertia * s.ang[l]);
}

// Rows whose smallest pivot is below this share of the largest are taken as dependent.
constexpr double kRankTolerance = 1e-10;
// Past this many rows a singular set is regularised instead of decomposed densely.
constexpr int kDenseLimit = 300;  // a dense decomposition of 300 rows takes milliseconds

}  // namespace

void ConstraintSolver::factor(const std::vector<ConstraintRow>& rows,
                              const std::vector<BodyInverse>& inverse) {
  if (same_input(rows, inverse)) return;  // A is the one factored last (for speed only)
  ++factored_;
  size_ = static_cast<int>(rows.size());
  immovable_ = -1;
  dense_ = false;
  // Rows by body, so only rows that share a body are paired. (The lists are kept from step to
  // step, emptied, not freed: a small system's step was mostly allocation.)
  by_body_.resize(inverse.size());
  for (auto& list : by_body_) list.clear();
  for (int r = 0; r < size_; ++r)
    for (int k = 0; k < 2; ++k)
      if (rows[r].body[k] >= 0) by_body_[rows[r].body[k]].push_back({r, k});
  entries_.clear();
  for (size_t b = 0; b < by_body_.size(); ++b)
    for (auto [r, k] : by_body_[b])
      for (auto [s, l] : by_body_[b])
        if (s <= r) {
          const double value = coupling(rows[r], k, rows[s], l, inverse[b]);
          if (value != 0) entries_.emplace_back(r, s, value);
        }
  a_.resize(size_, size_);
  a_.setFromTriplets(entries_.begin(), entries_.end());  // lower triangle; duplicates summed
  double largest = 0;
  for (int r = 0; r < size_; ++r) largest = std::max(largest, a_.coeff(r, r));
  for (int r = 0; r < size_ && immovable_ < 0; ++r)
    if (!(a_.coeff(r, r) > 1e-14 * largest) || largest == 0) immovable_ = r;
  rank_ = size_;
  if (size_ == 0) return;
  // (compute() is analyzePattern() then factorize(): the ordering and the symbolic factor
  // depend on the pattern alone, so they are kept while it stays the same. For speed only.)
  if (!same_pattern()) ldlt_.analyzePattern(a_);  // reads the lower triangle
  ldlt_.factorize(a_);
  bool regular = ldlt_.info() == Eigen::Success;
  if (regular) {
    const VecX d = ldlt_.vectorD();
    regular = d.minCoeff() > kRankTolerance * d.cwiseAbs().maxCoeff();
  }
  if (regular) return;
  const Eigen::MatrixXd full = Eigen::MatrixXd(a_).selfadjointView<Eigen::Lower>();
  if (size_ <= kDenseLimit) {
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
    cod.setThreshold(kRankTolerance);
    cod.compute(full);
    rank_ = static_cast<int>(cod.rank());
    pseudo_inverse_ = cod.pseudoInverse();
    dense_ = true;
    return;
  }
  // Too large for a dense decomposition: A + εI, which for consistent redundant rows tends to the
  // minimum-norm answer; the rank is counted from its pivots.
  Eigen::SparseMatrix<double> shifted = a_;
  for (int r = 0; r < size_; ++r) shifted.coeffRef(r, r) += 1e-8 * largest;
  ldlt_.compute(shifted);
  pattern_outer_.clear();  // (the analysis is now shifted's)
  const VecX d = ldlt_.vectorD();
  rank_ = 0;
  for (int r = 0; r < size_; ++r) rank_ += d(r) > 1e-6 * largest;
}

bool ConstraintSolver::same_input(const std::vector<ConstraintRow>& rows,
                                  const std::vector<BodyInverse>& inverse) {
  // Per row end: its body, and where it is one, 16 numbers (directions, W block). Compared in
  // place first, bit for bit (memcmp, not ==: -0.0 and 0.0 are kept apart, a NaN is never the
  // same), so a step's repeated solves at one state write nothing; kept for the next call where
  // they differ. (For speed only.)
  auto same_end = [](const double* last, const ConstraintRow& row, int k, const BodyInverse& w) {
    return std::memcmp(last, row.lin[k].data(), 3 * sizeof(double)) == 0 &&
           std::memcmp(last + 3, row.ang[k].data(), 3 * sizeof(double)) == 0 &&
           std::memcmp(last + 6, &w.inv_mass, sizeof(double)) == 0 &&
           std::memcmp(last + 7, w.inv_inertia.data(), 9 * sizeof(double)) == 0;
  };
  bool same = factored_ > 0 && last_input_bodies_.size() == 2 * rows.size();
  size_t at = 0;
  for (size_t r = 0; r < rows.size() && same; ++r)
    for (int k = 0; k < 2 && same; ++k) {
      const int b = rows[r].body[k];
      same = last_input_bodies_[2 * r + size_t(k)] == b;
      if (!same || b < 0) continue;
      same = at + 16 <= last_input_.size() && same_end(&last_input_[at], rows[r], k, inverse[b]);
      at += 16;
    }
  if (same && at == last_input_.size()) return true;
  last_input_bodies_.clear();
  last_input_.clear();  // (capacity kept: no allocation once grown)
  for (const ConstraintRow& row : rows)
    for (int k = 0; k < 2; ++k) {
      const int b = row.body[k];
      last_input_bodies_.push_back(b);
      if (b < 0) continue;
      const BodyInverse& w = inverse[b];
      for (int i = 0; i < 3; ++i) last_input_.push_back(row.lin[k](i));
      for (int i = 0; i < 3; ++i) last_input_.push_back(row.ang[k](i));
      last_input_.push_back(w.inv_mass);
      for (int i = 0; i < 9; ++i) last_input_.push_back(w.inv_inertia(i));
    }
  return false;
}

bool ConstraintSolver::same_pattern() {
  a_.makeCompressed();
  const auto outer = a_.outerIndexPtr(), inner = a_.innerIndexPtr();
  const size_t columns = size_t(a_.outerSize()) + 1, entries = size_t(a_.nonZeros());
  if (pattern_outer_.size() == columns && pattern_inner_.size() == entries &&
      std::equal(outer, outer + columns, pattern_outer_.begin()) &&
      std::equal(inner, inner + entries, pattern_inner_.begin()))
    return true;
  pattern_outer_.assign(outer, outer + columns);
  pattern_inner_.assign(inner, inner + entries);
  return false;
}

VecX ConstraintSolver::solve(const VecX& b) const {
  if (size_ == 0) return VecX();
  if (dense_) return pseudo_inverse_ * b;
  return ldlt_.solve(b);
}

}  // namespace stepwise
