// Every built-in scene and every .toml in assets/scenes, with the loaded one's teaching notes.
#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/scene.hpp"
#include "ui/ui_state.hpp"

namespace stepwise {
namespace {

const std::map<std::string, SceneInfo>& scene_infos() {
  static const std::map<std::string, SceneInfo> infos = [] {
    std::map<std::string, SceneInfo> out;
    for (const std::string& name : SceneRegistry::instance().names())
      out[name] = SceneRegistry::instance().make(name)->info();
    return out;
  }();
  return infos;
}

}  // namespace

void draw_scenes_panel(UiState& ui, const Snapshot& s, const SendCommand& send) {
  // The list scrolls in its own box so the notes and the panels below stay in reach.
  const float list_height = std::clamp(0.28f * ImGui::GetMainViewport()->WorkSize.y, 110.0f, 300.0f);
  ImGui::BeginChild("list", ImVec2(0, list_height), true);
  ImGui::TextDisabled("built in");
  for (const auto& [name, info] : scene_infos()) {
    if (ImGui::Selectable(name.c_str(), s.source == name)) send(cmd::LoadScene{name, {}});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.summary.c_str());
  }
  if (!ui.scene_files.empty()) {
    ImGui::Separator();
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("files in %s", ui.assets_dir.c_str());
    ImGui::PopTextWrapPos();
    for (const std::string& path : ui.scene_files) {
      const std::string file = std::filesystem::path(path).filename().string();
      if (ImGui::Selectable(file.c_str(), s.source == path)) send(cmd::LoadScene{path, {}});
    }
  }
  if (!ui.lesson_files.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("lessons (demos with captions)");
    for (const std::string& path : ui.lesson_files) {
      const std::string file = std::filesystem::path(path).stem().string();
      if (ImGui::Selectable(file.c_str(), s.source == path)) send(cmd::PlayLesson{path});
    }
  }
  ImGui::EndChild();
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("drop a scene or lesson .toml on the window");
  ImGui::PopTextWrapPos();
  // Teaching notes of the loaded scene (a file made from a built-in shows the built-in's notes).
  auto found = scene_infos().find(s.builtin);
  if (found != scene_infos().end()) {
    ImGui::Separator();
    ImGui::TextWrapped("%s", found->second.summary.c_str());
    if (!found->second.notes.empty()) {
      ImGui::Spacing();
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.85f, 1.0f, 1.0f));
      ImGui::TextWrapped("%s", found->second.notes.c_str());
      ImGui::PopStyleColor();
    }
  }
}

}  // namespace stepwise
