#include "ui/number_field.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace stepwise {

bool number_field(const char* label, double current, double low, double high, FieldEdits& edits,
                  double& out, std::string& message) {
  const unsigned id = ImGui::GetID(label);
  const auto typed = edits.typed.find(id);
  double value = typed != edits.typed.end() ? typed->second : current;
  ImGui::InputDouble(label, &value, 0, 0, "%.6g");
  // While the field is active ImGui parses every keystroke into `value`: keep it, send nothing.
  if (ImGui::IsItemActive()) edits.typed[id] = value;
  if (!ImGui::IsItemDeactivatedAfterEdit()) {
    if (!ImGui::IsItemActive()) edits.typed.erase(id);
    return false;
  }
  edits.typed.erase(id);
  if (!std::isfinite(value) || value < low || value > high) {
    char text[256];
    const char* end = std::strstr(label, "##");
    std::snprintf(text, sizeof text, "%.*s: %.6g refused, it must be from %.6g to %.6g",
                  int(end ? end - label : std::strlen(label)), label, value, low, high);
    message = text;
    return false;
  }
  out = value;
  return value != current;
}

}  // namespace stepwise
