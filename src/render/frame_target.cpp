#include "render/frame_target.hpp"

#include <algorithm>
#include <stdexcept>

namespace stepwise {

FrameTarget::~FrameTarget() { release(); }

void FrameTarget::release() {
  glDeleteFramebuffers(1, &msaa_fbo_);
  glDeleteRenderbuffers(1, &msaa_colour_);
  glDeleteRenderbuffers(1, &msaa_depth_);
  glDeleteFramebuffers(1, &resolved_fbo_);
  glDeleteRenderbuffers(1, &resolved_colour_);
  msaa_fbo_ = msaa_colour_ = msaa_depth_ = resolved_fbo_ = resolved_colour_ = 0;
}

void FrameTarget::resize(int width, int height, int samples) {
  width = std::max(width, 1);
  height = std::max(height, 1);
  GLint max_samples = 1;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  samples = std::clamp(samples, 1, int(max_samples));
  if (width == width_ && height == height_ && samples == samples_) return;
  release();
  width_ = width;
  height_ = height;
  samples_ = samples;

  glGenFramebuffers(1, &msaa_fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_);
  glGenRenderbuffers(1, &msaa_colour_);
  glBindRenderbuffer(GL_RENDERBUFFER, msaa_colour_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, msaa_colour_);
  glGenRenderbuffers(1, &msaa_depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, msaa_depth_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, msaa_depth_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("multisampled framebuffer incomplete");

  glGenFramebuffers(1, &resolved_fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, resolved_fbo_);
  glGenRenderbuffers(1, &resolved_colour_);
  glBindRenderbuffer(GL_RENDERBUFFER, resolved_colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolved_colour_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("resolve framebuffer incomplete");
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void FrameTarget::bind_for_drawing() const {
  glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_);
  glViewport(0, 0, width_, height_);
}

void FrameTarget::resolve() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, msaa_fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolved_fbo_);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

void FrameTarget::blit_to(GLuint framebuffer, int x, int y) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolved_fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer);
  glBlitFramebuffer(0, 0, width_, height_, x, y, x + width_, y + height_, GL_COLOR_BUFFER_BIT,
                    GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
}

void FrameTarget::bind_resolved() const {
  glBindFramebuffer(GL_FRAMEBUFFER, resolved_fbo_);
  glViewport(0, 0, width_, height_);
}

std::vector<std::uint8_t> FrameTarget::read_pixels() const {
  return read_framebuffer(resolved_fbo_, width_, height_);
}

std::vector<std::uint8_t> read_framebuffer(GLuint framebuffer, int width, int height) {
  std::vector<std::uint8_t> pixels(size_t(width) * size_t(height) * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's rows run bottom to top; images run top to bottom.
  const size_t row = size_t(width) * 4;
  for (int y = 0; y < height / 2; ++y)
    std::swap_ranges(pixels.begin() + y * row, pixels.begin() + (y + 1) * row,
                     pixels.begin() + (height - 1 - y) * row);
  for (size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;  // opaque PNGs
  return pixels;
}

}  // namespace stepwise
