// `stepwise record`: renders a scene or a lesson off-screen into an H.264 video. Frames are taken
// at fixed simulated-time spacing, so the video plays at true speed whatever the machine's speed.
#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <utility>

#include "app/cli_numbers.hpp"
#include "app/commands.hpp"
#include "app/gui_gl_window.hpp"
#include "core/limits.hpp"
#include "io/video_writer.hpp"
#include "render/auto_frame.hpp"
#include "runtime/lesson_player.hpp"
#include "runtime/thread_pool.hpp"
#include "ui/ui_state.hpp"

namespace stepwise::cli {
namespace {

std::atomic<bool> g_interrupted{false};

std::pair<int, int> video_size(const std::string& text) {
  int w = 0, h = 0;
  if (!parse_size(text, w, h) || w < 64 || h < 64 || w > 7680 || h > 4320 || w % 2 || h % 2)
    throw InputError("--size: expected even WxH between 64x64 and 7680x4320, got '" + text + "'");
  return {w, h};
}

EnergySample sample_of(const EnergyReport& r, const std::string& marker) {
  EnergySample s = stepwise::sample_of(r);
  s.marker = marker;
  return s;
}

// The hidden window and ImGui (overlay only) live exactly as long as the recording.
struct OffscreenContext {
  GLFWwindow* window = nullptr;
  bool imgui = false;
  OffscreenContext(int w, int h, bool with_imgui) {
    std::string version;
    window = open_gl_window(w, h, false, false, version);
    if (with_imgui) {
      ImGui::CreateContext();
      ImGui::GetIO().IniFilename = nullptr;
      ImGui::GetIO().DisplaySize = ImVec2(float(w), float(h));
      ImGui::StyleColorsDark();
      ImGui_ImplOpenGL3_Init("#version 330 core");
      imgui = true;
    }
  }
  ~OffscreenContext() {
    if (imgui) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui::DestroyContext();
    }
    glfwDestroyWindow(window);
    glfwTerminate();
  }
};

}  // namespace

