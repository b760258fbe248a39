// The selected body (double-click one): its state, the force and torque on it, its bonds and the
// points where it touches something.
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "ui/ui_state.hpp"

namespace stepwise {
namespace {

// Components, then the length beside them or, in a narrow column, under them.
void row(const char* name, const Float3& v) {
  const double norm = std::sqrt(double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
  ImGui::Text("%-6s%11.3e%11.3e%11.3e", name, v[0], v[1], v[2]);
  char length[32];
  std::snprintf(length, sizeof length, "|%.3e|", norm);
  const float indent = ImGui::CalcTextSize("omega ").x;
  same_line_if_fits(ImGui::CalcTextSize(length).x);
  const bool own_line = ImGui::GetCursorPosX() < indent;
  if (own_line) ImGui::Indent(indent);
  ImGui::TextUnformatted(length);
  if (own_line) ImGui::Unindent(indent);
}

}  // namespace

void draw_inspector_panel(UiState& ui, const Snapshot& s) {
  ImGui::PushTextWrapPos(0);
  const int i = ui.view.selected;
  if (i < 0 || i >= s.bodies) {
    ImGui::TextDisabled("double-click a body to inspect it; drag one to pull it");
    return ImGui::PopTextWrapPos();
  }
  const BodyDetail& d = s.detail;
  if (d.body == i)
    ImGui::Text("body %d   mass %.5g   kinetic energy %.5g%s", s.id(i), d.mass, d.kinetic_energy,
                s.fixed[i] ? "   (fixed)" : "");
  else  // picked since this snapshot was filled: the next one has it in full
    ImGui::Text("body %d%s", s.id(i), s.fixed[i] ? "   (fixed)" : "");
  same_line_if_fits(button_width("deselect"));
  if (ImGui::SmallButton("deselect")) ui.view.selected = -1;
  row("x", s.position[i]);
  if (d.body == i) {
    row("v", d.velocity);
    row("omega", d.angular_velocity);
    row("force", d.force);
    row("torque", d.torque);
  }
  int shown = 0;
  for (const BondLine& b : s.bonds) {
    if (b.i != i && b.j != i) continue;
    if (shown++ == 0) {
      ImGui::Separator();
      ImGui::TextDisabled("bonds");
    }
    ImGui::Text("%d-%d  twist %+.4f rad  bend %+.4f rad  load %.2f%s", s.id(b.i), s.id(b.j),
                b.twist, b.bend, b.load, b.broken ? "  BROKEN" : "");
  }
  if (s.inspected == i && !s.inspected_contacts.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("contacts: %d points (marked in the view)",
                        int(s.inspected_contacts.size()));
    for (const Snapshot::ContactMark& c : s.inspected_contacts) {
      char with[32];
      if (c.other >= 0)
        std::snprintf(with, sizeof with, "body %d", s.id(c.other));
      else
        std::snprintf(with, sizeof with, "wall %d", -1 - c.other);
      ImGui::Text("%-10s depth %.3e  force %.4g  n (% .3f % .3f % .3f)", with, c.depth, c.force,
                  c.normal[0], c.normal[1], c.normal[2]);
    }
  }
  ImGui::PopTextWrapPos();
}

}  // namespace stepwise
