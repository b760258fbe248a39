#pragma once
// The scale-out path: a scene as a LAMMPS data file plus input deck (granular pair style, walls,
// gravity, Velocity Verlet), so it can continue at full scale under LAMMPS with MPI.
#include <string>

#include "core/simulation.hpp"

namespace stepwise {

struct LammpsExport {
  std::string data_file, input_file;  // paths written
};

// Writes DIR/scene.data and DIR/in.scene; `steps` is what the deck runs. Throws InputError for
// what LAMMPS' granular styles cannot express (boxes, bonds, other force models, slanted walls).
LammpsExport export_lammps(Simulation& sim, const std::string& folder, long steps,
                           long thermo_every);

}  // namespace stepwise
