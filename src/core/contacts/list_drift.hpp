#pragma once
// The neighbour list's common drift, for speed only. Two bodies can only touch if they moved
// toward each other, and |dx_i - dx_j| <= |dx_i - c| + |dx_j - c| for any vector c the same for
// both: so the list's bounds (the rebuild at half the skin, the candidates' limits per block,
// contact_candidates.hpp) hold just as well for displacements measured from the build position
// plus a common drift c(t). Measured from the build alone, a cloud falling as one moves the whole
// skin within a hundred steps: every pair becomes a candidate and the list is built again,
// though no two grains came closer. With c(t) the path of the typical body (the median velocity
// at the build, accelerated by the field while the typical body falls freely) they stay near
// zero; bodies that stopped on the floor then carry the drift instead, as the grains still
// falling did before.
//   c(t) = u (t - t0) + a/2 (t - t0)^2, u = median v at the build + a dt/2
// (a velocity-Verlet step under a uniform field a moves a body by dt (v + k a dt) at its k-th
// step after the build: the sum is this curve). a is the field if the median velocity changed
// by about the field's pull since the last build (a free fall), else 0 (a packing at rest would
// otherwise fall away from a drift that falls). Any c is correct; this one is tight.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/types.hpp"

namespace stepwise {

class ListDrift {
 public:
  // At the list's build (time t0, the velocities v of n bodies then), with the uniform field the
  // bodies are in (zero if none is known). The median of every stride-th body's velocity (a few
  // thousand of them: a million took a fiftieth of a second a build), non-finite ones left out
  // (no drift if none is finite).
  void restart(const Positions& v, int n, const Vec3& field, double time, double dt) {
    Vec3 median = Vec3::Zero();
    bool any = false;
    const int stride = std::max(1, n / kSample);
    for (int c = 0; c < 3; ++c) {
      values_.clear();
      for (int i = 0; i < n; i += stride)
        if (std::isfinite(v(c, i))) values_.push_back(v(c, i));
      if (values_.empty()) continue;
      auto middle = values_.begin() + values_.size() / 2;
      std::nth_element(values_.begin(), middle, values_.end());
      median(c) = *middle;
      any = true;
    }
    accel_.setZero();
    if (known_ && any && time > from_ && field.allFinite() && field != Vec3::Zero()) {
      const Vec3 change = (median - last_median_) / (time - from_);
      if ((change - field).norm() <= kFreeFall * field.norm()) accel_ = field;
    }
    from_ = time;
    last_median_ = median;
    known_ = any && median.allFinite();
    velocity_ = known_ ? Vec3(median + 0.5 * dt * accel_) : Vec3::Zero();
    if (!velocity_.allFinite()) velocity_.setZero(), accel_.setZero();
  }
  // Where the drift is at time t (zero at the build), and how fast it moves then.
  Vec3 at(double time) const {
    const double t = time - from_;
    return velocity_ * t + (0.5 * t * t) * accel_;
  }
  Vec3 rate_at(double time) const { return velocity_ + (time - from_) * accel_; }
  const Vec3& accel() const { return accel_; }

 private:
  static constexpr int kSample = 4096;       // bodies the median is taken of, about
  static constexpr double kFreeFall = 0.25;  // how near the field's pull counts as a free fall
  double from_ = 0;
  Vec3 velocity_ = Vec3::Zero(), accel_ = Vec3::Zero();
  Vec3 last_median_ = Vec3::Zero();  // the median velocity at the last build
  bool known_ = false;               // (if it was known)
  std::vector<double> values_;       // (kept: no allocation per build)
};

}  // namespace stepwise
