// Fuzz target: a lesson script, parsed, its scene loaded with the lesson's parameters and the
// steps' scenes and parameters applied in turn (as the window and `record --lesson` do).
#include "fuzz_input.hpp"
#include "io/lesson.hpp"
#include "io/scene_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace stepwise;
  try {
    const Lesson lesson = parse_lesson(fuzz::text(data, size), "lesson.toml");
    if (SceneRegistry::instance().contains(lesson.scene)) {
      Simulation sim = make_simulation(load_scene(lesson.scene, lesson.parameters));
      fuzz::run_briefly(sim);
    }
    for (const LessonStep& step : lesson.steps) {
      if (!step.load || !SceneRegistry::instance().contains(*step.load)) continue;
      Simulation sim = make_simulation(load_scene(*step.load, step.parameters));
      fuzz::run_briefly(sim);
    }
  } catch (const InputError&) {
  }
  return 0;
}
