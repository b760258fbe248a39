#include "ui/layout.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the window's work rectangle and content extent, for the report

#include <algorithm>
#include <cmath>

namespace stepwise {
namespace {

struct OpenSection {
  float saved_max_x;  // the column's content extent before the section
  float top;
};
std::vector<OpenSection> open_sections;

LayoutEntry entry_for(const char* name, const ImGuiWindow* window, const Rect& rect) {
  const float overflow = window->DC.CursorMaxPos.x - window->WorkRect.Max.x;
  return {name, rect, overflow > 1.5f ? overflow : 0.0f};  // a pixel of rounding is not a cut
}

}  // namespace

Layout compute_layout(float width, float height, float run_bar_height, bool left_shown,
                      bool right_shown) {
  Layout l;
  const float top = std::clamp(run_bar_height, 0.0f, height);
  float left = left_shown ? std::clamp(0.27f * width, 250.0f, 420.0f) : 0.0f;
  float right = right_shown ? std::clamp(0.34f * width, 300.0f, 560.0f) : 0.0f;
  // Very narrow windows: the columns give way so the view keeps at least a quarter.
  const float most = 0.75f * width;
  if (left + right > most && left + right > 0) {
    const float scale = most / (left + right);
    left *= scale, right *= scale;
  }
  left = std::floor(left), right = std::floor(right);
  l.run_bar = {0, 0, width, top};
  l.left = {0, top, left, height - top};
  l.right = {width - right, top, right, height - top};
  l.view = {left, top, width - left - right, height - top};
  return l;
}

bool begin_column(const char* id, const Rect& r) {
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y));
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  const bool visible = ImGui::Begin(id, nullptr, flags);
  ImGui::PopStyleVar();
  if (!visible) ImGui::End();
  return visible;
}

void end_column(const char* name, LayoutReport& report) {
  report_window(name, report);
  ImGui::End();
}

bool begin_section(const char* title, bool& shown, bool open_now, bool default_open) {
  if (!shown) return false;
  if (open_now) ImGui::SetNextItemOpen(true);
  if (!ImGui::CollapsingHeader(title, &shown, default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    return false;
  begin_measured();
  ImGui::PushID(title);
  return true;
}

void end_section(const char* title, LayoutReport& report) {
  ImGui::PopID();
  end_measured(title, report);
}

void begin_measured() {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  open_sections.push_back({window->DC.CursorMaxPos.x, ImGui::GetItemRectMin().y});
  window->DC.CursorMaxPos.x = window->DC.CursorStartPos.x;  // measure this part alone
}

void end_measured(const char* title, LayoutReport& report) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const OpenSection open = open_sections.back();
  open_sections.pop_back();
  const Rect rect{window->WorkRect.Min.x, open.top, window->WorkRect.GetWidth(),
                  window->DC.CursorPos.y - open.top};
  report.entries.push_back(entry_for(title, window, rect));
  window->DC.CursorMaxPos.x = std::max(window->DC.CursorMaxPos.x, open.saved_max_x);
}

void report_item(const char* name, LayoutReport& report) {
  const ImVec2 low = ImGui::GetItemRectMin(), high = ImGui::GetItemRectMax();
  // Clipped by its window (scrolled out of sight) counts as not shown: the rectangle shrinks.
  const ImRect clip = ImGui::GetCurrentWindow()->InnerClipRect;
  const float x0 = std::max(low.x, clip.Min.x), y0 = std::max(low.y, clip.Min.y);
  const float x1 = std::min(high.x, clip.Max.x), y1 = std::min(high.y, clip.Max.y);
  report.entries.push_back({name, {x0, y0, std::max(0.0f, x1 - x0), std::max(0.0f, y1 - y0)}, 0});
}

void report_window(const char* name, LayoutReport& report) {
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  report.entries.push_back(
      entry_for(name, window, {window->Pos.x, window->Pos.y, window->Size.x, window->Size.y}));
}

void same_line_if_fits(float width) {
  // Where SameLine() would put it (the last item's end plus spacing); SameLine() then NewLine()
  // would count that spot as content and report a spill that is not there.
  const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
  if (x + width <= ImGui::GetCurrentWindow()->WorkRect.Max.x) ImGui::SameLine();
}

float checkbox_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
         ImGui::CalcTextSize(label, nullptr, true).x;
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

}  // namespace stepwise
