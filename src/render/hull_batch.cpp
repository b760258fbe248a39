#include "render/hull_batch.hpp"

#include <cmath>
#include <cstddef>

namespace stepwise {

struct HullBatch::Mesh {
  GlMesh gl;
  std::vector<Float3> triangles;  // as uploaded
  GLsizei vertices = 0;
};

HullBatch::HullBatch()
    : program_({{GL_VERTEX_SHADER, "box.vert.glsl"},
                {GL_FRAGMENT_SHADER, "box.frag.glsl"},
                {GL_FRAGMENT_SHADER, "lighting.frag.glsl"}}) {}

HullBatch::~HullBatch() = default;

void HullBatch::set_meshes(const std::vector<std::vector<Float3>>& meshes) {
  meshes_.resize(meshes.size());
  for (size_t m = 0; m < meshes.size(); ++m) {
    if (meshes_[m] && meshes_[m]->triangles == meshes[m]) continue;
    meshes_[m] = std::make_unique<Mesh>();
    Mesh& mesh = *meshes_[m];
    mesh.triangles = meshes[m];
    // Position and face normal per vertex: faces stay flat, as a die's should.
    std::vector<float> data;
    const auto& t = meshes[m];
    for (size_t k = 0; k + 2 < t.size(); k += 3) {
      const glm::vec3 a(t[k][0], t[k][1], t[k][2]), b(t[k + 1][0], t[k + 1][1], t[k + 1][2]),
          c(t[k + 2][0], t[k + 2][1], t[k + 2][2]);
      glm::vec3 n = glm::cross(b - a, c - a);
      const float length = glm::length(n);
      n = length > 0 ? n / length : glm::vec3(0, 0, 1);
      for (const glm::vec3& p : {a, b, c}) data.insert(data.end(), {p.x, p.y, p.z, n.x, n.y, n.z});
    }
    mesh.vertices = GLsizei(data.size() / 6);
    glBindVertexArray(mesh.gl.vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh.gl.vertices);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.size() * sizeof(float)), data.data(),
                 GL_STATIC_DRAW);
    float_attribute(0, 3, 6 * sizeof(float), 0, false);
    float_attribute(1, 3, 6 * sizeof(float), 3 * sizeof(float), false);
    glBindBuffer(GL_ARRAY_BUFFER, mesh.gl.instances);
    float_attribute(2, 3, sizeof(BoxDraw), offsetof(BoxDraw, centre), true);
    float_attribute(3, 4, sizeof(BoxDraw), offsetof(BoxDraw, orientation), true);
    float_attribute(4, 3, sizeof(BoxDraw), offsetof(BoxDraw, half_extents), true);
    float_attribute(5, 4, sizeof(BoxDraw), offsetof(BoxDraw, colour), true);
    glBindVertexArray(0);
  }
}

int HullBatch::draw(const std::vector<std::vector<BoxDraw>>& instances, const FrameUniforms& u) {
  int calls = 0;
  for (size_t m = 0; m < instances.size() && m < meshes_.size(); ++m) {
    if (instances[m].empty() || meshes_[m]->vertices == 0) continue;
    if (calls == 0) {
      program_.use();
      program_.set("view", u.view);
      program_.set("projection", u.projection);
      program_.set("light_direction", u.light_view);
    }
    glBindVertexArray(meshes_[m]->gl.vao);
    glBindBuffer(GL_ARRAY_BUFFER, meshes_[m]->gl.instances);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(instances[m].size() * sizeof(BoxDraw)),
                 instances[m].data(), GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLES, 0, meshes_[m]->vertices, GLsizei(instances[m].size()));
    ++calls;
  }
  glBindVertexArray(0);
  return calls;
}

float mesh_radius(const std::vector<Float3>& triangles) {
  float r2 = 0;
  for (const Float3& p : triangles) r2 = std::max(r2, p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  return std::sqrt(r2);
}

}  // namespace stepwise
