#pragma once
// Which body is under the mouse: a ray against every sphere and oriented box of a snapshot.
#include <optional>

#include "render/camera.hpp"
#include "runtime/snapshot.hpp"

namespace stepwise {

struct Pick {
  int body;
  float distance;  // along the ray
  glm::vec3 point;
};

std::optional<Pick> pick_body(const Snapshot& s, const Ray& ray);

// Where the mouse ray meets the plane through `anchor` facing the camera (drag targets).
glm::vec3 point_on_view_plane(const Ray& ray, const glm::vec3& anchor, const glm::vec3& view_dir);

}  // namespace stepwise
