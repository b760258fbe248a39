// The live energy plot: kinetic, potential, total, external work, dissipated, and the relative
// energy error (with its per-step extremes when samples cover several steps).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/ui_state.hpp"

namespace stepwise {

void draw_energy_panel(UiState& ui, const Snapshot& s) {
  EnergyHistory& h = ui.history;

  ImGui::Checkbox("energies", &ui.plot_energies);
  same_line_if_fits(checkbox_width("error"));
  ImGui::Checkbox("error", &ui.plot_error);
  same_line_if_fits(checkbox_width("log |error|"));
  ImGui::Checkbox("log |error|", &ui.energy_log);
  same_line_if_fits(checkbox_width("since last switch"));
  ImGui::Checkbox("since last switch", &ui.error_since_switch);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The error re-based at each switch (integrator, dt, a parameter), so each\n"
                      "method shows its own error; off: all of it since the start.");
  same_line_if_fits(110 + ImGui::CalcTextSize(" window").x);
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
  // Each plot a fifth of the window's height: both fit beside the 3-D view on a projector.
  const float half = std::clamp(0.21f * ImGui::GetMainViewport()->WorkSize.y, 120.0f, 300.0f);
  if (ui.plot_energies) {
    o.height = half;
    o.y_label = "energy";
    std::vector<PlotSeries> series = {
        {"kinetic", IM_COL32(90, 170, 255, 255), &h.time, &h.kinetic},
        {"potential", IM_COL32(120, 210, 120, 255), &h.time, &h.potential},
        {"total", IM_COL32(240, 240, 240, 255), &h.time, &h.total},
        {"external work", IM_COL32(250, 170, 60, 255), &h.time, &h.external_work},
        {"dissipated", IM_COL32(220, 90, 200, 255), &h.time, &h.dissipated}};
    // Rigid contact's overlap correction, where it did anything: its own term of the ledger.
    if (std::any_of(h.corrected.begin(), h.corrected.end(), [](double c) { return c != 0; }))
      series.push_back({"contact correction", IM_COL32(150, 230, 230, 255), &h.time, &h.corrected});
    plot("energies", series, o);
  }
  if (ui.plot_error) {
    o.height = half;
    o.y_label = ui.error_since_switch
                    ? "relative energy error since the last switch (E - E0 - W - C + D) / |E0|"
                    : "relative energy error since the start (E - E0 - W - C + D) / |E0|";
    o.symmetric_log = ui.energy_log;
    const bool rebased = ui.error_since_switch;
    plot("error",
         {{"error", IM_COL32(255, 110, 90, 255), &h.time, rebased ? &h.since_switch : &h.error,
           rebased ? &h.since_switch_min : &h.error_min,
           rebased ? &h.since_switch_max : &h.error_max}},
         o);
  }
  // Constrained scenes: how far the state has left C = 0 and Ċ = 0 (drift control at work).
  if (!h.constraint_error.empty() && !std::isnan(h.constraint_error.back())) {
    o.height = 0.75f * half;
    o.y_label = "constraint drift: max |C| and max |dC/dt| (log)";
    o.symmetric_log = true;
    plot("constraints",
         {{"|C|", IM_COL32(120, 200, 255, 255), &h.time, &h.constraint_error},
          {"|dC/dt|", IM_COL32(255, 200, 90, 255), &h.time, &h.constraint_rate}},
         o);
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%ld samples covering %ld steps; now %.3e", h.samples_received(),
                      h.steps_covered(), s.energy.energy_error);
  ImGui::PopTextWrapPos();
}

}  // namespace stepwise
