#include "render/picking.hpp"

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <limits>

#include "render/to_glm.hpp"

namespace stepwise {
namespace {

std::optional<float> hit_sphere(const Ray& ray, const glm::vec3& centre, float radius) {
  const glm::vec3 oc = ray.origin - centre;
  const float b = glm::dot(oc, ray.direction);
  const float c = glm::dot(oc, oc) - radius * radius;
  const float disc = b * b - c;
  if (disc < 0) return std::nullopt;
  const float t = -b - std::sqrt(disc);
  if (t < 0) return std::nullopt;
  return t;
}

std::optional<float> hit_box(const Ray& ray, const BoxInstance& box) {
  const glm::quat q(box.orientation[0], box.orientation[1], box.orientation[2], box.orientation[3]);
  const glm::quat inverse = glm::conjugate(q);
  const glm::vec3 origin = inverse * (ray.origin - to_glm(box.position));
  const glm::vec3 dir = inverse * ray.direction;
  float near = -std::numeric_limits<float>::infinity(),
        far = std::numeric_limits<float>::infinity();
  for (int k = 0; k < 3; ++k) {
    const float h = box.half_extents[k];
    if (std::abs(dir[k]) < 1e-12f) {
      if (std::abs(origin[k]) > h) return std::nullopt;
      continue;
    }
    float t0 = (-h - origin[k]) / dir[k], t1 = (h - origin[k]) / dir[k];
    if (t0 > t1) std::swap(t0, t1);
    near = std::max(near, t0);
    far = std::min(far, t1);
  }
  if (near > far || far < 0) return std::nullopt;
  return std::max(near, 0.0f);
}

// The nearest triangle of a hull's mesh the ray crosses (Moller-Trumbore, in the body frame).
std::optional<float> hit_hull(const Ray& ray, const HullInstance& hull,
                              const std::vector<Float3>& mesh) {
  const glm::quat q(hull.orientation[0], hull.orientation[1], hull.orientation[2],
                    hull.orientation[3]);
  const glm::quat inverse = glm::conjugate(q);
  const glm::vec3 origin = inverse * (ray.origin - to_glm(hull.position));
  const glm::vec3 dir = inverse * ray.direction;
  std::optional<float> nearest;
  for (size_t k = 0; k + 2 < mesh.size(); k += 3) {
    const glm::vec3 a = to_glm(mesh[k]), e1 = to_glm(mesh[k + 1]) - a, e2 = to_glm(mesh[k + 2]) - a;
    const glm::vec3 p = glm::cross(dir, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-12f) continue;
    const glm::vec3 t = origin - a;
    const float u = glm::dot(t, p) / det;
    if (u < 0 || u > 1) continue;
    const glm::vec3 qv = glm::cross(t, e1);
    const float v = glm::dot(dir, qv) / det;
    if (v < 0 || u + v > 1) continue;
    const float along = glm::dot(e2, qv) / det;
    if (along >= 0 && (!nearest || along < *nearest)) nearest = along;
  }
  return nearest;
}

}  // namespace

std::optional<Pick> pick_body(const Snapshot& s, const Ray& ray) {
  std::optional<Pick> best;
  auto consider = [&](int body, std::optional<float> t) {
    if (t && (!best || *t < best->distance)) best = Pick{body, *t, ray.origin + *t * ray.direction};
  };
  for (const SphereInstance& sphere : s.spheres)
    consider(sphere.body, hit_sphere(ray, to_glm(sphere.position), sphere.radius));
  for (const BoxInstance& box : s.boxes) consider(box.body, hit_box(ray, box));
  for (const HullInstance& hull : s.hulls)
    if (hull.mesh >= 0 && hull.mesh < int(s.meshes.size()))
      consider(hull.body, hit_hull(ray, hull, s.meshes[hull.mesh]));
  return best;
}

glm::vec3 point_on_view_plane(const Ray& ray, const glm::vec3& anchor, const glm::vec3& view_dir) {
  const float denom = glm::dot(ray.direction, view_dir);
  if (std::abs(denom) < 1e-6f) return anchor;
  const float t = glm::dot(anchor - ray.origin, view_dir) / denom;
  return ray.origin + t * ray.direction;
}

}  // namespace stepwise
