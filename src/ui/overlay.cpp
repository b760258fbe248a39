// The caption burned into teaching videos: what runs (integrator, dt, time) and the live
// energy-error plot, drawn over the 3-D view.
#include <imgui.h>

#include <algorithm>

#include "ui/ui_state.hpp"

namespace stepwise {

namespace {
constexpr ImGuiWindowFlags kOverlayFlags = ImGuiWindowFlags_NoDecoration |
                                           ImGuiWindowFlags_NoSavedSettings |
                                           ImGuiWindowFlags_NoInputs |
                                           ImGuiWindowFlags_NoFocusOnAppearing;
}  // namespace

void draw_caption(const std::string& caption, const Rect& area) {
  if (caption.empty()) return;
  ImGui::SetNextWindowPos(ImVec2(area.x + area.w * 0.5f, area.bottom() - 16), 0, ImVec2(0.5f, 1));
  ImGui::SetNextWindowBgAlpha(0.7f);
  const float most = area.w * 0.92f;
  const float wanted = ImGui::CalcTextSize(caption.c_str()).x * 1.3f + 24;
  ImGui::SetNextWindowSize(ImVec2(std::min(most, wanted), 0));
  ImGui::Begin("##overlay-caption", nullptr, kOverlayFlags);
  ImGui::SetWindowFontScale(1.3f);
  ImGui::TextWrapped("%s", caption.c_str());
  ImGui::End();
}

void draw_recording_overlay(const Snapshot& s, const EnergyHistory& history,
                            const std::string& caption) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const ImGuiWindowFlags flags = kOverlayFlags;
  ImGui::SetNextWindowPos(ImVec2(12, 12));
  ImGui::SetNextWindowBgAlpha(0.55f);
  ImGui::Begin("##overlay-text", nullptr, flags | ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::Text("%s", s.label.c_str());
  ImGui::Text("%s + %s   dt = %.4g", s.integrator.c_str(), s.rotation.c_str(), s.dt);
  ImGui::Text("t = %.3f   energy error %+.3e", s.time, s.energy.energy_error);
  ImGui::End();
  draw_caption(caption, {0, 0, viewport->Size.x, viewport->Size.y});
  const float width = std::min(420.0f, viewport->Size.x * 0.4f);
  ImGui::SetNextWindowPos(ImVec2(viewport->Size.x - 12, 12), 0, ImVec2(1, 0));
  ImGui::SetNextWindowSize(ImVec2(width, 0));
  ImGui::SetNextWindowBgAlpha(0.55f);
  ImGui::Begin("##overlay-plot", nullptr, flags);
  PlotOptions o;
  o.height = std::min(170.0f, viewport->Size.y * 0.28f);
  o.x_label = "time";
  o.y_label = "|relative energy error| (log)";
  o.symmetric_log = true;  // on a linear axis the start-up transient flattens the rest
  o.markers = history.markers;
  plot("error", {{"error", IM_COL32(255, 110, 90, 255), &history.time, &history.error,
                  &history.error_min, &history.error_max}},
       o);
  ImGui::End();
}

}  // namespace stepwise
