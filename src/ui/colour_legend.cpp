// The colour key in the view's lower-left corner, for whatever the bodies are coloured by.
#include <imgui.h>

#include <algorithm>

#include "render/colour_map.hpp"
#include "ui/ui_state.hpp"

namespace stepwise {

void draw_colour_legend(const UiState& ui, const ColourScale& scale, const Snapshot& s) {
  if (scale.by == ColourBy::Id) return;
  const Rect& area = ui.layout.view;  // the 3-D view's lower-left corner
  ImGui::SetNextWindowPos(ImVec2(area.x + 12, area.bottom() - 12), ImGuiCond_Always, ImVec2(0, 1));
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("##legend", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav);
  ImGui::Text("colour: %s", kColourByNames[int(scale.by)]);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  if (scale.by == ColourBy::Material) {  // a swatch and a name per material
    const bool unnamed = std::find(s.material.begin(), s.material.end(), 0) != s.material.end();
    for (size_t m = unnamed ? 0 : 1; m <= s.materials.size(); ++m) {
      const glm::vec3 c = material_colour(int(m));
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float size = ImGui::GetTextLineHeight();
      draw->AddRectFilled(p, ImVec2(p.x + size, p.y + size),
                          ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1)));
      ImGui::Dummy(ImVec2(size, size));
      ImGui::SameLine();
      ImGui::TextUnformatted(m == 0 ? "none" : s.materials[m - 1].kind.c_str());
    }
    ImGui::End();
    return;
  }
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float width = 220, height = 14;
  for (int k = 0; k < 44; ++k) {
    const glm::vec3 c = colour_ramp(float(k) / 43.0f);
    draw->AddRectFilled(ImVec2(p.x + width * k / 44, p.y),
                        ImVec2(p.x + width * (k + 1) / 44, p.y + height),
                        ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1)));
  }
  ImGui::Dummy(ImVec2(width, height));
  ImGui::Text("%-10.3g%*s%.3g", scale.low, 22, "", scale.high);
  ImGui::End();
}

}  // namespace stepwise
