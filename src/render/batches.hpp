#pragma once
// Instanced draws: all spheres in one call, all boxes in one call, all shadows in one call, and
// lines/triangles for the grid, walls and pull springs. Draw calls never grow with the body count.
#include <vector>

#include "render/gl_program.hpp"

namespace stepwise {

struct SphereDraw {
  glm::vec4 centre_radius;
  glm::vec4 colour;
};
struct BoxDraw {
  glm::vec3 centre;
  glm::vec4 orientation;  // w, x, y, z
  glm::vec3 half_extents;
  glm::vec4 colour;
};
struct LineVertex {
  glm::vec3 position;
  glm::vec4 colour;
};

struct FrameUniforms {
  glm::mat4 view, projection;
  glm::vec3 light_view;   // towards the light, view space
  glm::vec3 light_world;  // towards the light, world space
};

class SphereBatch {
 public:
  SphereBatch();
  int draw(const std::vector<SphereDraw>& spheres, const FrameUniforms& u);  // returns draw calls

 private:
  GlProgram program_;
  GlMesh mesh_;
};

class BoxBatch {
 public:
  BoxBatch();
  int draw(const std::vector<BoxDraw>& boxes, const FrameUniforms& u);

 private:
  GlProgram program_;
  GlMesh mesh_;
};

class ShadowBatch {
 public:
  ShadowBatch();
  // Discs on the plane z = floor_z under every sphere / box (given as centre and radius).
  int draw(const std::vector<glm::vec4>& casters, float floor_z, const FrameUniforms& u);

 private:
  GlProgram program_;
  GlMesh mesh_;
};

class LineBatch {
 public:
  LineBatch();
  // mode: GL_LINES or GL_TRIANGLES
  int draw(const std::vector<LineVertex>& vertices, GLenum mode, const FrameUniforms& u);

 private:
  GlProgram program_;
  GlMesh mesh_;
};

}  // namespace stepwise
