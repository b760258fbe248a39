// The command line: its subcommands and options, parsed and dispatched. Without arguments it
// opens the window on the default scene; the subcommands run headless.
#include "app/command_line.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <new>

#include "app/cli_docs.hpp"
#include "app/cli_numbers.hpp"
#include "app/commands.hpp"
#include "app/install_paths.hpp"
#include "core/limits.hpp"
#include "core/parallel.hpp"
#include "io/atomic_file.hpp"
#ifdef STEPWISE_HAS_GUI
#include "app/gui_app.hpp"
#endif
#include <cstring>
#include <string>
#include <vector>

namespace stepwise::cli {
namespace {

constexpr double kMaxFrames = 1e9;  // gui --frames (an int; weeks of drawing)

void add_scene_options(CLI::App& cmd, SceneOptions& o, bool with_scene = true) {
  if (with_scene)
    cmd.add_option("scene", o.scene, "built-in scene name or scene .toml file")
        ->required()
        ->type_name(kSceneType);
  cmd.add_option("--integrator", o.integrator, "translational integrator (see `stepwise list`)")
      ->type_name(kIntegratorType);
  cmd.add_option("--rotation", o.rotation, "rotation scheme (see `stepwise list`)")
      ->type_name(kRotationType);
  cmd.add_option("--dt", o.dt, "time step in seconds, or 'auto'");
  cmd.add_option("--contact", o.contact,
                 "contact treatment: penalty (springs, the scene's laws) or impulse (rigid)")
      ->type_name("penalty|impulse");
  cmd.add_option("--set", o.sets,
                 "scene parameter key=value, integrator.option=value or impulse.option=value")
      ->allow_extra_args(false);
  cmd.add_option("--seed", o.seed, "random seed (Langevin noise, random placements)")
      ->transform(whole_number(0, limits::kMaxSeed));
  cmd.add_flag("--force", o.force,
               "go on even if the scene needs more memory than this machine has available");
}

}  // namespace

const char* const kSubcommands[] = {"list", "run",    "sweep",  "save",      "bench",
                                    "gui",  "record", "export", "stability", "reverse"};

int run_command_line(int argc, char** argv) {
  // `stepwise` and `stepwise SCENE [options]` open the window: the same as `stepwise gui ...`.
  std::vector<char*> args(argv, argv + argc);
  static char gui_word[] = "gui";
  bool programs_own = false;
  for (const char* name : kSubcommands) programs_own |= argc > 1 && std::strcmp(argv[1], name) == 0;
  // The program's own options stay its own; any other option is the window's (stepwise --paused).
  for (const char* option : {"-h", "--help", "--version", "--generate"})
    programs_own |= argc > 1 && std::strcmp(argv[1], option) == 0;
  if (argc == 1 || !programs_own) args.insert(args.begin() + 1, gui_word);
  argc = int(args.size());
  argv = args.data();

  CLI::App app{"stepwise - a sandbox for rigid-particle dynamics"};
  const auto steps_limit = [] { return limits::max_steps(); };
  const CLI::Validator threads = whole_number(1, kMaxTasks);
  app.require_subcommand(0, 1);

  bool verbose = false;
  auto* list =
      app.add_subcommand("list", "list scenes, integrators, rotation schemes, force models, constraint kinds");
  list->add_flag("-v,--verbose", verbose, "show parameters and update equations");

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "run a scene headless and print its energy table");
  add_scene_options(*run_cmd, run.scene);
  auto* duration = run_cmd->add_option("--duration", run.duration, "simulated seconds");
  run_cmd->add_option("--steps", run.steps, "number of steps")
      ->excludes(duration)
      ->transform(whole_number(0, steps_limit));
  run_cmd->add_option("--csv", run.csv, "write the energy series to this CSV file")
      ->type_name(kFileType);
  run_cmd->add_option("--every", run.every, "CSV row every N steps (default 1)")
      ->transform(whole_number(1, steps_limit));
  run_cmd->add_option("--state", run.state, "write the final per-body state to this CSV file")
      ->type_name(kFileType);
  run_cmd->add_option("--bonds", run.bonds, "write the final per-bond state to this CSV file")
      ->type_name(kFileType);
  run_cmd->add_flag("-q,--quiet", run.quiet, "no energy table");
  run_cmd
      ->add_option("--threads", run.threads,
                   "worker threads (default 1; output fixed for a given count)")
      ->transform(threads);
  run_cmd
      ->add_option("--vtk", run.vtk, "write a ParaView series (.vtu per frame + series.pvd) here")
      ->type_name(kDirType);
  run_cmd
      ->add_option("--save-state", run.save_state,
                   "save the final state as a scene file that continues bit for bit")
      ->type_name(kFileType);

  SweepOptions sweep;
  auto* sweep_cmd =
      app.add_subcommand("sweep", "error and observed order of convergence against dt");
  add_scene_options(*sweep_cmd, sweep.scene);
  sweep_cmd->remove_option(sweep_cmd->get_option("--dt"));
  sweep_cmd->add_option("--integrators", sweep.integrators, "comma list of integrators")
      ->type_name(kIntegratorListType);
  sweep_cmd->add_option("--rotations", sweep.rotations, "comma list of rotation schemes instead")
      ->type_name(kRotationListType);
  sweep_cmd->add_option("--dt", sweep.dts, "comma list of time steps");
  sweep_cmd->add_option("--duration", sweep.duration, "simulated seconds");

