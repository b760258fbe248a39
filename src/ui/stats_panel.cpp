// Counts and speeds: what is simulated, how fast, and what the renderer costs.
#include <imgui.h>

#include "ui/ui_state.hpp"

namespace stepwise {

void draw_stats_panel(UiState& ui, const Snapshot& s) {
  ImGui::PushTextWrapPos(0);
  int bonds_intact = 0;
  for (const BondLine& b : s.bonds) bonds_intact += b.broken ? 0 : 1;
  ImGui::Text("bodies        %d", s.bodies);
  ImGui::Text("contacts      %d (walls %d)", s.energy.contacts, s.energy.wall_contacts);
  ImGui::Text("bonds         %d intact, %d broken", bonds_intact,
              int(s.bonds.size()) - bonds_intact);
  // What models report of themselves: a constraint set's rows, rank and drift.
  for (const ModelTunables& model : s.models)
    for (const auto& f : model.figures)
      ImGui::Text("%-13s %.4g  (%s)", f.name.c_str(), f.value, model.kind.c_str());
  ImGui::Separator();
  ImGui::Text("steps/s       %.0f (%d thread%s)", s.steps_per_second, s.threads,
              s.threads == 1 ? "" : "s");
  ImGui::Text("real time     x%.4g", s.realtime_factor);
  ImGui::Text("sim time      %.5g (step %ld)", s.time, s.step);
  ImGui::Separator();
  ImGui::Text("FPS           %.1f", ui.fps);
  ImGui::Text("frame time    %.2f ms", ui.frame_ms);
  ImGui::Text("draw calls    %d (3-D view)", ui.render.draw_calls);
  ImGui::Text("instances     %d spheres, %d boxes", ui.render.spheres, ui.render.boxes);
  ImGui::Text("              %d polyhedra, %d bonds", ui.render.hulls, ui.render.bonds);
  ImGui::TextDisabled("%s, MSAA x%d", ui.gl_version.c_str(), ui.msaa_samples);
  ImGui::PopTextWrapPos();
}

}  // namespace stepwise
