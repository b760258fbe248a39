#pragma once
// The CLI's commands. Each returns the process exit code: 0 ok, 2 bad input, 3 non-finite state.
#include <string>
#include <vector>

#include "app/cli_common.hpp"

namespace stepwise::cli {

struct RunOptions {
  SceneOptions scene;
  std::optional<double> duration;
  std::optional<long> steps;
  std::string csv, state, bonds;
  std::string vtk;         // folder for a ParaView series (every `every` steps)
  std::string save_state;  // scene file of the final state (continues bit for bit)
  long every = 1;
  bool quiet = false;
  long table_rows = 20;  // energy table lines printed to stdout
  int threads = 1;       // worker threads for the step's loops (results fixed per count)
};

struct SweepOptions {
  SceneOptions scene;
  std::string integrators, rotations, dts;
  std::optional<double> duration;
};

struct GuiOptions {
  SceneOptions scene;      // scene.scene empty: the last scene used, or the default
  int frames = 0;          // > 0: draw this many frames, then exit (tests, screenshots)
  std::string screenshot;  // PNG of the last frame (with panels) in --frames mode
  std::string layout_report;  // --frames mode: where each panel went, any text cut off
  int width = 0, height = 0;  // 0: 1600x900, shrunk to the monitor's work area (projectors)
  bool hide_panels = false;
  bool paused = false;
  std::string colour_by;       // id, speed, angular-speed, kinetic-energy, force, material
  std::string output_dir;      // screenshots, videos, saved states (default ./stepwise-output)
  bool record = false;         // start recording a video at once (finalised on exit)
  bool overlay = false;        // the window's recordings carry record --overlay's overlay
  std::string compare;         // comparison runs at start: integrator[@dt],... (lockstep ghosts)
  std::string lesson;          // play this lesson instead of a scene
  bool force_network = false;  // draw the contact force network
  int select = -1;             // a body selected from the start (the Inspector shows it)
  int threads = 1;             // threads for the physics' per-step loops
  std::string assets_dir;      // where scene files are listed from
};

struct RecordOptions {
  SceneOptions scene;  // scene.scene may be empty when a lesson names it
  std::string output;
  std::optional<double> seconds;  // simulated seconds; default: the scene's (or lesson's) duration
  double fps = 30;
  double slow_motion = 1;  // < 1 slows the video down: fps frames show slow_motion s of time
  std::string size = "1280x720";
  bool overlay = false;
  std::string lesson;
  std::string colour_by;
  int threads = 1;  // for the physics' per-step loops
};

int command_list(bool verbose);
int command_stability(const std::string& integrators, const std::string& omega_dts);
int command_reverse(const SceneOptions& scene, long steps);
int command_export(const SceneOptions& scene, const std::string& lammps_dir, long steps,
                   long thermo_every);
int command_run(const RunOptions& options);
int command_sweep(const SweepOptions& options);
int command_bench(const SceneOptions& scene, long steps, int threads, bool free_flight = true,
                  long from = 0);
int command_gui(GuiOptions options);               // only in builds with the window
int command_record(const RecordOptions& options);  // window builds only
int command_save(const SceneOptions& scene, const std::string& path, bool explicit_bodies);

}  // namespace stepwise::cli
