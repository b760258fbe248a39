#pragma once
// Which bodies the sphere kernels screen against the walls, for speed only: the screen read every
// body's position and radius at every evaluation, a fifth of a falling 50,000's step. Once per
// list build each block of ContactCandidates' blocks keeps its smallest gap to any wall at the
// build's positions (a body holding a wall spring counts as touching). A block whose gap, less
// the most any of its bodies has moved since the build, less the farthest any wall has come
// toward the bodies since, is still positive (beyond round-off) cannot touch a wall and holds no
// wall spring: its bodies need no screening. Between builds the bound only shrinks, so a body
// that touches a wall, or holds a spring to let go of, is screened as before: the same contacts,
// loads and releases, bit for bit (tested against screening every body).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/contacts/contact_candidates.hpp"
#include "core/contacts/granular_walls.hpp"
#include "core/types.hpp"

namespace stepwise {

class WallCandidates {
 public:
  static constexpr int kBlock = ContactCandidates::kBlock;

  // The list was rebuilt or the springs held changed from outside: the gaps are found again.
  void invalidate() { fresh_ = false; }

  // Before an evaluation's screening, with the list's build positions, the bodies' radii, their
  // held wall springs (a bit per wall), the walls now and how far each block has moved from the
  // list's drift, and how far that drift is from the build (at least).
  void update(const Positions& built, const double* radius, const std::uint64_t* engaged,
              const std::vector<WallPlane>& walls, const ContactCandidates& moved,
              double drift_moved) {
    const int n = int(built.cols());
    const int blocks = (n + kBlock - 1) / kBlock;
    if (!fresh_ || int(gap_.size()) != blocks) find_gaps(built, radius, engaged, walls);
    double drift = 0;  // the farthest a wall has come toward the bodies since the gaps were found
    for (size_t w = 0; w < walls.size(); ++w)
      drift = std::max(drift, walls[w].offset - offset_at_gaps_[w]);
    far_.assign(blocks, 0);
    if (moved.blocks() != blocks) return;  // (not tracked yet: every body screened)
    for (int b = 0; b < blocks; ++b)
      far_[b] = gap_[b] - moved.moved(b) - drift_moved - drift > margin_;  // (a NaN: screened)
  }

  // Whether bodies i to i + 3 need no screening.
  bool far(int i) const { return far_[i / kBlock] & far_[(i + 3) / kBlock]; }

 private:
  void find_gaps(const Positions& built, const double* radius, const std::uint64_t* engaged,
                 const std::vector<WallPlane>& walls) {
    const int n = int(built.cols());
    gap_.assign((n + kBlock - 1) / kBlock, std::numeric_limits<double>::infinity());
    offset_at_gaps_.resize(walls.size());
    double scale = 1;
    for (size_t w = 0; w < walls.size(); ++w) {
      offset_at_gaps_[w] = walls[w].offset;
      scale = std::max(scale, std::abs(walls[w].offset));
    }
    for (int i = 0; i < n; ++i) {
      double& gap = gap_[i / kBlock];
      const double* a = built.data() + 3 * i;
      if (std::isfinite(radius[i]))
        scale = std::max({scale, std::abs(a[0]), std::abs(a[1]), std::abs(a[2]), radius[i]});
      if (engaged[i] != 0) gap = -std::numeric_limits<double>::infinity();
      for (const WallPlane& wall : walls) {  // as the screen sums it
        const Vec3& m = wall.normal;
        const double g = ((a[0] * m.x() + a[1] * m.y()) + a[2] * m.z() - wall.offset) - radius[i];
        if (std::isnan(g) || g < gap) gap = g;  // (a NaN stays: never far)
      }
    }
    // Round-off in the screen's sum and in the displacements: far below any gap that matters.
    margin_ = 1e-9 * scale;
    fresh_ = true;
  }

  bool fresh_ = false;
  std::vector<double> gap_;             // per block: its smallest wall gap when found
  std::vector<double> offset_at_gaps_;  // per wall: its offset then
  std::vector<std::uint8_t> far_;       // per block, this evaluation
  double margin_ = 0;
};

}  // namespace stepwise
