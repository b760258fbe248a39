#pragma once
// Scene files (TOML): a built-in scene with parameter overrides, or an explicit list of bodies and
// force models (what `save` writes, so any state can be reloaded and continued). Reference: README.
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>

#include "core/scene.hpp"
#include "core/simulation.hpp"

namespace stepwise {

struct RunSpec {
  std::string label;                    // shown in the window and in output
  std::optional<std::string> builtin;   // the built-in scene it came from, if any
  std::map<std::string, ParamValue> parameters;  // that scene's overrides
  SceneSetup setup;
  double time = 0;  // start clock (saved states continue where they stopped)
  long step = 0;
  std::uint64_t seed = 1;
  // A saved run's carried state (see Simulation::save_state): continues bit for bit.
  std::optional<ParamTable> state;
};

// A built-in scene name or a path to a .toml file; `overrides` are --set key=value pairs.
RunSpec load_scene(const std::string& name_or_path,
                   const std::map<std::string, ParamValue>& overrides = {});
RunSpec load_scene_file(const std::string& path,
                        const std::map<std::string, ParamValue>& overrides = {});
RunSpec parse_scene_toml(const std::string& text, const std::string& source_name,
                         const std::map<std::string, ParamValue>& overrides = {});

// Any TOML text as a ParamTable (tables become one-element table lists); errors name file:line:col.
ParamTable parse_toml(const std::string& text, const std::string& source_name);
std::string read_text_file(const std::string& path);  // InputError if unreadable

// Applies the spec's integrator choice, options, clock and seed to a new Simulation.
Simulation make_simulation(const RunSpec& spec);
// The same with `world` in place of a copy of spec.setup.world: for a caller that needs no second
// copy and moves it in (1,000,000 spheres' World is about 270 MB).
Simulation make_simulation(const RunSpec& spec, World world);
// The same, taking what the run reads from spec: its World moves in, and its carried state (the
// cached loads alone 96 MB at 1,000,000 spheres) is left an empty table, which still says the
// run was carried. The rest of spec (label, scene, parameters, duration) stays.
Simulation take_simulation(RunSpec& spec);

// The whole current state as an explicit scene (bit-exact numbers), written as it is made: a
// saved state of 1,000,000 spheres is about 470 MB of text, held whole it doubled the memory.
void write_scene_toml(std::ostream& out, Simulation& sim, const std::string& label,
                      double duration = 10);
std::string scene_to_toml(Simulation& sim, const std::string& label, double duration = 10);
void save_scene_file(const std::string& path, Simulation& sim, const std::string& label,
                     double duration = 10);
// What a run chose for a built-in scene beyond its defaults (each unset: the scene's own).
struct BuiltinChoices {
  std::map<std::string, ParamValue> parameters;  // the scene's parameters given a value
  std::string label;                             // the run's name, where not the scene's
  std::string integrator, rotation;
  std::optional<double> dt, duration;
  std::optional<int> dimensions;
  std::optional<std::uint64_t> seed;
  ParamTable integrator_options = ParamTable("");  // written as [integrator]
};
// A documented file for a built-in scene: its name and every parameter with its description, at
// the value chosen or else its default, and the integrator, rotation, dt, duration and
// dimensions that were chosen or else those the parameters give (the scene is built only for
// what was not given).
std::string builtin_scene_toml(const std::string& name, const BuiltinChoices& chosen = {});

}  // namespace stepwise
