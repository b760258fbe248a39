#pragma once
// Trajectories for ParaView: one .vtu (VTK XML unstructured grid) per frame plus a .pvd index.
// Bodies are vertices carrying radius, orientation, velocity and angular velocity; bonds are
// lines carrying their forces and torques; boxes and polyhedra are also polyhedron cells (their
// corners as further points) and clump pebbles further vertices with their own radius, each
// cell naming its body.
#include <string>
#include <vector>

#include "core/simulation.hpp"

namespace stepwise {

class VtkSeries {
 public:
  // Creates the folder (InputError if it cannot be written).
  explicit VtkSeries(std::string folder);
  ~VtkSeries();  // rewrites the index so an interrupted run leaves a readable series
  void write_frame(Simulation& sim);
  int frames() const { return int(entries_.size()); }

 private:
  void write_index() const;
  std::string folder_;
  std::vector<std::pair<double, std::string>> entries_;  // time, file
};

}  // namespace stepwise
