// The selected body (double-click one): its state, the force and torque on it, its bonds and the
// points where it touches something.
#include <imgui.h>

#include <cmath>
#include <cstdio>

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
    // Opening, it rises from the bottom edge into view: its bottom stays on the screen.
    if (ui.view.selected >= 0)
      ImGui::SetNextWindowPos(
          ImVec2(viewport->WorkPos.x + 390, viewport->WorkPos.y + viewport->WorkSize.y - 10),
          ImGuiCond_Always, ImVec2(0, 1));
    last_selected = ui.view.selected;
  }
  // Never taller than the screen allows; long contact lists scroll.
  ImGui::SetNextWindowSizeConstraints(ImVec2(200, 60),
                                      ImVec2(viewport->WorkSize.x, 0.45f * viewport->WorkSize.y));
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
  if (s.inspected == i && !s.inspected_contacts.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("contacts: %d points (marked in the view)",
                        int(s.inspected_contacts.size()));
    for (const Snapshot::ContactMark& c : s.inspected_contacts) {
      char with[32];
      if (c.other >= 0)
        std::snprintf(with, sizeof with, "body %d", c.other);
      else
        std::snprintf(with, sizeof with, "wall %d", -1 - c.other);
      ImGui::Text("%-10s depth %.3e  force %.4g  n (% .3f % .3f % .3f)", with, c.depth, c.force,
                  c.normal[0], c.normal[1], c.normal[2]);
    }
  }
  ImGui::End();
}

}  // namespace stepwise
