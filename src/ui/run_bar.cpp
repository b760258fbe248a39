// The strip along the top: play/pause, step, reset, pacing, the clock and any error.
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "ui/ui_state.hpp"

namespace stepwise {

void draw_run_bar(UiState& ui, const Snapshot& s, const SendCommand& send) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x, 0));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar;
  if (!ImGui::Begin("##run", nullptr, flags)) return ImGui::End();
  if (ImGui::BeginMenuBar()) {
    if (ImGui::BeginMenu("Windows")) {
      ImGui::MenuItem("Scenes", nullptr, &ui.show_scenes);
      ImGui::MenuItem("Integrator", nullptr, &ui.show_integrator);
      ImGui::MenuItem("Parameters", nullptr, &ui.show_parameters);
      ImGui::MenuItem("Energy", nullptr, &ui.show_energy);
      ImGui::MenuItem("Stats", nullptr, &ui.show_stats);
      ImGui::MenuItem("Inspector", nullptr, &ui.show_inspector);
      ImGui::MenuItem("Bonds", nullptr, &ui.show_bonds);
      ImGui::MenuItem("Compare", nullptr, &ui.show_compare);
      ImGui::MenuItem("Record & share", nullptr, &ui.show_record);
      ImGui::MenuItem("Help", "F1", &ui.show_help);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
      int colour = int(ui.view.colour_by);
      for (int i = 0; i < kColourByCount; ++i)
        if (ImGui::RadioButton(kColourByNames[i], &colour, i)) ui.view.colour_by = ColourBy(i);
      ImGui::Separator();
      ImGui::Checkbox("Shadows", &ui.view.shadows);
      ImGui::Checkbox("Bonds", &ui.view.bonds);
      ImGui::Checkbox("Bonds on top", &ui.view.bonds_on_top);
      ImGui::Checkbox("Walls", &ui.view.walls);
      ImGui::Checkbox("Trails", &ui.view.trails);
      ImGui::Checkbox("Contact force network", &ui.view.force_network);
      ImGui::Checkbox("Floor grid", &ui.view.grid);
      ImGui::Checkbox("Follow selection", &ui.follow_selection);
      if (ImGui::MenuItem("Reset view", "R")) ui.request_camera_reset = true;
      ImGui::Separator();
      ImGui::TextDisabled("pulling a body (left drag)");
      double value = 0;
      ImGui::SetNextItemWidth(110);
      if (number_field("stiffness (0: about 2 Hz)", ui.drag_stiffness, 0, 1e12, ui.field_edits,
                       value, ui.notice))
        ui.drag_stiffness = value;
      ImGui::SetNextItemWidth(110);
      if (number_field("damping ratio (1: critical)", ui.drag_damping, 0, 100, ui.field_edits,
                       value, ui.notice))
        ui.drag_damping = value;
      ImGui::EndMenu();
    }
    ImGui::TextDisabled("| %s", s.label.c_str());
    ImGui::EndMenuBar();
  }

  if (ImGui::Button(s.running ? "Pause" : " Run ")) send(cmd::SetRunning{!s.running});
  ImGui::SameLine();
  if (ImGui::Button("Step")) send(cmd::StepOnce{1});
  ImGui::SameLine();
  if (ImGui::Button("Reset")) send(cmd::Reset{});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Back to the start, keeping your integrator, dt and parameters (Backspace)");
  ImGui::SameLine();
  if (ImGui::Button("Defaults")) send(cmd::Reset{true});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Back to the start with the scene's own integrator, dt and parameters");
  ImGui::SameLine();
  const char* pacings[] = {"real time", "as fast as possible"};
  ImGui::SetNextItemWidth(ImGui::CalcTextSize(pacings[1]).x + ImGui::GetFrameHeight() +
                          2 * ImGui::GetStyle().FramePadding.x);  // the longest choice, whole
  if (ImGui::Combo("##pacing", &ui.pacing, pacings, 2))
    send(cmd::SetPacing{ui.pacing ? Pacing::Fastest : Pacing::RealTime, ui.slow_motion});
  if (ui.pacing == 0) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(150);
    if (ImGui::SliderFloat("speed", &ui.slow_motion, 0.001f, 4.0f, "x%.3f",
                           ImGuiSliderFlags_Logarithmic))
      send(cmd::SetPacing{Pacing::RealTime, std::max(ui.slow_motion, 0.001f)});
  }
  char clock[160];
  std::snprintf(clock, sizeof clock, "t = %.4f   step %ld   %.0f steps/s   x%.3g real time", s.time,
                s.step, s.steps_per_second, s.realtime_factor);
  same_line_if_fits(ImGui::CalcTextSize(clock).x);
  ImGui::TextUnformatted(clock);
  if (s.lesson_progress >= 0) {  // a lesson: how far through it the class is
    char label[160];
    std::snprintf(label, sizeof label, "%s %.0f%%", s.lesson_title.c_str(), 100 * s.lesson_progress);
    same_line_if_fits(220);
    ImGui::ProgressBar(float(s.lesson_progress), ImVec2(220, 0), label);
  }
  if (ui.recording) {  // F9: what is being recorded, visible whatever panels are open
    char rec[64];
    std::snprintf(rec, sizeof rec, "REC %ld frames", ui.recorded_frames);
    same_line_if_fits(ImGui::CalcTextSize(rec).x + 8);
    ImGui::TextColored(ImVec4(1, 0.25f, 0.2f, 1), "%s", rec);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nF9 stops", ui.recording_path.c_str());
  }
  // A message goes beside the clock if it fits, else on a line of its own, wrapped. Above the
  // method's stability limit the run bar says so, whatever else it has to say.
  const double omega_dt = s.omega_worst * s.dt;
  if (s.error.empty() && s.stability_limit > 0 && omega_dt > s.stability_limit) {
    char warning[200];
    std::snprintf(warning, sizeof warning, "dt is above %s's stability limit: omega dt = %.3g > %.3g",
                  s.integrator.c_str(), omega_dt, s.stability_limit);
    same_line_if_fits(ImGui::CalcTextSize(warning).x + 16);
    ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "  %s", warning);
  }
  const std::string& message = s.error.empty() ? ui.notice : s.error;
  if (!message.empty()) {
    same_line_if_fits(ImGui::CalcTextSize(message.c_str()).x + 16);
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(s.error.empty() ? ImVec4(0.6f, 0.85f, 0.6f, 1.0f)
                                       : ImVec4(1.0f, 0.35f, 0.3f, 1.0f),
                       "  %s", message.c_str());
    ImGui::PopTextWrapPos();
  }
  ui.run_bar_height = ImGui::GetWindowHeight();  // the columns start below it next frame
  report_window("run bar", ui.layout_report);
  ImGui::End();
}

}  // namespace stepwise