  std::string save_path;
  bool save_explicit = false;
  SceneOptions save_scene;
  auto* save_cmd =
      app.add_subcommand("save", "write a scene as a .toml file (its parameters, or every body)");
  add_scene_options(*save_cmd, save_scene);
  save_cmd->add_option("-o,--output", save_path, "file to write")->required()->type_name(kFileType);
  save_cmd->add_flag("--explicit", save_explicit,
                     "list every body and force instead of the parameters");

  SceneOptions bench_scene;
  long bench_steps = 1000;
  int bench_threads = 1;
  auto* bench_cmd =
      app.add_subcommand("bench", "time a scene: particle-steps per second, contacts at the end");
  add_scene_options(*bench_cmd, bench_scene);
  bench_cmd->add_option("--steps", bench_steps, "steps to time (default 1000)")
      ->transform(whole_number(1, steps_limit));
  bench_cmd->add_option("--threads", bench_threads, "worker threads (default 1)")
      ->transform(threads);
  long bench_from = 0;
  bench_cmd
      ->add_option("--from", bench_from,
                   "time the steps from this step on (those before run untimed; default 0)")
      ->transform(whole_number(0, steps_limit));
  std::string bench_flight = "on";
  bench_cmd
      ->add_option("--free-flight", bench_flight,
                   "take steps at which nothing touches as free flight (default on; off: step "
                   "them, for comparison)")
      ->check(CLI::IsMember({"on", "off"}));

  GuiOptions gui;
  std::string gui_size;
  gui.scene.scene.clear();
  gui.assets_dir = data_dir() + "/scenes";
  auto* gui_cmd =
      app.add_subcommand("gui", "open the window (the default): stepwise [gui] [SCENE]");
  gui_cmd->add_option("scene", gui.scene.scene, "built-in scene name or scene .toml file")
      ->type_name(kSceneType);
  add_scene_options(*gui_cmd, gui.scene, false);
  gui_cmd->add_option("--frames", gui.frames, "draw this many frames, then exit")
      ->transform(whole_number(0, kMaxFrames));
  gui_cmd->add_option("--screenshot", gui.screenshot, "with --frames: write the last frame as PNG")
      ->type_name(kFileType);
  gui_cmd
      ->add_option("--layout-report", gui.layout_report,
                   "with --frames: write each panel's rectangle and any text cut off (layout "
                   "tests; the last frame then shows every section unfolded)")
      ->type_name(kFileType);
  gui_cmd->add_option("--size", gui_size,
                      "window size WxH (default 1600x900, or the screen's work area if smaller)");
  gui_cmd->add_flag("--no-panels", gui.hide_panels, "only the 3-D view");
  gui_cmd->add_flag("--paused", gui.paused, "start paused");
  gui_cmd
      ->add_option("--output-dir", gui.output_dir,
                   "folder for screenshots, videos and saved states")
      ->type_name(kDirType);
  gui_cmd->add_flag("--record", gui.record, "start recording a video at once (F9 stops)");
  gui_cmd->add_flag("--overlay", gui.overlay,
                    "recordings carry the overlay of record --overlay (method, dt, energy error)");
  gui_cmd
      ->add_option("--lesson", gui.lesson,
                   "play a lesson: a .toml file or an installed lesson's name")
      ->type_name(kLessonType);
  gui_cmd->add_flag("--force-network", gui.force_network, "draw the contact force network");
  gui_cmd
      ->add_option("--select", gui.select,
                   "select this body: the Inspector shows it and its contacts")
      ->transform(whole_number(0, [] { return limits::max_bodies() - 1.0; }));
  gui_cmd
      ->add_option("--threads", gui.threads,
                   "threads for the physics (default 1; results fixed for a given count)")
      ->transform(threads);
  gui_cmd->add_option("--compare", gui.compare,
                      "lockstep comparison runs: integrator[@dt] or key=value (the scene with a parameter changed), ... (up to 3)");
  gui_cmd
      ->add_option("--colour-by", gui.colour_by,
                   "id, speed, angular-speed, kinetic-energy, force or material")
      ->type_name(kColourType);

  SceneOptions export_scene;
  std::string export_lammps;
  long export_steps = 1000, export_thermo = 100;
  auto* export_cmd = app.add_subcommand("export", "write a scene for another program (LAMMPS)");
  add_scene_options(*export_cmd, export_scene);
  export_cmd
      ->add_option("--lammps", export_lammps, "folder for the LAMMPS data file and input deck")
      ->required()
      ->type_name(kDirType);
  export_cmd->add_option("--steps", export_steps, "steps the deck runs (default 1000)")
      ->transform(whole_number(0, steps_limit));
  export_cmd->add_option("--thermo", export_thermo, "thermo output every N steps (default 100)")
      ->transform(whole_number(0, steps_limit));

