#include "app/gui_settings.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <cstdio>
#include <cstring>

namespace stepwise {
namespace {

PersistedSettings* settings_of(ImGuiSettingsHandler* handler) {
  return static_cast<PersistedSettings*>(handler->UserData);
}

void* open_entry(ImGuiContext*, ImGuiSettingsHandler* handler, const char* name) {
  return std::strcmp(name, "State") == 0 ? settings_of(handler) : nullptr;
}

void read_line(ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
  auto* s = static_cast<PersistedSettings*>(entry);
  UiState& ui = *s->ui;
  s->loaded = true;
  int value = 0;
  float number = 0;
  char text[1024];
  if (std::sscanf(line, "LastScene=%1023[^\n]", text) == 1) s->last_scene = text;
  else if (std::sscanf(line, "ColourBy=%d", &value) == 1 && value >= 0 && value < kColourByCount)
    ui.view.colour_by = ColourBy(value);
  else if (std::sscanf(line, "Shadows=%d", &value) == 1) ui.view.shadows = value;
  else if (std::sscanf(line, "Bonds=%d", &value) == 1) ui.view.bonds = value;
  else if (std::sscanf(line, "BondsOnTop=%d", &value) == 1) ui.view.bonds_on_top = value;
  else if (std::sscanf(line, "Walls=%d", &value) == 1) ui.view.walls = value;
  else if (std::sscanf(line, "Grid=%d", &value) == 1) ui.view.grid = value;
  else if (std::sscanf(line, "ShowScenes=%d", &value) == 1) ui.show_scenes = value;
  else if (std::sscanf(line, "ShowIntegrator=%d", &value) == 1) ui.show_integrator = value;
  else if (std::sscanf(line, "ShowParameters=%d", &value) == 1) ui.show_parameters = value;
  else if (std::sscanf(line, "ShowEnergy=%d", &value) == 1) ui.show_energy = value;
  else if (std::sscanf(line, "ShowStats=%d", &value) == 1) ui.show_stats = value;
  else if (std::sscanf(line, "ShowInspector=%d", &value) == 1) ui.show_inspector = value;
  else if (std::sscanf(line, "EnergyLog=%d", &value) == 1) ui.energy_log = value;
  else if (std::sscanf(line, "ErrorSinceSwitch=%d", &value) == 1) ui.error_since_switch = value;
  else if (std::sscanf(line, "EnergyWindow=%f", &number) == 1 && number >= 0) ui.energy_window = number;
  else if (std::sscanf(line, "SlowMotion=%f", &number) == 1 && number > 0) ui.slow_motion = number;
}

void write_all(ImGuiContext*, ImGuiSettingsHandler* handler, ImGuiTextBuffer* out) {
  const PersistedSettings& s = *settings_of(handler);
  const UiState& ui = *s.ui;
  out->appendf("[%s][State]\n", handler->TypeName);
  if (!ui.loaded_source.empty()) out->appendf("LastScene=%s\n", ui.loaded_source.c_str());
  out->appendf("ColourBy=%d\nShadows=%d\nBonds=%d\nBondsOnTop=%d\nWalls=%d\nGrid=%d\n",
               int(ui.view.colour_by), ui.view.shadows, ui.view.bonds, ui.view.bonds_on_top,
               ui.view.walls, ui.view.grid);
  out->appendf("ShowScenes=%d\nShowIntegrator=%d\nShowParameters=%d\nShowEnergy=%d\nShowStats=%d\n"
               "ShowInspector=%d\n",
               ui.show_scenes, ui.show_integrator, ui.show_parameters, ui.show_energy,
               ui.show_stats, ui.show_inspector);
  out->appendf("ErrorSinceSwitch=%d\n", ui.error_since_switch);
  out->appendf("EnergyLog=%d\nEnergyWindow=%g\nSlowMotion=%g\n\n", ui.energy_log,
               double(ui.energy_window), double(ui.slow_motion));
}

}  // namespace

void register_settings_handler(PersistedSettings& settings) {
  ImGuiSettingsHandler handler;
  handler.TypeName = "Stepwise";
  handler.TypeHash = ImHashStr("Stepwise");
  handler.ReadOpenFn = open_entry;
  handler.ReadLineFn = read_line;
  handler.WriteAllFn = write_all;
  handler.UserData = &settings;
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(handler);
}

}  // namespace stepwise
