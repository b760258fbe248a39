#pragma once
// Pieces shared by the CLI commands: --set parsing, loading a scene with its run options.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/simulation.hpp"
#include "io/scene_file.hpp"

namespace stepwise::cli {

// What every simulating command accepts.
struct SceneOptions {
  std::string scene = "kepler";
  std::string integrator, rotation;  // empty: the scene's choice
  std::string dt;                    // number or "auto"; empty: the scene's choice
  std::string contact;               // penalty or impulse; empty: the scene's choice
  std::vector<std::string> sets;     // key=value
  std::optional<std::uint64_t> seed;
  bool force = false;  // run even if the estimated memory exceeds what is available
};

struct LoadedRun {
  RunSpec spec;
  Simulation sim;
};

// Splits --set pairs into scene parameters, integrator options (prefix "integrator.") and the
// impulse treatment's options (prefix "impulse."). The World moves into the run, leaving
// spec.setup.world empty and spec.state (if any) an empty table, unless `keep_world` (a caller
// that runs the setup again: sweep). read: given, it gets a copy of the scene as read, before the
// command line's choices are applied (for the window's worker: cmd::LoadScene::read).
LoadedRun load_run(const SceneOptions& options, bool keep_world = false, RunSpec* read = nullptr);
double parse_positive(const std::string& flag, const std::string& text);
std::vector<std::string> split_list(const std::string& text);

}  // namespace stepwise::cli
