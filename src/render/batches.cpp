#include "render/batches.hpp"

#include <cstddef>

namespace stepwise {
namespace {

const float kQuad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};

template <class T>
void upload(GLuint buffer, const std::vector<T>& data) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.size() * sizeof(T)), data.data(), GL_STREAM_DRAW);
}

void set_frame(const GlProgram& p, const FrameUniforms& u) {
  p.use();
  p.set("view", u.view);
  p.set("projection", u.projection);
  p.set("light_direction", u.light_view);
}

// The unit cube [-1, 1]^3 as 36 vertices with face normals.
std::vector<float> cube_vertices() {
  std::vector<float> out;
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign = -1; sign <= 1; sign += 2) {
      const int a = (axis + 1) % 3, b = (axis + 2) % 3;
      float corners[4][3];
      const float ua[4] = {-1, 1, 1, -1}, ub[4] = {-1, -1, 1, 1};
      for (int k = 0; k < 4; ++k) {
        corners[k][axis] = float(sign);
        corners[k][a] = ua[k] * float(sign);  // keeps the winding outward on both faces
        corners[k][b] = ub[k];
      }
      for (int k : {0, 1, 2, 0, 2, 3}) {
        out.insert(out.end(), corners[k], corners[k] + 3);
        float normal[3] = {0, 0, 0};
        normal[axis] = float(sign);
        out.insert(out.end(), normal, normal + 3);
      }
    }
  }
  return out;
}

}  // namespace

SphereBatch::SphereBatch()
    : program_({{GL_VERTEX_SHADER, "sphere.vert.glsl"},
                {GL_FRAGMENT_SHADER, "sphere.frag.glsl"},
                {GL_FRAGMENT_SHADER, "lighting.frag.glsl"}}) {
  glBindVertexArray(mesh_.vao);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_.vertices);
  glBufferData(GL_ARRAY_BUFFER, sizeof kQuad, kQuad, GL_STATIC_DRAW);
  float_attribute(0, 2, 2 * sizeof(float), 0, false);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_.instances);
  float_attribute(1, 4, sizeof(SphereDraw), offsetof(SphereDraw, centre_radius), true);
  float_attribute(2, 4, sizeof(SphereDraw), offsetof(SphereDraw, colour), true);
  glBindVertexArray(0);
}

int SphereBatch::draw(const std::vector<SphereDraw>& spheres, const FrameUniforms& u) {
  if (spheres.empty()) return 0;
  set_frame(program_, u);
  glBindVertexArray(mesh_.vao);
  upload(mesh_.instances, spheres);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, GLsizei(spheres.size()));
  glBindVertexArray(0);
  return 1;
}

BoxBatch::BoxBatch()
    : program_({{GL_VERTEX_SHADER, "box.vert.glsl"},
                {GL_FRAGMENT_SHADER, "box.frag.glsl"},
                {GL_FRAGMENT_SHADER, "lighting.frag.glsl"}}) {
  const std::vector<float> cube = cube_vertices();
  glBindVertexArray(mesh_.vao);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_.vertices);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(cube.size() * sizeof(float)), cube.data(), GL_STATIC_DRAW);
  float_attribute(0, 3, 6 * sizeof(float), 0, false);
  float_attribute(1, 3, 6 * sizeof(float), 3 * sizeof(float), false);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_.instances);
  float_attribute(2, 3, sizeof(BoxDraw), offsetof(BoxDraw, centre), true);
  float_attribute(3, 4, sizeof(BoxDraw), offsetof(BoxDraw, orientation), true);
  float_attribute(4, 3, sizeof(BoxDraw), offsetof(BoxDraw, half_extents), true);
  float_attribute(5, 4, sizeof(BoxDraw), offsetof(BoxDraw, colour), true);
  glBindVertexArray(0);
}

int BoxBatch::draw(const std::vector<BoxDraw>& boxes, const FrameUniforms& u) {
  if (boxes.empty()) return 0;
  set_frame(program_, u);
  glBindVertexArray(mesh_.vao);
  upload(mesh_.instances, boxes);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 36, GLsizei(boxes.size()));
  glBindVertexArray(0);
  return 1;
}

ShadowBatch::ShadowBatch()
    : program_({{GL_VERTEX_SHADER, "shadow.vert.glsl"}, {GL_FRAGMENT_SHADER, "shadow.frag.glsl"}}) {
  glBindVertexArray(mesh_.vao);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_.vertices);
  glBufferData(GL_ARRAY_BUFFER, sizeof kQuad, kQuad, GL_STATIC_DRAW);
  float_attribute(0, 2, 2 * sizeof(float), 0, false);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_.instances);
  float_attribute(1, 4, sizeof(glm::vec4), 0, true);
  glBindVertexArray(0);
}

int ShadowBatch::draw(const std::vector<glm::vec4>& casters, float floor_z, const FrameUniforms& u) {
  if (casters.empty()) return 0;
  program_.use();
  program_.set("view", u.view);
  program_.set("projection", u.projection);
  program_.set("light_world", u.light_world);
  program_.set("floor_z", floor_z);
  glBindVertexArray(mesh_.vao);
  upload(mesh_.instances, casters);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, GLsizei(casters.size()));
  glBindVertexArray(0);
  return 1;
}

LineBatch::LineBatch()
    : program_({{GL_VERTEX_SHADER, "lines.vert.glsl"}, {GL_FRAGMENT_SHADER, "lines.frag.glsl"}}) {
  glBindVertexArray(mesh_.vao);
  glBindBuffer(GL_ARRAY_BUFFER, mesh_.vertices);
  float_attribute(0, 3, sizeof(LineVertex), offsetof(LineVertex, position), false);
  float_attribute(1, 4, sizeof(LineVertex), offsetof(LineVertex, colour), false);
  glBindVertexArray(0);
}

int LineBatch::draw(const std::vector<LineVertex>& vertices, GLenum mode, const FrameUniforms& u) {
  if (vertices.empty()) return 0;
  program_.use();
  program_.set("view", u.view);
  program_.set("projection", u.projection);
  glBindVertexArray(mesh_.vao);
  upload(mesh_.vertices, vertices);
  glDrawArrays(mode, 0, GLsizei(vertices.size()));
  glBindVertexArray(0);
  return 1;
}

}  // namespace stepwise
