#pragma once
// The 3-D view renders into a multisampled framebuffer that is resolved into a plain one, so
// screenshots and video frames can be read with or without the panels drawn over them.
#include <cstdint>
#include <vector>

#include "render/gl_program.hpp"

namespace stepwise {

class FrameTarget {
 public:
  FrameTarget() = default;
  ~FrameTarget();
  FrameTarget(const FrameTarget&) = delete;
  FrameTarget& operator=(const FrameTarget&) = delete;

  // (Re)allocates for a size; samples is clamped to what the driver supports.
  void resize(int width, int height, int samples);
  void bind_for_drawing() const;
  void resolve() const;                      // multisampled -> resolved
  // resolved -> e.g. the window (0), lower-left corner at (x, y) in GL's bottom-up pixels
  void blit_to(GLuint framebuffer, int x = 0, int y = 0) const;
  void bind_resolved() const;                // draw over the resolved image (overlays)
  // RGBA rows top to bottom, from the resolved image.
  std::vector<std::uint8_t> read_pixels() const;
  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }

 private:
  void release();
  int width_ = 0, height_ = 0, samples_ = 0;
  GLuint msaa_fbo_ = 0, msaa_colour_ = 0, msaa_depth_ = 0;
  GLuint resolved_fbo_ = 0, resolved_colour_ = 0;
};

// Reads the current read framebuffer (e.g. the window with panels), rows top to bottom.
std::vector<std::uint8_t> read_framebuffer(GLuint framebuffer, int width, int height);

}  // namespace stepwise