int command_record(const RecordOptions& o) {
  // Everything that can be wrong is checked before the first step.
  if (o.output.empty()) throw InputError("record: -o FILE.mp4 is required");
  if (o.scene.scene.empty() == o.lesson.empty())
    throw InputError("record: give a scene or --lesson FILE (one of them)");
  const auto [width, height] = video_size(o.size);
  const ColourBy colour = o.colour_by.empty() ? ColourBy::Id : colour_by_name(o.colour_by);
  limits::checked("--slow-motion", o.slow_motion, limits::kMinSlowMotion, limits::kMaxSlowMotion);
  limits::checked("--fps", o.fps, 1, limits::kMaxFps);
  if (o.threads < 1 || o.threads > 64) throw InputError("--threads: expected 1 to 64");
  ThreadPool pool(o.threads);  // the step's loops split over these; results fixed per count
  Parallel* parallel = o.threads > 1 ? &pool : nullptr;

  std::optional<LessonPlayer> lesson;
  std::unique_ptr<Simulation> sim;
  double seconds = 0, fps = o.fps, slow = o.slow_motion;
  std::string label;
  if (!o.lesson.empty()) {
    lesson.emplace(load_lesson(o.lesson));
    lesson->check();
    sim = lesson->start();
    seconds = o.seconds.value_or(lesson->lesson().duration);
    fps = lesson->lesson().fps;
    slow = lesson->lesson().slow_motion;
    label = lesson->label();
  } else {
    LoadedRun run = load_run(o.scene);
    seconds = o.seconds.value_or(run.spec.setup.duration);
    label = run.spec.label;
    sim = std::make_unique<Simulation>(std::move(run.sim));
  }
  limits::checked("--seconds", seconds, 1e-3, limits::kMaxVideoSeconds);
  limits::steps(seconds * slow,
                sim->dt());  // refuses a recording of more steps than a run may take
  if (sim->time() + sim->dt() == sim->time())
    throw InputError("dt " + format_double(sim->dt()) + " is below the clock's resolution at t = " +
                     format_double(sim->time()) + ": time would not advance");
  sim->set_parallel(parallel);
  VideoWriter video(o.output, width, height, fps);

  OffscreenContext context(width, height, o.overlay || lesson);
  SceneRenderer renderer;
  FrameTarget target;
  target.resize(width, height, 4);
  Camera camera;
  camera.aspect = float(width) / float(height);
  AutoFrame auto_frame;
  ViewOptions view;
  view.colour_by = colour;
  Snapshot snapshot;
  EnergyHistory history;
  std::vector<EnergySample> samples;

  g_interrupted = false;
  auto on_signal = [](int) { g_interrupted = true; };
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);

  const double spacing = slow / fps;  // simulated seconds per video frame
  // A 2 s video at 30 fps has 60 frames: t = 0, 1/30, ..., 59/30, each shown for 1/30 s.
  const long frames = std::max(1L, std::lround(seconds / spacing));
  int exit_code = 0;
  std::string marker;
  auto clock = [&] { return lesson ? lesson->clock(*sim) : sim->time(); };
  const double start = clock();
  for (long frame = 0; frame < frames && !g_interrupted; ++frame) {
    double hold = 0;
    if (lesson) {
      hold = lesson->apply_due(sim);
      sim->set_parallel(parallel);  // a lesson may have loaded a new run
      marker = lesson->last_change();
    }
    // Advance to this frame's time; every step's energy feeds the overlay plot.
    const double target_time = start + frame * spacing;
    std::optional<StepFailure> failure;
    while (clock() + 1e-9 * sim->dt() < target_time && !failure && !g_interrupted) {
      failure = sim->step();
      // At most about 256 samples a frame, however small dt is (the plot shows no more).
      const long every = std::max(1L, std::lround(spacing / sim->dt() / 256));
      if ((o.overlay || lesson) && (sim->step_count() % every == 0 || !marker.empty()))
        samples.push_back(sample_of(sim->energy(), std::exchange(marker, "")));
      if (lesson) {
        hold += lesson->apply_due(sim);
        sim->set_parallel(parallel);
        if (!lesson->last_change().empty()) marker = lesson->last_change();
      }
    }
    if (failure) {
      std::fprintf(stderr, "stepwise: %s; the video stops there\n", failure->message().c_str());
      exit_code = 3;
      break;
    }
    if (!marker.empty()) samples.push_back(sample_of(sim->energy(), std::exchange(marker, "")));
    history.add(samples);
    samples.clear();

    SnapshotDetail detail;
    detail.figure = figure_of(view.colour_by);
    fill_snapshot(*sim, snapshot, detail);
    snapshot.label = label;
    snapshot.scene_generation = 1;
    if (frame == 0)
      auto_frame.reset(snapshot, camera);
    else
      auto_frame.update(snapshot, camera);
    renderer.draw(snapshot, camera, view, target);
    if (context.imgui) {
      ImGui_ImplOpenGL3_NewFrame();
      ImGui::GetIO().DeltaTime = float(1.0 / fps);
      // ImGui sizes a new auto-fitting window on its first frame and shows it from the second:
      // the first video frame gets a pass of its own first, so it carries the overlay too.
      for (int pass = frame == 0 ? 0 : 1; pass < 2; ++pass) {
        ImGui::NewFrame();
        if (o.overlay)
          draw_recording_overlay(snapshot, history, lesson ? lesson->caption() : "");
        else if (lesson)
          draw_recording_overlay(snapshot, history, lesson->caption());
        if (pass == 0) ImGui::EndFrame();
      }
      ImGui::Render();
      target.bind_resolved();
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }
    const std::vector<std::uint8_t> pixels = target.read_pixels();
    const long copies = 1 + std::lround(hold * fps);
    for (long k = 0; k < copies; ++k) video.write(pixels);
  }
  video.finish();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::printf("wrote %s: %ld frames at %g fps (%.4g s), %dx%d, %.4g s simulated%s\n",
              o.output.c_str(), video.frames(), fps, video.frames() / fps, width, height,
              video.frames() * spacing,
              g_interrupted ? " (interrupted; the file is complete up to here)" : "");
  return g_interrupted ? 130 : exit_code;
}

}  // namespace stepwise::cli
