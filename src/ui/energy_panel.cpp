// The live energy plot: kinetic, potential, total, external work, dissipated, and the relative
// energy error (with its per-step extremes when samples cover several steps).
#include <imgui.h>

#include <algorithm>

#include "ui/ui_state.hpp"

namespace stepwise {

void draw_energy_panel(UiState& ui, const Snapshot& s) {
  if (!ui.show_energy) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 10,
                                 viewport->WorkPos.y + viewport->WorkSize.y - 10),
                          ImGuiCond_FirstUseEver, ImVec2(1, 1));
  ImGui::SetNextWindowSize(ImVec2(540, 420), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Energy", &ui.show_energy)) return ImGui::End();
  EnergyHistory& h = ui.history;

  ImGui::Checkbox("energies", &ui.plot_energies);
  ImGui::SameLine();
  ImGui::Checkbox("error", &ui.plot_error);
  ImGui::SameLine();
  ImGui::Checkbox("log |error|", &ui.energy_log);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::DragFloat("window", &ui.energy_window, 0.5f, 0.0f, 1e6f, ui.energy_window > 0 ? "%.1f s" : "all");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("simulated seconds shown (0: all kept)");

  PlotOptions o;
  o.x_label = "time";
  if (ui.energy_window > 0 && !h.time.empty()) {
    o.fixed_x_range = true;
    o.x_max = std::max(h.time.back(), double(ui.energy_window));
    o.x_min = o.x_max - ui.energy_window;
  }
  o.markers = h.markers;
  const float half = std::max(120.0f, (ImGui::GetContentRegionAvail().y - 30) /
                                          float(int(ui.plot_energies) + int(ui.plot_error) + 0.001f));
  if (ui.plot_energies) {
    o.height = half;
    o.y_label = "energy";
    plot("energies",
         {{"kinetic", IM_COL32(90, 170, 255, 255), &h.time, &h.kinetic},
          {"potential", IM_COL32(120, 210, 120, 255), &h.time, &h.potential},
          {"total", IM_COL32(240, 240, 240, 255), &h.time, &h.total},
          {"external work", IM_COL32(250, 170, 60, 255), &h.time, &h.external_work},
          {"dissipated", IM_COL32(220, 90, 200, 255), &h.time, &h.dissipated}},
         o);
  }
  if (ui.plot_error) {
    o.height = half;
    o.y_label = "relative energy error (E - E0 - W + D) / |E0|";
    o.symmetric_log = ui.energy_log;
    plot("error", {{"error", IM_COL32(255, 110, 90, 255), &h.time, &h.error, &h.error_min, &h.error_max}},
         o);
  }
  ImGui::TextDisabled("%ld samples covering %ld steps; now %.3e", h.samples_received(),
                      h.steps_covered(), s.energy.energy_error);
  ImGui::End();
}

}  // namespace stepwise
