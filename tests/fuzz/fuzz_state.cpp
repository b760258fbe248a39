// Fuzz target: a saved state (a scene file with [state]), loaded, run a few steps, saved again
// and reloaded: the saved-state reader and writer together.
#include "fuzz_input.hpp"
#include "io/scene_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stepwise;
  try {
    Simulation sim = make_simulation(parse_scene_toml(fuzz::text(data, size), "state.toml"));
    fuzz::run_briefly(sim);
    if (sim.world().size() <= 2000) {
      Simulation again =
          make_simulation(parse_scene_toml(scene_to_toml(sim, "again"), "again.toml"));
      fuzz::run_briefly(again);
    }
  } catch (const InputError&) {
  }
  return 0;
}
