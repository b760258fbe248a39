// Share what you see: screenshots, a video locked to simulated time, the state as a scene file,
// the energy series as CSV and a ParaView frame. Files go to one folder, named by scene and time.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "core/limits.hpp"
#include "ui/ui_state.hpp"

namespace stepwise {

void draw_record_panel(UiState& ui, const Snapshot& s, const SendCommand& send) {
  if (!ui.show_record) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 350, 404),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(330, 200), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Record & share", &ui.show_record)) return ImGui::End();
  char folder[512];
  std::snprintf(folder, sizeof folder, "%s", ui.output_dir.c_str());
  ImGui::SetNextItemWidth(220);
  if (ImGui::InputText("folder", folder, sizeof folder)) ui.output_dir = folder;

  if (ImGui::Button("Screenshot")) ui.request_screenshot = true;
  ImGui::SameLine();
  ImGui::Checkbox("with panels", &ui.screenshot_with_panels);
  ImGui::SameLine();
  ImGui::TextDisabled("(F12)");

  if (ui.recording) {
    const double t = s.time - ui.recording_started_sim;
    ImGui::TextColored(ImVec4(1, 0.25f, 0.2f, 1), "REC");
    ImGui::SameLine();
    ImGui::Text("%ld frames, %.2f s simulated", ui.recorded_frames, t);
    if (ImGui::Button("Stop recording")) ui.request_record_toggle = true;
  } else {
    if (ImGui::Button("Record video")) ui.request_record_toggle = true;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(80);
    if (ImGui::InputFloat("fps", &ui.record_fps, 0, 0, "%.0f"))  // the range record --fps has
      ui.record_fps = std::clamp(ui.record_fps, 1.0f, float(limits::kMaxFps));
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(F9)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Frames are taken every 1/fps of simulated time, so the video plays at true\n"
        "speed however fast this machine is (times the speed slider).");

  if (ImGui::Button("Save state")) {
    char name[512];
    std::snprintf(name, sizeof name, "%s/%s_t%.3f.stepwise.toml", ui.output_dir.c_str(),
                  s.label.c_str(), s.time);
    send(cmd::SaveState{name});
  }
  ImGui::SameLine();
  if (ImGui::Button("Energy CSV")) ui.request_csv = true;
  ImGui::SameLine();
  if (ImGui::Button(s.writing_vtk ? "Stop VTK" : "VTK series")) ui.request_vtk = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("ParaView: a .vtu every 10 steps plus series.pvd, until stopped");
  if (!s.notice.empty()) ImGui::TextDisabled("%s", s.notice.c_str());
  ImGui::End();
}

}  // namespace stepwise
