#include "render/auto_frame.hpp"

namespace stepwise {

namespace {
// A 2-D scene is drawn with gravity pointing down the screen (an incline looks tilted).
glm::vec3 planar_up(const Snapshot& s) {
  const glm::vec3 down(s.down[0], s.down[1], 0);
  return glm::length(down) > 0.5f ? -glm::normalize(down) : glm::vec3(0, 1, 0);
}
}  // namespace

void AutoFrame::reset(const Snapshot& s, Camera& camera) {
  camera.planar = s.dimensions == 2;
  camera.up = planar_up(s);
  framed_ = snapshot_bounds(s);
  camera.frame(framed_.low, framed_.high);
  enabled = true;
}

void AutoFrame::update(const Snapshot& s, Camera& camera) {
  // 2-D <-> 3-D, or gravity turned in the plane: look anew.
  if (camera.planar != (s.dimensions == 2) || (camera.planar && camera.up != planar_up(s)))
    return reset(s, camera);
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
