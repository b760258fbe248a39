#include "render/auto_frame.hpp"

namespace stepwise {

void AutoFrame::reset(const Snapshot& s, Camera& camera) {
  camera.planar = s.dimensions == 2;
  framed_ = snapshot_bounds(s);
  camera.frame(framed_.low, framed_.high);
  enabled = true;
}

void AutoFrame::update(const Snapshot& s, Camera& camera) {
  if (camera.planar != (s.dimensions == 2)) return reset(s, camera);  // 2-D <-> 3-D: look anew
  if (!enabled) return;
  const Bounds now = snapshot_bounds(s);
  const glm::vec3 slack = 0.1f * (framed_.high - framed_.low) + 1e-6f;
  if (glm::any(glm::lessThan(now.low, framed_.low - slack)) ||
      glm::any(glm::greaterThan(now.high, framed_.high + slack))) {
    framed_.add(now.low, 0);
    framed_.add(now.high, 0);
    camera.frame(framed_.low, framed_.high);
  }
}

}  // namespace stepwise
