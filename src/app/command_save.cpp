// `stepwise save`: a built-in scene (or a loaded file) written as a scene file.
#include <cstdio>

#include "app/commands.hpp"
#include "io/atomic_file.hpp"

namespace stepwise::cli {

int command_save(const SceneOptions& scene, const std::string& path, bool explicit_bodies) {
  LoadedRun run = load_run(scene);
  if (!explicit_bodies && run.spec.builtin && scene.sets.empty() && scene.integrator.empty() &&
      scene.rotation.empty() && scene.dt.empty()) {
    write_file_atomically(path, builtin_scene_toml(*run.spec.builtin));
  } else {
    save_scene_file(path, run.sim, run.spec.label, run.spec.setup.duration);
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace stepwise::cli
