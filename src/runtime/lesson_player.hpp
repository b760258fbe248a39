#pragma once
// Plays a lesson's timeline on a Simulation: loads, method and dt switches, live parameters,
// pulls and captions, each applied when the lesson clock reaches it. Deterministic, so a lesson
// renders the same frames every time.
#include <memory>

#include "core/simulation.hpp"
#include "io/lesson.hpp"
#include "io/scene_file.hpp"

namespace stepwise {

class LessonPlayer {
 public:
  explicit LessonPlayer(Lesson lesson);
  // The lesson's scene, ready to run.
  std::unique_ptr<Simulation> start();
  // Every step applied once, in order, to a throwaway run without stepping it: the InputError
  // (file:line) of a step that could not play, before a window or a video is opened for it.
  void check() const;
  // The clock across reloads: simulated time since the lesson began.
  double clock(const Simulation& sim) const { return offset_ + sim.time(); }
  // Applies every step due by now; returns the video seconds to hold the current frame.
  double apply_due(std::unique_ptr<Simulation>& sim);
  const std::string& caption() const { return caption_; }
  const std::string& label() const { return label_; }
  const Lesson& lesson() const { return lesson_; }
  // The markers for the energy plot: what changed at each step.
  std::string last_change() const { return last_change_; }

 private:
  void apply(const LessonStep& step, std::unique_ptr<Simulation>& sim);
  Lesson lesson_;
  size_t next_ = 0;
  double offset_ = 0;
  std::string caption_, label_, last_change_;
  struct ActivePull {
    const ForceModel* model;
    double until;
  };
  std::vector<ActivePull> pulls_;
};

}  // namespace stepwise
