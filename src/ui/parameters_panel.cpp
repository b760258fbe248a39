// Every live model parameter of the running scene (applied at once, mid-run) and the scene's
// build parameters (applied by rebuilding it).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "ui/ui_state.hpp"

namespace stepwise {
namespace {

// Scene parameters being edited, kept until "Rebuild" (per loaded source).
struct SceneEdits {
  std::string source;
  std::map<std::string, ParamValue> values;
};

// Fields take about half the column; the name sits to their right.
float field_width() {
  return std::min(150.0f, ImGui::GetContentRegionAvail().x * 0.5f);
}

bool edit_value(const std::string& name, ParamValue& value) {
  ImGui::SetNextItemWidth(field_width());
  if (auto* number = std::get_if<double>(&value))
    return ImGui::InputDouble(name.c_str(), number, 0, 0, "%.6g");
  if (auto* flag = std::get_if<bool>(&value)) return ImGui::Checkbox(name.c_str(), flag);
  if (auto* text = std::get_if<std::string>(&value)) {
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "%s", text->c_str());
    if (!ImGui::InputText(name.c_str(), buffer, sizeof buffer)) return false;
    *text = buffer;
    return true;
  }
  ImGui::TextDisabled("%s = %s", name.c_str(), format_param_value(value).c_str());
  return false;
}

// One live parameter: typed values apply once, checked against the range (the worker checks
// again, as for lessons); /2 and x2 explore stiffnesses an octave at a time, one edit each.
template <class Send>
void tunable_row(UiState& ui, const Tunable& t, Send&& set) {
  ImGui::PushID(t.name.c_str());
  if (!t.choices.empty()) {  // a named choice: a combo, its index sent as the value
    const int chosen = std::clamp(int(std::lround(t.value)), 0, int(t.choices.size()) - 1);
    ImGui::SetNextItemWidth(field_width());
    if (ImGui::BeginCombo("##choice", t.choices[chosen].c_str())) {
      for (int k = 0; k < int(t.choices.size()); ++k)
        if (ImGui::Selectable(t.choices[k].c_str(), k == chosen) && k != chosen) set(double(k));
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.description.c_str());
    same_line_if_fits(ImGui::CalcTextSize(t.name.c_str()).x);
    ImGui::TextUnformatted(t.name.c_str());
    ImGui::PopID();
    return;
  }
  ImGui::SetNextItemWidth(field_width());
  double value = 0;
  if (number_field("##value", t.value, t.low, t.high, ui.field_edits, value, ui.notice)) set(value);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s\nrange %.6g to %.6g", t.description.c_str(), t.low, t.high);
  for (const double factor : {0.5, 2.0}) {
    ImGui::SameLine();
    const double scaled = t.value * factor;
    if (ImGui::SmallButton(factor < 1 ? "/2" : "x2") && scaled >= t.low && scaled <= t.high)
      set(scaled);
  }
  same_line_if_fits(ImGui::CalcTextSize(t.name.c_str()).x);
  ImGui::TextUnformatted(t.name.c_str());
  ImGui::PopID();
}

}  // namespace

void draw_parameters_panel(UiState& ui, const Snapshot& s, const SendCommand& send) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("live: applied on Enter, the energy it adds is booked as work");
  ImGui::PopTextWrapPos();
  for (size_t m = 0; m < s.models.size(); ++m) {
    const ModelTunables& model = s.models[m];
    if (model.tunables.empty() || model.kind == "mouse-spring") continue;
    ImGui::PushID(int(m));
    if (ImGui::TreeNodeEx(model.kind.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
      for (const Tunable& t : model.tunables)
        tunable_row(ui, t, [&](double v) { send(cmd::SetTunable{int(m), t.name, v}); });
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  // The scene's materials: each pair of them mixes these (the contact model's own values are for
  // bodies of no material).
  for (size_t m = 0; m < s.materials.size(); ++m) {
    const ModelTunables& material = s.materials[m];
    ImGui::PushID(int(1000 + m));
    const std::string label = "material " + material.kind;
    if (ImGui::TreeNodeEx(label.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
      for (const Tunable& t : material.tunables)
        tunable_row(ui, t, [&](double v) { send(cmd::SetMaterial{int(m) + 1, t.name, v}); });
      ImGui::TreePop();
    }
    ImGui::PopID();
  }

  static SceneEdits edits;
  if (!s.builtin.empty()) {
    if (edits.source != s.source + "#" + std::to_string(s.scene_generation)) {
      edits.source = s.source + "#" + std::to_string(s.scene_generation);
      const ParamValues& values = s.scene_parameters.values();
      edits.values = {values.begin(), values.end()};
    }
    ImGui::Separator();
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("scene '%s' (applied by rebuilding)", s.builtin.c_str());
    ImGui::PopTextWrapPos();
    for (auto& [name, value] : edits.values) edit_value(name, value);
    if (ImGui::Button("Rebuild with these")) send(cmd::LoadScene{s.builtin, edits.values});
    ImGui::SameLine();
    if (ImGui::Button("Defaults")) send(cmd::LoadScene{s.builtin, {}});
  }
}

}  // namespace stepwise
