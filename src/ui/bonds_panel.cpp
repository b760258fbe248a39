// Every bond of the scene in one table: stretch, shear, twist, bend, plane rotation, forces and
// torques; sorted by any column (the worst first, say), and a row picked is drawn bright in the
// 3-D view. The Inspector shows only the selected body's bonds.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "ui/ui_state.hpp"

namespace stepwise {
namespace {

constexpr int kColumns = 10;
const char* const kHeaders[kColumns] = {"bond",  "stretch", "shear", "twist", "bend",
                                        "plane", "F_n",     "F_s",   "M_t",   "M_b"};

float column(const BondLine& b, int c) {
  const float values[kColumns] = {float(b.i),     b.stretch,    b.shear,        b.twist,
                                  b.bend,         b.plane,      b.normal_force, b.shear_force,
                                  b.twist_torque, b.bend_torque};
  return values[c];
}

}  // namespace

void draw_bonds_panel(UiState& ui, const Snapshot& s) {
  if (s.bonds.empty()) {
    ImGui::TextDisabled("this scene has no bonds");
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  const float height = std::min(ImGui::GetTextLineHeightWithSpacing() * (s.bonds.size() + 2.5f),
                                0.4f * ImGui::GetMainViewport()->WorkSize.y);
  if (!ImGui::BeginTable("bonds", kColumns, flags, ImVec2(0, height))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  for (int c = 0; c < kColumns; ++c)
    ImGui::TableSetupColumn(kHeaders[c], c == 0 ? ImGuiTableColumnFlags_DefaultSort : 0);
  ImGui::TableHeadersRow();
  // Rows in the order asked for (by magnitude for the signed quantities: the worst first).
  std::vector<int> order(s.bonds.size());
  std::iota(order.begin(), order.end(), 0);
  if (const ImGuiTableSortSpecs* sort = ImGui::TableGetSortSpecs(); sort && sort->SpecsCount > 0) {
    const int c = sort->Specs[0].ColumnIndex;
    const bool ascending = sort->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      const float x = c == 0 ? column(s.bonds[a], c) : std::abs(column(s.bonds[a], c));
      const float y = c == 0 ? column(s.bonds[b], c) : std::abs(column(s.bonds[b], c));
      return ascending ? x < y : x > y;
    });
  }
  for (const int k : order) {
    const BondLine& b = s.bonds[k];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    char name[48];
    std::snprintf(name, sizeof name, "%d-%d%s##%d", s.id(b.i), s.id(b.j), b.broken ? " broken" : "",
                  k);
    if (ImGui::Selectable(name, ui.view.highlight_bond == k, ImGuiSelectableFlags_SpanAllColumns))
      ui.view.highlight_bond = ui.view.highlight_bond == k ? -1 : k;
    for (int c = 1; c < kColumns; ++c) {
      ImGui::TableNextColumn();
      ImGui::Text("%+.3e", column(b, c));
    }
  }
  ImGui::EndTable();
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("lengths in scene units, angles in radians; click a row to mark the bond");
  ImGui::PopTextWrapPos();
}

}  // namespace stepwise
