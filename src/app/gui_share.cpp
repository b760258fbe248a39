// The window's Record & share actions: screenshots, video locked to simulated time (frames come
// from the worker's capture queue), the energy CSV and the VTK series toggle.
#include <glad/gl.h>

#include <cstdio>
#include <filesystem>

#include "app/gui_window.hpp"
#include "core/limits.hpp"
#include "io/atomic_file.hpp"
#include "io/csv.hpp"
#include "io/png.hpp"

namespace stepwise::cli {

std::string output_name(const GuiWindow& w, const Snapshot& s, const char* extension) {
  std::error_code ec;
  std::filesystem::create_directories(w.ui.output_dir, ec);
  char name[512];
  std::snprintf(name, sizeof name, "%s_t%.3f", s.label.c_str(), s.time);
  std::string stem = name;
  for (char& c : stem)
    if (c == ' ' || c == ':' || c == '/') c = '_';
  // Never over an earlier file: a second screenshot at the same time gets _2, _3, ...
  const std::filesystem::path folder = std::filesystem::absolute(w.ui.output_dir, ec);
  std::filesystem::path path = folder / (stem + extension);
  for (int k = 2; std::filesystem::exists(path, ec) && k < 100000; ++k)
    path = folder / (stem + "_" + std::to_string(k) + extension);
  return path.lexically_normal().string();
}

namespace {

void export_energy_csv(GuiWindow& w, const Snapshot& s) {
  const std::string path = output_name(w, s, "_energy.csv");
  AtomicFile file(path);
  file.stream() << energy_csv_header() << '\n';
  for (const EnergySample& e : w.ui.history.samples) write_energy_csv_row(file.stream(), report_of(e));
  file.commit();
  w.ui.notice = "energy series (" + std::to_string(w.ui.history.samples.size()) + " rows): " + path;
}

void start_recording(GuiWindow& w, const Snapshot& s, int width, int height) {
  const double fps = std::clamp(double(w.ui.record_fps), 1.0, limits::kMaxFps);
  const std::string path = output_name(w, s, ".mp4");
  // H.264 wants even sizes: drop a row or column if needed.
  w.video = std::make_unique<VideoWriter>(path, width & ~1, height & ~1, fps);
  w.record_target = std::make_unique<FrameTarget>();
  w.record_target->resize(width & ~1, height & ~1, 4);
  if (w.ui.record_overlay)
    w.overlay = std::make_unique<OverlayPainter>(width & ~1, height & ~1, fps);
  w.ui.recording = true;
  w.ui.recording_path = path;
  w.ui.recording_started_sim = s.time;
  w.ui.recorded_frames = 0;
  w.worker.send(cmd::SetCapture{w.ui.slow_motion / fps});
}

}  // namespace

void stop_recording(GuiWindow& w) {
  if (!w.video) return;
  w.worker.send(cmd::SetCapture{0});
  w.video->finish();
  w.ui.notice = "video: " + w.ui.recording_path + " (" + std::to_string(w.video->frames()) + " frames)";
  w.video.reset();
  w.overlay.reset();
  w.record_target.reset();
  w.ui.recording = false;
}

void update_share(GuiWindow& w, const Snapshot& s, int width, int height) {
  if (s.scene_generation == 0) return;  // requests wait for the first scene
  try {
    if (w.ui.request_csv) export_energy_csv(w, s);
    if (w.ui.request_vtk)
      w.worker.send(s.writing_vtk ? cmd::SetVtk{"", 0}
                                  : cmd::SetVtk{output_name(w, s, "_vtk"), 10});
    if (w.ui.request_record_toggle) {
      if (w.video) stop_recording(w);
      else start_recording(w, s, width, height);
    }
    if (w.ui.request_screenshot && !w.ui.screenshot_with_panels)
      w.ui.notice = "screenshot: " + save_view_screenshot(w, s);
  } catch (const std::exception& e) {
    w.ui.notice = e.what();
    w.video.reset();
    w.ui.recording = false;
  }
  w.ui.request_csv = w.ui.request_vtk = w.ui.request_record_toggle = false;
  if (!w.ui.screenshot_with_panels) w.ui.request_screenshot = false;

  // Frames the worker captured at their simulated times, drawn with the current view.
  w.worker.take_captures(w.captures);
  if (!w.video) return;
  try {
    for (const Snapshot& frame : w.captures) {
      w.renderer->draw(frame, w.camera, w.ui.view, *w.record_target);
      if (w.overlay) w.overlay->paint(frame, w.ui.history, *w.record_target);
      w.video->write(w.record_target->read_pixels());
      ++w.ui.recorded_frames;
    }
  } catch (const std::exception& e) {
    w.ui.notice = e.what();
    stop_recording(w);
  }
}

// After the panels are drawn: the whole window as the user sees it.
void finish_share(GuiWindow& w, const Snapshot& s, int width, int height) {
  if (!w.ui.request_screenshot) return;
  w.ui.request_screenshot = false;
  try {
    const std::string path = output_name(w, s, "_window.png");
    write_png(path, {width, height, read_framebuffer(0, width, height)});
    w.ui.notice = "screenshot: " + path;
  } catch (const std::exception& e) {
    w.ui.notice = e.what();
  }
}

}  // namespace stepwise::cli
