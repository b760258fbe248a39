// Camera gestures, picking and pulling bodies, and the keyboard shortcuts (see the F1 help).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/gui_window.hpp"
#include "render/picking.hpp"

namespace stepwise::cli {
namespace {

glm::vec3 vec(const Float3& v) {
  return {v[0], v[1], v[2]};
}

// Through the 3-D view's part of the window (the columns take the rest).
Ray mouse_ray(const GuiWindow& w, double x, double y) {
  const Rect& v = w.ui.layout.view;
  return w.camera.ray_through(float(x) - v.x, float(y) - v.y, std::max(v.w, 1.0f),
                              std::max(v.h, 1.0f));
}

// Each queued press acts once (see key_queue.hpp), whatever the frame rate.
void handle_key(GuiWindow& w, const Snapshot& s, int key) {
  const SendCommand send = w.send();
  switch (key) {
    case GLFW_KEY_SPACE: return send(cmd::SetRunning{!s.running});
    case GLFW_KEY_RIGHT: return send(cmd::StepOnce{1});
    case GLFW_KEY_BACKSPACE: return send(cmd::Reset{});
    case GLFW_KEY_LEFT: return send(cmd::Rewind{});
    case GLFW_KEY_R: w.ui.request_camera_reset = true; return;
    case GLFW_KEY_F: w.ui.follow_selection = !w.ui.follow_selection; return;
    case GLFW_KEY_C: w.ui.view.colour_by = ColourBy((int(w.ui.view.colour_by) + 1) % kColourByCount); return;
    case GLFW_KEY_F1: w.ui.show_help = !w.ui.show_help; return;
    case GLFW_KEY_TAB: w.ui.hide_panels = !w.ui.hide_panels; return;
    case GLFW_KEY_F12: w.ui.request_screenshot = true; return;
    case GLFW_KEY_F9: w.ui.request_record_toggle = true; return;
    default: return;
  }
}

}  // namespace

void handle_input(GuiWindow& w, const Snapshot& s) {
  ImGuiIO& io = ImGui::GetIO();
  // Presses typed into a text field were the field's, not shortcuts.
  for (const int key : w.keys.take())
    if (!io.WantCaptureKeyboard) handle_key(w, s, key);
  double x = 0, y = 0;
  glfwGetCursorPos(w.window, &x, &y);
  const float dx = float(x - w.last_x), dy = float(y - w.last_y);
  w.last_x = x, w.last_y = y;

  const SendCommand send = w.send();
  if (!io.WantCaptureMouse) {
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      const auto hit = pick_body(s, mouse_ray(w, x, y));
      w.ui.view.selected = hit ? hit->body : -1;
    } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      const auto hit = pick_body(s, mouse_ray(w, x, y));
      if (hit && hit->body < s.bodies && !s.fixed[hit->body]) {
        // The pull starts when the mouse moves: the first click of a double-click pulls nothing.
        w.pull_body = hit->body;
        w.pull_anchor = vec(s.position[hit->body]);
        w.gesture = GuiWindow::Gesture::PullPending;
      } else {
        // A 2-D scene does not orbit: dragging the empty plane moves it.
        w.gesture = w.camera.planar ? GuiWindow::Gesture::Pan : GuiWindow::Gesture::Orbit;
      }
    } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) ||
               ImGui::IsMouseClicked(ImGuiMouseButton_Middle)) {
      w.gesture = GuiWindow::Gesture::Pan;
    }
    if (io.MouseWheel != 0) w.camera.zoom(io.MouseWheel);
  }

  if (w.gesture == GuiWindow::Gesture::Orbit || w.gesture == GuiWindow::Gesture::Pan ||
      (!io.WantCaptureMouse && io.MouseWheel != 0))
    w.auto_frame.enabled = false;
  switch (w.gesture) {
    case GuiWindow::Gesture::Orbit:
      w.camera.orbit(dx, dy);
      break;
    case GuiWindow::Gesture::Pan:
      w.camera.pan(dx, dy, std::max(w.ui.layout.view.h, 1.0f));
      break;
    case GuiWindow::Gesture::PullPending:
      if (ImGui::IsMouseDragging(ImGuiMouseButton_Left) && w.pull_body < s.bodies) {
        // The user's stiffness, or (0) about 2 Hz for this body; damped as the user chose.
        const int b = w.pull_body;
        const double k = std::max(w.ui.drag_stiffness, 0.0);
        send(cmd::DragStart{b, Vec3(w.pull_anchor.x, w.pull_anchor.y, w.pull_anchor.z), k,
                            w.ui.drag_damping});
        w.ui.notice = "pulling body " + std::to_string(s.id(b)) +
                      (k > 0 ? " (k " + format_double(k) + ")" : " (about 2 Hz)");
        w.ui.view.pull_body = b;
        w.ui.view.pull_target = w.pull_anchor;
        w.gesture = GuiWindow::Gesture::Pull;
      }
      break;
    case GuiWindow::Gesture::Pull:
      if (dx != 0 || dy != 0) {
        const glm::vec3 p =
            point_on_view_plane(mouse_ray(w, x, y), w.pull_anchor, w.camera.forward());
        send(cmd::DragMove{Vec3(p.x, p.y, p.z)});
        w.ui.view.pull_target = p;  // the line from the body to the hand
      }
      break;
    case GuiWindow::Gesture::None:
      break;
  }
  const bool any_down = ImGui::IsMouseDown(ImGuiMouseButton_Left) ||
                        ImGui::IsMouseDown(ImGuiMouseButton_Right) ||
                        ImGui::IsMouseDown(ImGuiMouseButton_Middle);
  if (!any_down && w.gesture != GuiWindow::Gesture::None) {
    if (w.gesture == GuiWindow::Gesture::Pull) {
      send(cmd::DragEnd{});
      w.ui.view.pull_body = -1;
      if (w.ui.notice.rfind("pulling body", 0) == 0) w.ui.notice.clear();
    }
    w.gesture = GuiWindow::Gesture::None;
  }
}

}  // namespace stepwise::cli
