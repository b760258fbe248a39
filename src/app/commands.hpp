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
  long every = 1;
  bool quiet = false;
  long table_rows = 20;  // energy table lines printed to stdout
};

struct SweepOptions {
  SceneOptions scene;
  std::string integrators, rotations, dts;
  std::optional<double> duration;
};

int command_list(bool verbose);
int command_run(const RunOptions& options);
int command_sweep(const SweepOptions& options);
int command_bench(const SceneOptions& scene, long steps, int threads);
int command_save(const SceneOptions& scene, const std::string& path, bool explicit_bodies);

}  // namespace stepwise::cli
