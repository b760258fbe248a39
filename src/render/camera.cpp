#include "render/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace stepwise {

glm::vec3 Camera::eye() const {
  if (planar) return target + glm::vec3(0, 0, distance);
  const glm::vec3 offset(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                         std::sin(pitch));
  return target + distance * offset;
}

glm::mat4 Camera::view() const {
  return glm::lookAt(eye(), target, planar ? up : glm::vec3(0, 0, 1));
}

float Camera::half_height() const {
  return distance * std::tan(fov_y / 2);
}

glm::mat4 Camera::projection(float aspect) const {
  if (planar) {
    const float h = half_height(), w = h * std::max(aspect, 1e-3f);
    return glm::ortho(-w, w, -h, h, std::max(distance * 1e-3f, 1e-5f), distance * 100.0f + 10.0f);
  }
  // Near and far follow the distance so both a 1 cm cradle and a 100 m pile keep depth precision.
  return glm::perspective(fov_y, std::max(aspect, 1e-3f), std::max(distance * 1e-3f, 1e-5f),
                          distance * 100.0f + 10.0f);
}

void Camera::orbit(float dx, float dy) {
  if (planar) return;  // a 2-D scene is seen from one side only
  yaw -= dx * 0.006f;
  pitch = std::clamp(pitch + dy * 0.006f, -1.55f, 1.55f);
}

void Camera::pan(float dx, float dy, float viewport_height) {
  if (planar) {
    target += (-dx * right() + dy * up) * (2.0f * half_height() / std::max(viewport_height, 1.0f));
    return;
  }
  const glm::vec3 f = forward();
  const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 0, 1)));
  const glm::vec3 up = glm::cross(right, f);
  const float per_pixel = 2.0f * distance * std::tan(fov_y / 2) / std::max(viewport_height, 1.0f);
  target += (-dx * right + dy * up) * per_pixel;
}

void Camera::zoom(float wheel_steps) {
  distance = std::clamp(distance * std::pow(0.88f, wheel_steps), 1e-4f, 1e5f);
}

void Camera::frame(const glm::vec3& low, const glm::vec3& high) {
  target = 0.5f * (low + high);
  if (planar) {  // the box's x-y extent, seen along the screen's axes, fills the view
    const glm::vec3 half = glm::max(0.5f * (high - low), glm::vec3(1e-3f));
    const float across = std::abs(right().x) * half.x + std::abs(right().y) * half.y;
    const float along = std::abs(up.x) * half.x + std::abs(up.y) * half.y;
    const float h = std::max(along, across / std::max(aspect, 1e-3f)) * 1.08f;
    target.z = 0;
    distance = std::max(h / std::tan(fov_y / 2), 2.0f * half.z + 1e-3f);
    return;
  }
  const float radius = std::max(0.5f * glm::length(high - low), 1e-3f);
  const float half_x = std::atan(std::tan(fov_y / 2) * std::max(aspect, 1e-3f));
  distance = radius / std::sin(std::min(fov_y / 2, half_x)) * 1.05f;
  yaw = 0.9f;
  pitch = 0.45f;
}

Ray Camera::ray_through(float px, float py, float width, float height) const {
  const glm::mat4 inverse = glm::inverse(projection(width / height) * view());
  const float x = 2.0f * px / width - 1.0f, y = 1.0f - 2.0f * py / height;
  glm::vec4 a = inverse * glm::vec4(x, y, -1.0f, 1.0f), b = inverse * glm::vec4(x, y, 1.0f, 1.0f);
  a /= a.w;
  b /= b.w;
  return {glm::vec3(a), glm::normalize(glm::vec3(b - a))};
}

}  // namespace stepwise
