// The two docked columns: controls on the left (what runs), analysis on the right (what it
// does). Each panel is a folding section; a column scrolls when its open sections are taller
// than the window, so nothing is ever laid out off-screen.
#include <imgui.h>

#include "ui/ui_state.hpp"

namespace stepwise {
namespace {

// One section: folded unless opened by default, by an event or by the layout test.
template <class Draw>
void section(UiState& ui, const char* title, bool& shown, bool open_now, bool default_open,
             Draw draw) {
  if (!begin_section(title, shown, open_now || ui.expand_all, default_open)) return;
  draw();
  end_section(title, ui.layout_report);
}

}  // namespace

bool left_column_shown(const UiState& ui) {
  return ui.show_scenes || ui.show_integrator || ui.show_parameters || ui.show_stats;
}

bool right_column_shown(const UiState& ui) {
  return ui.show_energy || ui.show_inspector || ui.show_bonds || ui.show_compare || ui.show_record;
}

void draw_left_column(UiState& ui, const Snapshot& s, const SendCommand& send) {
  if (!left_column_shown(ui) || !begin_column("##controls", ui.layout.left)) return;
  section(ui, "Scenes", ui.show_scenes, false, true, [&] { draw_scenes_panel(ui, s, send); });
  section(ui, "Integrator", ui.show_integrator, false, true,
          [&] { draw_integrator_panel(ui, s, send); });
  section(ui, "Parameters", ui.show_parameters, false, true,
          [&] { draw_parameters_panel(ui, s, send); });
  section(ui, "Stats", ui.show_stats, false, false, [&] { draw_stats_panel(ui, s); });
  end_column("controls", ui.layout_report);
}

void draw_right_column(UiState& ui, const Snapshot& s, const SendCommand& send) {
  // The Inspector unfolds when a body is picked, Compare when a comparison run starts.
  const bool picked = ui.view.selected >= 0 && ui.view.selected != ui.inspector_seen_selection;
  ui.inspector_seen_selection = ui.view.selected;
  const bool new_run = s.comparisons.size() > ui.compare_runs_seen;
  ui.compare_runs_seen = s.comparisons.size();
  if (!right_column_shown(ui) || !begin_column("##analysis", ui.layout.right)) return;
  section(ui, "Energy", ui.show_energy, false, true, [&] { draw_energy_panel(ui, s); });
  section(ui, "Inspector", ui.show_inspector, picked, false, [&] { draw_inspector_panel(ui, s); });
  if (!s.bonds.empty())
    section(ui, "Bonds", ui.show_bonds, false, false, [&] { draw_bonds_panel(ui, s); });
  section(ui, "Compare", ui.show_compare, new_run, false, [&] { draw_compare_panel(ui, s, send); });
  section(ui, "Record & share", ui.show_record, false, false,
          [&] { draw_record_panel(ui, s, send); });
  end_column("analysis", ui.layout_report);
}

}  // namespace stepwise
