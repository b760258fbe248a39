// The 2-D view's camera: straight down -z, orthographic, +x right and +y up on the screen; pans
// and zooms, never orbits; the mouse picks the disk under it.
#include <doctest/doctest.h>

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "render/camera.hpp"
#include "render/picking.hpp"

using namespace stepwise;

namespace {
// Where a world point lands in a width x height viewport (origin top-left).
glm::vec2 pixel_of(const Camera& c, const glm::vec3& p, float width, float height) {
  const glm::vec4 clip = c.projection(width / height) * c.view() * glm::vec4(p, 1);
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  return {(ndc.x + 1) / 2 * width, (1 - ndc.y) / 2 * height};
}
}  // namespace

TEST_CASE("a planar camera looks straight down at the plane, orthographic, y up") {
  Camera c;
  c.planar = true;
  c.aspect = 800.0f / 600.0f;
  c.frame(glm::vec3(0, 0, -0.5f), glm::vec3(10, 4, 0.5f));
  const float W = 800, H = 600;
  const Ray centre = c.ray_through(W / 2, H / 2, W, H);
  CHECK(centre.direction.z == doctest::Approx(-1.0f));
  CHECK(centre.origin.x == doctest::Approx(5.0f));
  CHECK(centre.origin.y == doctest::Approx(2.0f));
  // Orthographic: every ray is parallel; one pixel is the same length of the plane everywhere.
  const Ray corner = c.ray_through(10, 20, W, H);
  CHECK(glm::length(corner.direction - centre.direction) < 1e-5f);
  // +x to the right, +y up, and all of the framed box in view.
  const glm::vec2 right = pixel_of(c, {10, 2, 0}, W, H), up = pixel_of(c, {5, 4, 0}, W, H);
  CHECK(right.x > W / 2);
  CHECK(right.x < W);
  CHECK(up.y < H / 2);
  CHECK(up.y > 0);
  CHECK(pixel_of(c, {0, 0, 0}, W, H).x > 0);
  // Orbiting does nothing; panning moves the plane with the mouse, pixel for pixel.
  const glm::mat4 before = c.view();
  c.orbit(120, -80);
  CHECK(c.view() == before);
  const glm::vec2 was = pixel_of(c, {7, 3, 0}, W, H);
  c.pan(50, 30, H);  // the mouse moved 50 px right and 30 px down
  const glm::vec2 now = pixel_of(c, {7, 3, 0}, W, H);
  CHECK(now.x - was.x == doctest::Approx(50).epsilon(1e-3));
  CHECK(now.y - was.y == doctest::Approx(30).epsilon(1e-3));
}

TEST_CASE("in the 2-D view the mouse picks the disk under it") {
  Camera c;
  c.planar = true;
  c.aspect = 1.5f;
  c.frame(glm::vec3(0, 0, -1), glm::vec3(12, 8, 1));
  Snapshot s;
  s.dimensions = 2;
  s.bodies = 2;
  s.spheres = {{{2, 2, 0}, 0.5f, 0}, {{8, 3, 0}, 0.5f, 1}};
  const float W = 900, H = 600;
  for (int body = 0; body < 2; ++body) {
    const Float3 at = s.spheres[body].position;
    // Just inside the rim: a perspective ray there would miss a disk seen from an angle.
    const glm::vec2 p = pixel_of(c, {at[0] + 0.45f, at[1], 0}, W, H);
    const auto hit = pick_body(s, c.ray_through(p.x, p.y, W, H));
    REQUIRE(hit);
    CHECK(hit->body == body);
  }
  const glm::vec2 empty = pixel_of(c, {5, 5, 0}, W, H);
  CHECK_FALSE(pick_body(s, c.ray_through(empty.x, empty.y, W, H)));
}

TEST_CASE("a planar camera turns the plane so that gravity points down the screen") {
  Camera c;
  c.planar = true;
  c.aspect = 1;
  const float a = glm::radians(20.0f);
  c.up = glm::vec3(-std::sin(a), std::cos(a), 0);  // against gravity g (sin a, -cos a): an incline
  c.frame(glm::vec3(-1, -1, -0.1f), glm::vec3(1, 1, 0.1f));
  const float W = 600, H = 600;
  const glm::vec2 centre = pixel_of(c, {0, 0, 0}, W, H);
  const glm::vec2 above = pixel_of(c, 0.5f * c.up, W, H);
  CHECK(above.x == doctest::Approx(centre.x).epsilon(1e-4));
  CHECK(above.y < centre.y - 50);
  // The floor (the x axis: gravity leans towards +x) runs down to the right, 20 degrees below
  // level.
  const glm::vec2 slope = pixel_of(c, {1, 0, 0}, W, H) - centre;
  CHECK(std::atan2(slope.y, slope.x) == doctest::Approx(a).epsilon(1e-4));
  // Panning still follows the mouse.
  const glm::vec2 was = pixel_of(c, {0.3f, 0.2f, 0}, W, H);
  c.pan(40, -25, H);
  const glm::vec2 now = pixel_of(c, {0.3f, 0.2f, 0}, W, H);
  CHECK(now.x - was.x == doctest::Approx(40).epsilon(1e-3));
  CHECK(now.y - was.y == doctest::Approx(-25).epsilon(1e-3));
}
