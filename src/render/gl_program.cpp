#include "render/gl_program.hpp"

#include <glm/gtc/type_ptr.hpp>
#include <stdexcept>
#include <vector>

namespace stepwise {
namespace {

GLuint compile(GLenum stage, const char* name) {
  const char* source = embedded_shader(name);
  if (!source) throw std::runtime_error(std::string("shader ") + name + " is not embedded");
  // Files without their own #version (shared functions) get the one every stage uses.
  const bool versioned = std::string(source).find("#version") != std::string::npos;
  const char* parts[2] = {"#version 330 core\n", source};
  GLuint shader = glCreateShader(stage);
  glShaderSource(shader, versioned ? 1 : 2, versioned ? parts + 1 : parts, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw std::runtime_error(std::string("shader ") + name + ": " + log);
  }
  return shader;
}

}  // namespace

GlProgram::GlProgram(std::initializer_list<std::pair<GLenum, const char*>> stages) {
  id_ = glCreateProgram();
  std::vector<GLuint> shaders;
  for (const auto& [stage, name] : stages) {
    shaders.push_back(compile(stage, name));
    glAttachShader(id_, shaders.back());
  }
  glLinkProgram(id_);
  for (GLuint s : shaders) glDeleteShader(s);
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetProgramInfoLog(id_, sizeof log, nullptr, log);
    throw std::runtime_error(std::string("shader link: ") + log);
  }
}

GlProgram::~GlProgram() {
  if (id_) glDeleteProgram(id_);
}

GlProgram& GlProgram::operator=(GlProgram&& other) noexcept {
  if (this != &other) {
    if (id_) glDeleteProgram(id_);
    id_ = other.id_;
    other.id_ = 0;
  }
  return *this;
}

void GlProgram::set(const char* name, const glm::mat4& value) const {
  glUniformMatrix4fv(glGetUniformLocation(id_, name), 1, GL_FALSE, glm::value_ptr(value));
}
void GlProgram::set(const char* name, const glm::vec3& value) const {
  glUniform3fv(glGetUniformLocation(id_, name), 1, glm::value_ptr(value));
}
void GlProgram::set(const char* name, float value) const {
  glUniform1f(glGetUniformLocation(id_, name), value);
}

GlMesh::GlMesh() {
  glGenVertexArrays(1, &vao);
  glGenBuffers(1, &vertices);
  glGenBuffers(1, &instances);
}

GlMesh::~GlMesh() {
  glDeleteBuffers(1, &instances);
  glDeleteBuffers(1, &vertices);
  glDeleteVertexArrays(1, &vao);
}

void float_attribute(GLuint location, int components, int stride, size_t offset, bool per_instance) {
  glEnableVertexAttribArray(location);
  glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offset));
  glVertexAttribDivisor(location, per_instance ? 1 : 0);
}

}  // namespace stepwise
