// F1: the shortcuts, drawn over the view.
#include <imgui.h>

#include "ui/ui_state.hpp"

namespace stepwise {

void draw_help_overlay(UiState& ui) {
  if (!ui.show_help) return;
  // Over the 3-D view, never over the panels; a view too small for it makes it scroll.
  const Rect& area = ui.layout.view;
  ImGui::SetNextWindowPos(ImVec2(area.x + area.w * 0.5f, area.y + area.h * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(area.w - 8, area.h - 8));
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (!ImGui::Begin("Help (F1)", &ui.show_help,
                    ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings))
    return ImGui::End();
  ImGui::PushTextWrapPos(0);
  static const char* const rows[][2] = {
      {"Space", "run / pause"},
      {"Right arrow", "one step (pauses)"},
      {"Backspace", "back to the start (keeps your integrator, dt and parameters)"},
      {"Left arrow", "back to the previous checkpoint (then change something to branch)"},
      {"R", "reset the view"},
      {"F", "follow the selected body"},
      {"C", "next colouring (id, speed, spin, energy, force)"},
      {"F1", "this help"},
      {"Tab", "hide / show every panel (the 3-D view alone)"},
      {"F12", "screenshot (of the view, or with panels: see Record & share)"},
      {"F9", "start / stop recording a video (frames at simulated-time spacing)"},
      {"Left drag", "orbit; on a body: pull it with a spring"},
      {"Right / middle drag", "pan"},
      {"Wheel", "zoom"},
      {"Double-click", "select and inspect a body"},
      {"Drop a .toml", "load that scene (reloaded when the file changes)"},
  };
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    for (const auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", r[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r[1]);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("Keys are ignored while a text field has the keyboard.");
  ImGui::PopTextWrapPos();
  report_window("help", ui.layout_report);
  ImGui::End();
}

}  // namespace stepwise
