#pragma once
// An orbit camera around a target point, +z up (gravity points down -z in every 3-D scene). For
// 2-D scenes it is `planar`: it looks straight down -z at the x-y plane with an orthographic
// projection, `up` (in the plane: against gravity, so an incline looks tilted) up on the screen;
// it pans and zooms and does not orbit.
#include <glm/glm.hpp>

namespace stepwise {

struct Ray {
  glm::vec3 origin, direction;  // direction normalised
};

class Camera {
 public:
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  glm::vec3 eye() const;
  glm::vec3 forward() const { return glm::normalize(target - eye()); }

  void orbit(float dx_pixels, float dy_pixels);
  void pan(float dx_pixels, float dy_pixels, float viewport_height);
  void zoom(float wheel_steps);
  // Looks at a bounding box from the default direction so all of it is in view (across the
  // narrower of the two fields of view: a tall view between the panels is narrow).
  void frame(const glm::vec3& low, const glm::vec3& high);
  // The ray through a pixel (origin top-left) of a viewport.
  Ray ray_through(float px, float py, float width, float height) const;

  glm::vec3 target{0.0f};
  float distance = 5.0f;
  float yaw = 0.9f;     // about +z, radians
  float pitch = 0.45f;  // above the horizon, radians
  float fov_y = glm::radians(40.0f);
  float aspect = 16.0f / 9;  // of the view it draws into, width / height (for frame())
  float near_plane = 0.01f, far_plane = 1000.0f;
  bool planar = false;
  glm::vec3 up{0, 1, 0};  // planar: the plane's direction drawn upwards (unit, z = 0)
  // Half the height of what a planar camera shows (it zooms by `distance`, as the orbit camera).
  float half_height() const;
  // Planar: the plane's direction drawn to the right (up turned a quarter clockwise).
  glm::vec3 right() const { return glm::cross(glm::vec3(0, 0, -1), up); }
};

}  // namespace stepwise
