#pragma once
// Lesson scripts: a TOML timeline of actions and captions at simulated times, played by the
// window and rendered by `stepwise record --lesson`. Reference: README, "Lessons".
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "core/types.hpp"

namespace stepwise {

struct LessonPull {
  int body = 0;
  Vec3 force = Vec3::Zero();
  double duration = 1;  // simulated seconds
};

struct LessonStep {
  std::string where;  // "file:line [[step]]", for messages found only when the step plays
  double at = 0;      // simulated time at which the step applies
  std::optional<std::string> load;               // scene (restarts the clock at 0 and the ledger)
  std::map<std::string, ParamValue> parameters;  // with `load`: scene parameters
  std::optional<std::string> integrator, rotation;
  std::optional<double> dt;
  std::map<std::string, double> set;   // "model.parameter" = value (live, e.g. "bond-finite.kt")
  std::optional<std::string> caption;  // shown until the next caption ("" clears)
  double hold = 0;  // video seconds the frame is held (a pause for the class to look)
  std::optional<LessonPull> pull;
};

struct Lesson {
  std::string title;
  std::string scene;
  std::map<std::string, ParamValue> parameters;
  double duration = 10;  // simulated seconds
  double fps = 30;
  double slow_motion = 1;
  std::vector<LessonStep> steps;  // sorted by `at`
};

Lesson parse_lesson(const std::string& text, const std::string& source);
Lesson load_lesson(const std::string& path);

}  // namespace stepwise
