#pragma once
// The overlay `stepwise record --overlay` burns into videos (method, dt, time, energy error and
// its plot, a lesson's caption), for the window's own recordings: drawn by a second ImGui
// context into the recording's frames, so the window's panels are untouched.
#include <memory>

#include "render/frame_target.hpp"
#include "runtime/snapshot.hpp"
#include "ui/energy_history.hpp"

struct ImGuiContext;

namespace stepwise::cli {

class OverlayPainter {
 public:
  OverlayPainter(int width, int height, double fps);
  ~OverlayPainter();
  OverlayPainter(const OverlayPainter&) = delete;
  OverlayPainter& operator=(const OverlayPainter&) = delete;
  // Draws over `target`'s resolved image (call after the 3-D view is drawn into it).
  void paint(const Snapshot& frame, const EnergyHistory& history, FrameTarget& target);

 private:
  ImGuiContext* context_ = nullptr;
  int width_, height_;
  double fps_;
  bool first_ = true;
};

}  // namespace stepwise::cli
