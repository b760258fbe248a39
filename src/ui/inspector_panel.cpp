// The selected body (double-click one): its state, the force and torque on it, and its bonds.
#include <imgui.h>

#include <cmath>

#include "ui/ui_state.hpp"

namespace stepwise {
namespace {

void row(const char* name, const Float3& v) {
  const double norm = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
  ImGui::Text("%-8s % .4e % .4e % .4e  |%.3e|", name, v[0], v[1], v[2], norm);
}

}  // namespace

void draw_inspector_panel(UiState& ui, const Snapshot& s) {
  if (!ui.show_inspector) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(390, viewport->WorkPos.y + viewport->WorkSize.y - 10),
                          ImGuiCond_FirstUseEver, ImVec2(0, 1));
  ImGui::SetNextWindowSize(ImVec2(470, 210), ImGuiCond_FirstUseEver);
  // Opens by itself when a body is picked.
  static int last_selected = -2;
  if (ui.view.selected != last_selected) {
    ImGui::SetNextWindowCollapsed(ui.view.selected < 0, ImGuiCond_Always);
    last_selected = ui.view.selected;
  }
  if (!ImGui::Begin("Inspector", &ui.show_inspector)) return ImGui::End();
  const int i = ui.view.selected;
  if (i < 0 || i >= s.bodies) {
    ImGui::TextDisabled("double-click a body to inspect it; drag one to pull it");
    return ImGui::End();
  }
  ImGui::Text("body %d   mass %.5g   kinetic energy %.5g%s", i, s.mass[i], s.kinetic_energy[i],
              s.fixed[i] ? "   (fixed)" : "");
  ImGui::SameLine();
  if (ImGui::SmallButton("deselect")) ui.view.selected = -1;
  row("x", s.position[i]);
  row("v", s.velocity[i]);
  row("omega", s.angular_velocity[i]);
  row("force", s.force[i]);
  row("torque", s.torque[i]);
  int shown = 0;
  for (const BondLine& b : s.bonds) {
    if (b.i != i && b.j != i) continue;
    if (shown++ == 0) {
      ImGui::Separator();
      ImGui::TextDisabled("bonds");
    }
    ImGui::Text("%d-%d  twist %+.4f rad  bend %+.4f rad  load %.2f%s", b.i, b.j, b.twist, b.bend,
                b.load, b.broken ? "  BROKEN" : "");
  }
  ImGui::End();
}

}  // namespace stepwise
