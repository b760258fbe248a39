// `stepwise save`: a built-in scene (or a loaded file) written as a scene file.
#include <cstdio>

#include "app/commands.hpp"
#include "io/atomic_file.hpp"

namespace stepwise::cli {
namespace {

// What a built-in scene's parameter form can say of the run: its parameters, integrator and its
// options, rotation, dt, duration and seed. Not a clock or carried state, a contact treatment
// chosen on the command line, nor another integrator than the scene's where the scene sets
// options for its own (a file loaded with them would keep the scene's).
bool parameter_form_holds(const SceneOptions& scene, const LoadedRun& run) {
  const RunSpec& spec = run.spec;
  if (!spec.builtin || spec.state || spec.time != 0 || spec.step != 0 || !scene.contact.empty())
    return false;
  for (const std::string& pair : scene.sets)
    if (pair.rfind("impulse.", 0) == 0) return false;
  if (scene.integrator.empty()) return true;
  const SceneSetup own = build_scene(*spec.builtin, spec.parameters);
  return own.integrator == spec.setup.integrator || own.integrator_options.values().empty();
}

}  // namespace

int command_save(const SceneOptions& scene, const std::string& path, bool explicit_bodies) {
  LoadedRun run = load_run(scene);
  if (!explicit_bodies && parameter_form_holds(scene, run)) {
    const RunSpec& spec = run.spec;
    BuiltinChoices chosen;
    chosen.parameters = spec.parameters;
    chosen.label = spec.label;
    chosen.integrator = spec.setup.integrator;
    chosen.rotation = spec.setup.rotation;
    chosen.dt = spec.setup.dt;
    chosen.duration = spec.setup.duration;
    chosen.dimensions = run.sim.world().dimensions;  // (the setup's World moved into the run)
    if (spec.seed != RunSpec().seed) chosen.seed = spec.seed;  // (the default left unwritten)
    chosen.integrator_options = spec.setup.integrator_options;
    write_file_atomically(path, builtin_scene_toml(*spec.builtin, chosen));
  } else {
    save_scene_file(path, run.sim, run.spec.label, run.spec.setup.duration);
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace stepwise::cli
