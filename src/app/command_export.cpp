// `stepwise export SCENE --lammps DIR`: the scene as a LAMMPS data file and input deck.
#include <cstdio>

#include "app/commands.hpp"
#include "io/lammps_export.hpp"

namespace stepwise::cli {

int command_export(const SceneOptions& scene, const std::string& lammps_dir, long steps,
                   long thermo_every) {
  if (lammps_dir.empty()) throw InputError("export: --lammps DIR is required");
  if (steps < 0) throw InputError("--steps must be >= 0");
  LoadedRun run = load_run(scene);
  const LammpsExport out = export_lammps(run.sim, lammps_dir, steps, thermo_every);
  std::printf("wrote %s and %s (run with: cd %s && lmp -in in.scene)\n", out.data_file.c_str(),
              out.input_file.c_str(), lammps_dir.c_str());
  return 0;
}

}  // namespace stepwise::cli
