#pragma once
// The app's own section of ImGui's ini file: last scene, view options, open windows, pacing.
#include <string>

#include "ui/ui_state.hpp"

namespace stepwise {

struct PersistedSettings {
  UiState* ui = nullptr;
  std::string last_scene;
  bool loaded = false;  // the ini had our section
};

// Registers the handler; call before the first ImGui::NewFrame().
void register_settings_handler(PersistedSettings& settings);

}  // namespace stepwise
