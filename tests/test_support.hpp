#pragma once
// Small helpers shared by the physics tests.
#include <map>
#include <string>

#include "core/scene.hpp"
#include "core/simulation.hpp"

namespace stepwise::test {

// A wall at z = 0 facing up, as a contact model's [[force.wall]] table.
inline ParamTable floor_wall() {
  ParamTable wall;
  wall.set("point", std::vector<double>{0, 0, 0});
  wall.set("normal", std::vector<double>{0, 0, 1});
  return wall;
}

inline Simulation scene_simulation(const std::string& scene, const std::string& integrator, double dt,
                                   const std::map<std::string, ParamValue>& params = {},
                                   const std::string& rotation = "buss2") {
  SceneSetup setup = build_scene(scene, params);
  return Simulation(setup.world, dt, integrator, rotation);
}

}  // namespace stepwise::test
