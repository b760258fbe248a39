// stepwise: a sandbox for rigid-particle dynamics. Without arguments it opens the default scene;
// the subcommands run headless.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/commands.hpp"

using namespace stepwise;
using namespace stepwise::cli;

namespace {

void add_scene_options(CLI::App& cmd, SceneOptions& o, bool with_scene = true) {
  if (with_scene) cmd.add_option("scene", o.scene, "built-in scene name or scene .toml file")->required();
  cmd.add_option("--integrator", o.integrator, "translational integrator (see `stepwise list`)");
  cmd.add_option("--rotation", o.rotation, "rotation scheme (see `stepwise list`)");
  cmd.add_option("--dt", o.dt, "time step in seconds, or 'auto'");
  cmd.add_option("--set", o.sets, "scene parameter key=value, or integrator.option=value")
      ->allow_extra_args(false);
  cmd.add_option("--seed", o.seed, "random seed (Langevin noise, random placements)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"stepwise - a sandbox for rigid-particle dynamics"};
  app.require_subcommand(0, 1);

  bool verbose = false;
  auto* list = app.add_subcommand("list", "list scenes, integrators, rotation schemes, force models");
  list->add_flag("-v,--verbose", verbose, "show parameters and update equations");

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "run a scene headless and print its energy table");
  add_scene_options(*run_cmd, run.scene);
  auto* duration = run_cmd->add_option("--duration", run.duration, "simulated seconds");
  run_cmd->add_option("--steps", run.steps, "number of steps")->excludes(duration);
  run_cmd->add_option("--csv", run.csv, "write the energy series to this CSV file");
  run_cmd->add_option("--every", run.every, "CSV row every N steps (default 1)");
  run_cmd->add_option("--state", run.state, "write the final per-body state to this CSV file");
  run_cmd->add_option("--bonds", run.bonds, "write the final per-bond state to this CSV file");
  run_cmd->add_flag("-q,--quiet", run.quiet, "no energy table");

  SweepOptions sweep;
  auto* sweep_cmd = app.add_subcommand("sweep", "error and observed order of convergence against dt");
  add_scene_options(*sweep_cmd, sweep.scene);
  sweep_cmd->remove_option(sweep_cmd->get_option("--dt"));
  sweep_cmd->add_option("--integrators", sweep.integrators, "comma list of integrators");
  sweep_cmd->add_option("--rotations", sweep.rotations, "comma list of rotation schemes instead");
  sweep_cmd->add_option("--dt", sweep.dts, "comma list of time steps");
  sweep_cmd->add_option("--duration", sweep.duration, "simulated seconds");

  std::string save_path;
  bool save_explicit = false;
  SceneOptions save_scene;
  auto* save_cmd = app.add_subcommand("save", "write a scene as a .toml file (its parameters, or every body)");
  add_scene_options(*save_cmd, save_scene);
  save_cmd->add_option("-o,--output", save_path, "file to write")->required();
  save_cmd->add_flag("--explicit", save_explicit, "list every body and force instead of the parameters");

  SceneOptions bench_scene;
  long bench_steps = 1000;
  int bench_threads = 1;
  auto* bench_cmd = app.add_subcommand("bench", "time a scene: particle-steps per second, contacts at the end");
  add_scene_options(*bench_cmd, bench_scene);
  bench_cmd->add_option("--steps", bench_steps, "steps to time (default 1000)");
  bench_cmd->add_option("--threads", bench_threads, "worker threads (default 1)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "stepwise: %s (see stepwise --help)\n", e.what());
    return 2;
  }

  try {
    if (*list) return command_list(verbose);
    if (*run_cmd) return command_run(run);
    if (*sweep_cmd) return command_sweep(sweep);
    if (*save_cmd) return command_save(save_scene, save_path, save_explicit);
    if (*bench_cmd) return command_bench(bench_scene, bench_steps, bench_threads);
    // No subcommand: the default scene, headless until the window exists.
    RunOptions fallback;
    fallback.scene.scene = "kepler";
    return command_run(fallback);
  } catch (const InputError& e) {
    std::fprintf(stderr, "stepwise: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stepwise: internal error: %s\n", e.what());
    return 1;
  }
}
