// Share what you see: screenshots, a video locked to simulated time, the state as a scene file,
// the energy series as CSV and a ParaView frame. Files go to one folder, named by scene and time.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "core/limits.hpp"
#include "ui/ui_state.hpp"

namespace stepwise {

void draw_record_panel(UiState& ui, const Snapshot& s, const SendCommand& send) {
  char folder[512];
  std::snprintf(folder, sizeof folder, "%s", ui.output_dir.c_str());
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(" folder").x);
  if (ImGui::InputText("folder", folder, sizeof folder)) ui.output_dir = folder;

  if (ImGui::Button("Screenshot")) ui.request_screenshot = true;
  same_line_if_fits(checkbox_width("with panels"));
  ImGui::Checkbox("with panels", &ui.screenshot_with_panels);
  same_line_if_fits(ImGui::CalcTextSize("(F12)").x);
  ImGui::TextDisabled("(F12)");

  if (ui.recording) {
    const double t = s.time - ui.recording_started_sim;
    ImGui::TextColored(ImVec4(1, 0.25f, 0.2f, 1), "REC");
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    ImGui::Text("%ld frames, %.2f s simulated", ui.recorded_frames, t);
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Stop recording")) ui.request_record_toggle = true;
  } else {
    if (ImGui::Button("Record video")) ui.request_record_toggle = true;
    same_line_if_fits(80 + ImGui::CalcTextSize(" fps").x);
    ImGui::SetNextItemWidth(80);
    if (ImGui::InputFloat("fps", &ui.record_fps, 0, 0, "%.0f"))  // the range record --fps has
      ui.record_fps = std::clamp(ui.record_fps, 1.0f, float(limits::kMaxFps));
  }
  same_line_if_fits(ImGui::CalcTextSize("(F9)").x);
  ImGui::TextDisabled("(F9)");
  if (!ui.recording) {
    ImGui::Checkbox("burn in the overlay", &ui.record_overlay);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("method, dt, time, energy error and its plot, as record --overlay draws");
  }
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
  same_line_if_fits(button_width("Energy CSV"));
  if (ImGui::Button("Energy CSV")) ui.request_csv = true;
  same_line_if_fits(button_width("VTK series"));
  if (ImGui::Button(s.writing_vtk ? "Stop VTK" : "VTK series")) ui.request_vtk = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("ParaView: a .vtu every 10 steps plus series.pvd, until stopped");
  ImGui::PushTextWrapPos(0);
  if (!s.notice.empty()) ImGui::TextDisabled("%s", s.notice.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace stepwise
