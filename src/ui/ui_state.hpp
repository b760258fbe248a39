#pragma once
// What the panels share: which windows are open, view settings, the energy history, figures of
// the last frame. Panels never touch a World; they read the snapshot and send commands.
#include <functional>
#include <string>
#include <vector>

#include "render/scene_renderer.hpp"
#include "runtime/commands.hpp"
#include "runtime/snapshot.hpp"
#include "ui/compare_state.hpp"
#include "ui/energy_history.hpp"
#include "ui/layout.hpp"
#include "ui/number_field.hpp"

namespace stepwise {

using SendCommand = std::function<void(Command)>;

struct UiState {
  // Windows (persisted).
  bool show_scenes = true, show_integrator = true, show_parameters = true, show_energy = true,
       show_stats = true, show_inspector = true, show_help = false, show_bonds = true;
  bool hide_panels = false;  // Tab (or --no-panels): the 3-D view alone, every panel hidden

  // Where panels and the 3-D view go this frame (from the window's size), and what was drawn
  // where (for --layout-report). expand_all unfolds every section (the layout test's second look).
  Layout layout;
  float run_bar_height = 56;
  LayoutReport layout_report;
  bool expand_all = false;
  int inspector_seen_selection = -2;  // the Inspector unfolds when the selection changes
  size_t compare_runs_seen = 0;       // Compare unfolds when a comparison run appears

  ViewOptions view;
  bool follow_selection = false;
  bool request_camera_reset = true;

  // Energy plot.
  bool energy_log = false;
  float energy_window = 0;  // simulated seconds shown; 0 = everything kept
  bool plot_energies = true, plot_error = true;
  bool error_since_switch = true;  // re-based at each switch: compares methods run one after another
  EnergyHistory history;

  // Run controls mirrored from the last snapshot so widgets can be edited before it changes.
  int pacing = 0;  // 0 real time, 1 fastest
  float slow_motion = 1;
  double drag_stiffness = 0;  // 0: chosen from the picked body's mass (about 2 Hz)
  double drag_damping = 1;    // the pull's damping ratio (1: critical)
  FieldEdits field_edits;
  CompareState compare;  // the Compare panel's choices between frames     // numbers being typed into live fields (applied on Enter)

  // Scene sources.
  std::string assets_dir;
  std::vector<std::string> scene_files;
  std::string lessons_dir;
  std::vector<std::string> lesson_files;
  std::string loaded_source;

  // Figures of the last frame.
  double fps = 0, frame_ms = 0;
  RenderStats render;
  int msaa_samples = 0;
  std::string gl_version;
  std::string notice;  // last user-visible message (screenshot written, file reloaded, ...)

  // Share: what the Record panel asks the app to do this frame (the app owns GL and files).
  std::string output_dir = "stepwise-output";
  bool show_record = true, show_compare = true;
  bool request_screenshot = false, screenshot_with_panels = false;
  bool request_record_toggle = false;
  bool request_csv = false, request_vtk = false;
  float record_fps = 30;
  bool record_overlay = false;  // the window's videos carry record --overlay's caption and plot
  bool recording = false;
  std::string recording_path;
  double recording_started_sim = 0;
  long recorded_frames = 0;
};

// The run bar along the top, then the two columns of folding sections (ui/columns.cpp).
void draw_run_bar(UiState& ui, const Snapshot& s, const SendCommand& send);
void draw_left_column(UiState& ui, const Snapshot& s, const SendCommand& send);
void draw_right_column(UiState& ui, const Snapshot& s, const SendCommand& send);
bool left_column_shown(const UiState& ui);
bool right_column_shown(const UiState& ui);
// One function per section's content (one file each).
void draw_scenes_panel(UiState& ui, const Snapshot& s, const SendCommand& send);
void draw_integrator_panel(UiState& ui, const Snapshot& s, const SendCommand& send);
void draw_parameters_panel(UiState& ui, const Snapshot& s, const SendCommand& send);
void draw_energy_panel(UiState& ui, const Snapshot& s);
void draw_stats_panel(UiState& ui, const Snapshot& s);
void draw_inspector_panel(UiState& ui, const Snapshot& s);
void draw_bonds_panel(UiState& ui, const Snapshot& s);
void draw_help_overlay(UiState& ui);
void draw_record_panel(UiState& ui, const Snapshot& s, const SendCommand& send);
void draw_compare_panel(UiState& ui, const Snapshot& s, const SendCommand& send);
void draw_caption(const std::string& caption, const Rect& area);  // a lesson's caption
void draw_colour_legend(const UiState& ui, const ColourScale& scale, const Snapshot& s);
// Burned into recordings with --overlay (and the window's recordings when asked).
void draw_recording_overlay(const Snapshot& s, const EnergyHistory& history,
                            const std::string& caption = {});

}  // namespace stepwise
