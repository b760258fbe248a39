// Fuzz target: a scene file, loaded, built and run a few steps. Every input must end in a
// result or an InputError, never a crash, a hang or a sanitizer report.
#include "fuzz_input.hpp"
#include "io/scene_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stepwise;
  try {
    Simulation sim = make_simulation(parse_scene_toml(fuzz::text(data, size), "fuzz.toml"));
    fuzz::run_briefly(sim);
  } catch (const InputError&) {
  }
  return 0;
}
