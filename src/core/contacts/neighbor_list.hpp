#pragma once
// Linked cells feeding a Verlet list with a skin: pairs closer than r_i + r_j + skin, rebuilt only
// when some body has moved more than half the skin since the last build. Pairs are stored as a
// half list in CSR form (for each i, its neighbours j > i in ascending order), so per-pair state
// such as contact history can live in arrays aligned with the list.
#include <algorithm>
#include <utility>
#include <vector>

#include "core/contacts/sweep_and_prune.hpp"
#include "core/parallel.hpp"
#include "core/types.hpp"

namespace stepwise {

// How the list finds its pairs: linked cells (bodies of similar size), sweep and prune (sizes
// that differ widely), or auto: sweep when the largest radius exceeds 4 times the mean.
enum class BroadPhase { Auto, Cells, Sweep };

class NeighborList {
 public:
  explicit NeighborList(double skin = 0.1) : skin_(skin) {}
  void set_skin(double skin) {
    skin_ = skin;
    force_rebuild_ = true;
  }
  double skin() const { return skin_; }
  void set_broad_phase(BroadPhase mode) {
    broad_phase_ = mode;
    force_rebuild_ = true;
  }
  BroadPhase broad_phase() const { return broad_phase_; }
  bool swept() const { return swept_; }  // whether the last build used sweep and prune
  void invalidate() { force_rebuild_ = true; }

  // Rebuilds the list if needed. Returns true if it did.
  bool update(const Positions& x, const VecX& radius, Parallel* parallel = nullptr);
  bool needs_rebuild(const Positions& x, Parallel* parallel = nullptr) const;
  // The two halves of needs_rebuild, for callers that scan the bodies in their own passes: a
  // rebuild is due if stale(n), or if some body's squared displacement since the last build
  // (displacements2) exceeds rebuild_at().
  bool stale(int n) const { return force_rebuild_ || built_at_.cols() != n; }
  // The largest squared displacement since the last build, less a common drift (any vector the
  // same for every body: contacts/list_drift.hpp), in each run of `block` bodies (a multiple of
  // four) of [begin, end), into out[begin / block] onwards; begin is a multiple of `block`.
  // (Per run, not per body: a value per body written and read back costs a sixth of the bytes
  // the step moves per body where the bodies outgrow the caches.)
  void displacements2(const Positions& x, int begin, int end, int block, double* out,
                      const Vec3& drift = Vec3::Zero()) const;
  double rebuild_at() const { return 0.25 * skin_ * skin_; }  // (skin / 2)^2
  const Positions& built_at() const { return built_at_; }     // the positions at the build
  void build(const Positions& x, const VecX& radius, Parallel* parallel = nullptr);

  int size() const { return static_cast<int>(offsets_.size()) - 1; }
  const std::vector<int>& offsets() const { return offsets_; }  // size n + 1
  const std::vector<int>& neighbors() const { return neighbors_; }
  long builds() const { return builds_; }
  // The listed pairs (i, j) whose spheres at x overlap or are within margin max(1, |coordinate|)
  // of it (for ForceModel::coupled_pairs: margin ForceModel::kCoupledReach).
  void append_near_pairs(const Positions& x, const VecX& radius, double margin,
                         std::vector<std::pair<int, int>>& out) const {
    for (int i = 0; i < size(); ++i)
      for (int k = offsets_[i]; k < offsets_[i + 1]; ++k) {
        const int j = neighbors_[k];
        const double scale =
            std::max({1.0, x.col(i).cwiseAbs().maxCoeff(), x.col(j).cwiseAbs().maxCoeff()});
        const double reach = radius(i) + radius(j) + margin * scale;
        if ((x.col(i) - x.col(j)).squaredNorm() < reach * reach) out.emplace_back(i, j);
      }
  }

  // Pairs a build may list for n bodies: 1,000 a body on average, plus 1,000,000 (a boulder among
  // grains has thousands). Beyond, the bodies overlap far past any contact (a lattice spacing far
  // below a diameter, bodies piled at one point): the list would grow past memory and its int
  // offsets, so the build throws InputError saying so.
  static long max_pairs(long n) { return 1000 * n + 1000000; }
  [[noreturn]] static void refuse_pairs(long n);

  // O(N^2) reference: every pair i < j within r_i + r_j + margin, sorted.
  static std::vector<std::pair<int, int>> brute_force(const Positions& x, const VecX& radius,
                                                      double margin);

 private:
  void build_cells(const Positions& x, const VecX& radius, Parallel* parallel);
  double skin_;
  BroadPhase broad_phase_ = BroadPhase::Auto;
  bool swept_ = false;
  SweepAndPrune sweep_;
  bool force_rebuild_ = true;
  Positions built_at_;
  std::vector<int> offsets_{0}, neighbors_;
  std::vector<int> cell_start_, cell_body_;  // bodies sorted by cell: cell c's are a run
  std::vector<double> cell_xr_;              // their x, y, z and radius, in that order
  std::vector<std::vector<int>> found_;      // per task: its bodies' partners, in body order
  long builds_ = 0;
};

}  // namespace stepwise
