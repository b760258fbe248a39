#include "io/lesson.hpp"

#include <algorithm>
#include <cmath>

#include "core/limits.hpp"
#include "io/scene_file.hpp"

namespace stepwise {
namespace {

std::map<std::string, ParamValue> parameter_map(const ParamTable& t, const std::string& key) {
  std::map<std::string, ParamValue> out;
  for (const ParamTable& table : t.tables(key))
    for (const auto& [name, value] : table.values()) out[name] = value;
  return out;
}

LessonStep read_step(const ParamTable& t) {
  LessonStep s;
  s.where = t.where();
  s.at = limits::checked(t.where() + ": at", t.number("at"), 0, limits::kMaxDuration);
  if (t.has("load")) s.load = t.text("load", "");
  s.parameters = parameter_map(t, "parameters");
  if (t.has("integrator")) s.integrator = t.text("integrator", "");
  if (t.has("rotation")) s.rotation = t.text("rotation", "");
  if (t.has("dt")) {
    s.dt = limits::dt(t.where() + ": dt", t.number("dt"));
  }
  for (const auto& [key, value] : parameter_map(t, "set")) {
    const double* number = std::get_if<double>(&value);
    if (!number || key.find('.') == std::string::npos)
      throw InputError(t.where() + ": set." + key + " must be a number keyed 'model.parameter'");
    s.set[key] = *number;
  }
  if (t.has("caption")) s.caption = t.text("caption", "");
  // A caption is a line or two on the screen (and ImGui draws at most 64k vertices a window).
  if (s.caption && s.caption->size() > 1000)
    throw InputError(t.where() + ": caption is " + std::to_string(s.caption->size()) +
                     " characters; at most 1000");
  s.hold = t.number("hold", 0);
  if (!(s.hold >= 0) || s.hold > 60) throw InputError(t.where() + ": 'hold' must be 0..60 seconds");
  for (const ParamTable& p : t.tables("pull")) {
    LessonPull pull;
    pull.body =
        static_cast<int>(limits::checked(p.where() + ": body", p.number("body"), 0, 2e9, true));
    pull.force = p.vec3("force", Vec3::Zero());
    pull.duration =
        limits::checked(p.where() + ": duration", p.number("duration", 1), 0, limits::kMaxDuration);
    p.reject_unused();
    s.pull = pull;
  }
  t.reject_unused();
  return s;
}

}  // namespace

Lesson parse_lesson(const std::string& text, const std::string& source) {
  const ParamTable root = parse_toml(text, source);
  const auto heads = root.tables("lesson");
  if (heads.empty()) throw InputError(source + ": a lesson needs a [lesson] table (title, scene)");
  const ParamTable& head = heads.front();
  Lesson lesson;
  lesson.title = head.text("title", "");
  lesson.scene = head.text("scene", "");
  if (lesson.scene.empty()) throw InputError(head.where() + ": 'scene' is required");
  lesson.parameters = parameter_map(head, "parameters");
  lesson.duration = limits::checked(head.where() + ": duration", head.number("duration", 10), 1e-3,
                                    limits::kMaxVideoSeconds);
  lesson.fps = limits::checked(head.where() + ": fps", head.number("fps", 30), 1, limits::kMaxFps);
  lesson.slow_motion =
      limits::checked(head.where() + ": slow_motion", head.number("slow_motion", 1),
                      limits::kMinSlowMotion, limits::kMaxSlowMotion);
  if (lesson.title.size() > 200)
    throw InputError(head.where() + ": title is longer than 200 characters");
  head.reject_unused();
  for (const ParamTable& t : root.tables("step")) lesson.steps.push_back(read_step(t));
  std::stable_sort(lesson.steps.begin(), lesson.steps.end(),
                   [](const LessonStep& a, const LessonStep& b) { return a.at < b.at; });
  root.tables("lesson");
  root.reject_unused();
  return lesson;
}

Lesson load_lesson(const std::string& path) {
  return parse_lesson(read_text_file(path), path);
}

}  // namespace stepwise