  std::string stability_methods, stability_hs;
  auto* stability_cmd =
      app.add_subcommand("stability", "amplitude growth per step against omega*dt");
  stability_cmd->add_option("--integrators", stability_methods, "comma list (default: all)")
      ->type_name(kIntegratorListType);
  stability_cmd->add_option("--omega-dt", stability_hs, "comma list of omega*dt values");

  SceneOptions reverse_scene;
  long reverse_steps = 1000;
  auto* reverse_cmd =
      app.add_subcommand("reverse", "run N steps, flip velocities, run N back: the return error");
  add_scene_options(*reverse_cmd, reverse_scene);
  reverse_cmd->add_option("--steps", reverse_steps, "steps each way (default 1000)")
      ->transform(whole_number(1, steps_limit));

  RecordOptions record;
  record.scene.scene.clear();
  auto* record_cmd =
      app.add_subcommand("record", "render a scene or a lesson to an H.264 video, off-screen");
  record_cmd->add_option("scene", record.scene.scene, "built-in scene name or scene .toml file")
      ->type_name(kSceneType);
  add_scene_options(*record_cmd, record.scene, false);
  record_cmd->add_option("-o,--output", record.output, "video file to write (.mp4)")
      ->required()
      ->type_name(kFileType);
  record_cmd->add_option("--seconds", record.seconds,
                         "simulated seconds (default: the scene's duration)");
  record_cmd->add_option("--fps", record.fps, "frames per second of video (default 30)");
  record_cmd->add_option("--slow-motion", record.slow_motion,
                         "simulated seconds per video second (default 1)");
  record_cmd->add_option("--size", record.size, "WxH (default 1280x720)");
  record_cmd
      ->add_option("--threads", record.threads,
                   "threads for the physics (default 1; results fixed for a given count)")
      ->transform(threads);
  record_cmd->add_flag("--overlay", record.overlay,
                       "burn in integrator, dt, time and the energy-error plot");
  record_cmd
      ->add_option(
          "--lesson", record.lesson,
          "render a lesson (a .toml file or an installed lesson's name) instead of a scene")
      ->type_name(kLessonType);
  record_cmd
      ->add_option("--colour-by", record.colour_by,
                   "id, speed, angular-speed, kinetic-energy, force or material")
      ->type_name(kColourType);

  name_values(app);
  app.set_version_flag("--version", version_line(),
                       "the version and the git commit it was built from");
  std::vector<std::string> generate_args;  // hidden: the build writes the manual, completion, icons
  app.add_option("--generate", generate_args)->expected(2)->group("");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "stepwise: %s (see stepwise --help)\n", e.what());
    return 2;
  }

  // Everything a command printed must have reached standard output (a full disk, a closed pipe).
  auto flushed = [](int code) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
      std::fprintf(stderr, "stepwise: could not write to standard output (disk full or closed)\n");
      return code == 0 ? 2 : code;
    }
    return code;
  };
  try {
    return flushed([&]() -> int {
      if (!generate_args.empty())
        return generate(app, version_line(), generate_args[0], generate_args[1]), 0;
      gui.lesson = find_lesson(gui.lesson);
      record.lesson = find_lesson(record.lesson);
      if (*list) return command_list(verbose);
      if (*run_cmd) return command_run(run);
      if (*sweep_cmd) return command_sweep(sweep);
      if (*save_cmd) return command_save(save_scene, save_path, save_explicit);
      if (*stability_cmd) return command_stability(stability_methods, stability_hs);
      if (*reverse_cmd) return command_reverse(reverse_scene, reverse_steps);
      if (*export_cmd)
        return command_export(export_scene, export_lammps, export_steps, export_thermo);
      if (*bench_cmd)
        return command_bench(bench_scene, bench_steps, bench_threads, bench_flight == "on",
                             bench_from);
#ifdef STEPWISE_HAS_GUI
      if (*record_cmd) return command_record(record);
#else
      if (*record_cmd)
        throw InputError("this build has no renderer (STEPWISE_GUI=OFF); record needs it");
#endif
      if (!gui.screenshot.empty() && gui.frames <= 0)
        throw InputError("--screenshot needs --frames N (the frame to capture)");
      if (!gui.layout_report.empty() && gui.frames <= 0)
        throw InputError("--layout-report needs --frames N (the frame to measure)");
      if (!gui_size.empty()) {
        if (!parse_size(gui_size, gui.width, gui.height) || gui.width < 64 || gui.height < 64 ||
            gui.width > 8192 || gui.height > 8192)
          throw InputError("--size: expected WxH between 64x64 and 8192x8192, got '" + gui_size +
                           "'");
      }
#ifdef STEPWISE_HAS_GUI
      return command_gui(gui);
#else
      throw InputError(
          "this build has no window (configured with STEPWISE_GUI=OFF); use run, sweep, bench or "
          "save");
#endif
    }());
  } catch (const InputError& e) {
    std::fprintf(stderr, "stepwise: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "stepwise: out of memory: the scene needs more memory than this machine "
                 "has (fewer bodies, or close other programs)\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stepwise: internal error: %s\n", e.what());
    return 1;
  }
}

}  // namespace stepwise::cli
