#pragma once
// Everything the window's frame loop owns, shared by its parts (gui_app, gui_input).
#include <GLFW/glfw3.h>

#include <chrono>
#include <memory>
#include <vector>

#include "app/gui_app.hpp"
#include "app/gui_overlay.hpp"
#include "app/gui_settings.hpp"
#include "app/key_queue.hpp"
#include "io/video_writer.hpp"
#include "render/auto_frame.hpp"
#include "render/camera.hpp"
#include "render/frame_target.hpp"
#include "render/scene_renderer.hpp"
#include "runtime/physics_worker.hpp"
#include "ui/ui_state.hpp"

namespace stepwise::cli {

struct GuiWindow {
  GLFWwindow* window = nullptr;
  PhysicsWorker worker;
  UiState ui;
  PersistedSettings settings;
  Camera camera;
  std::unique_ptr<SceneRenderer> renderer;
  std::unique_ptr<FrameTarget> target;
  std::vector<EnergySample> samples;
  std::uint64_t seen_generation = 0;
  std::string camera_source;  // the camera is framed again when the scene source changes
  AutoFrame auto_frame;  // until the user moves the camera
  SnapshotDetail requested;  // what the physics thread was last asked to put in snapshots
  int pending_select = -1;  // --select, applied once the scene is loaded
  // The selection as last seen (where stored, and its id): a run kept in spatial order stores
  // its bodies anew as they move, and the selection follows its body.
  int selected_slot = -1, selected_id = -1;

  // Mouse gestures.
  enum class Gesture { None, Orbit, Pan, PullPending, Pull } gesture = Gesture::None;
  int pull_body = -1;
  double last_x = 0, last_y = 0;
  glm::vec3 pull_anchor{0};

  // Scene file watching and dropped files.
  std::string watched_path;
  long long watched_stamp = 0;
  std::chrono::steady_clock::time_point last_watch;
  std::vector<std::string> dropped;
  KeyQueue keys{{GLFW_KEY_RIGHT}};  // shortcut presses since the last frame (→ repeats: steps)

  // Recording from the window.
  std::unique_ptr<VideoWriter> video;
  std::unique_ptr<FrameTarget> record_target;
  std::unique_ptr<OverlayPainter> overlay;  // when recordings carry record's overlay
  std::vector<Snapshot> captures;

  SendCommand send() {
    return [this](Command c) { worker.send(std::move(c)); };
  }
};

// Mouse and keyboard, when ImGui does not want them.
void handle_input(GuiWindow& w, const Snapshot& s);
// A new file in the output folder named by scene and time (absolute; never an existing name).
std::string output_name(const GuiWindow& w, const Snapshot& s, const char* extension);
// F12 and the window button: the 3-D view as a PNG; returns the path written.
std::string save_view_screenshot(GuiWindow& w, const Snapshot& s);
// The Record & share panel's requests and the video frames captured by the worker.
void update_share(GuiWindow& w, const Snapshot& s, int width, int height);
void finish_share(GuiWindow& w, const Snapshot& s, int width, int height);  // after the panels
void stop_recording(GuiWindow& w);  // finalises the file (also on exit)

}  // namespace stepwise::cli
