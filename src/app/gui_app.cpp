#include "app/gui_app.hpp"

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "app/gui_gl_window.hpp"
#include "app/gui_window.hpp"
#include "io/atomic_file.hpp"
#include "io/lesson.hpp"
#include "io/png.hpp"
#include "runtime/lesson_player.hpp"

namespace stepwise::cli {
namespace {

GuiWindow* g_window = nullptr;  // for GLFW's C callbacks

std::string config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path base =
      xdg && *xdg ? xdg : (home ? std::filesystem::path(home) / ".config" : ".");
  std::error_code ec;
  std::filesystem::create_directories(base / "stepwise", ec);
  return (base / "stepwise").string();
}

long long file_stamp(const std::string& path) {
  std::error_code ec;
  const auto time = std::filesystem::last_write_time(path, ec);
  return ec ? 0 : static_cast<long long>(time.time_since_epoch().count());
}

std::vector<std::string> list_scene_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool is_lesson_file(const std::string& path) {
  try {
    return read_text_file(path).find("[lesson]") != std::string::npos;
  } catch (const InputError&) {
    return false;
  }
}

void watch_scene_file(GuiWindow& w, const Snapshot& s) {
  const auto now = std::chrono::steady_clock::now();
  if (now - w.last_watch < std::chrono::milliseconds(500)) return;
  w.last_watch = now;
  const bool is_file = !s.source.empty() && std::filesystem::is_regular_file(s.source);
  if (!is_file) return w.watched_path.clear();
  const long long stamp = file_stamp(s.source);
  if (w.watched_path != s.source) {
    w.watched_path = s.source;
    w.watched_stamp = stamp;
  } else if (stamp != w.watched_stamp) {
    w.watched_stamp = stamp;
    if (is_lesson_file(s.source))
      w.worker.send(cmd::PlayLesson{s.source});
    else
      w.worker.send(cmd::LoadScene{s.source, {}});
    w.ui.notice = "reloaded " + s.source;
  }
}

void draw_panels(GuiWindow& w, const Snapshot& s) {
  const SendCommand send = w.send();
  w.ui.layout_report.clear();
  if (!w.ui.hide_panels) {
    draw_run_bar(w.ui, s, send);
    draw_left_column(w.ui, s, send);
    draw_right_column(w.ui, s, send);
    draw_help_overlay(w.ui);
  }
  draw_caption(s.caption, w.ui.layout.view);
  draw_colour_legend(w.ui, w.renderer->colour_scale(), s);
}

// Panels and the 3-D view from the window's size: the view gets what the columns leave.
void lay_out(GuiWindow& w) {
  int width = 0, height = 0;
  glfwGetWindowSize(w.window, &width, &height);
  const bool panels = !w.ui.hide_panels;
  w.ui.layout = compute_layout(float(width), float(height), panels ? w.ui.run_bar_height : 0,
                               panels && left_column_shown(w.ui), panels && right_column_shown(w.ui));
}

// The rectangle in framebuffer pixels (HiDPI screens have more of them than window units), with
// GL's origin at the bottom.
struct PixelRect {
  int x, y, w, h;
};
PixelRect view_pixels(const Rect& r, int fb_width, int fb_height, int win_width) {
  const float scale = win_width > 0 ? float(fb_width) / float(win_width) : 1.0f;
  const int x = int(std::lround(r.x * scale)), top = int(std::lround(r.y * scale));
  const int w = std::max(1, int(std::lround(r.w * scale))), h = std::max(1, int(std::lround(r.h * scale)));
  return {x, fb_height - top - h, w, h};
}

// --layout-report: each panel's rectangle and any text cut off, as the default layout shows
// them and then with every section unfolded. One line per entry: name x y w h overflow.
void write_layout_report(const std::string& path, const LayoutReport& closed,
                         const LayoutReport& open, int width, int height) {
  AtomicFile file(path);
  file.stream() << "window 0 0 " << width << ' ' << height << " 0\n";
  for (const auto* report : {&closed, &open}) {
    file.stream() << (report == &closed ? "# as opened\n" : "# every section unfolded\n");
    for (const LayoutEntry& e : report->entries)
      file.stream() << e.name << '\t' << e.rect.x << ' ' << e.rect.y << ' ' << e.rect.w << ' '
                    << e.rect.h << ' ' << e.overflow << '\n';
  }
  file.commit();
}

// read: the scene as the check read it (null: read by the worker).
void send_initial_scene(GuiWindow& w, const SceneOptions& o,
                        const std::optional<ContactTreatment>& contact,
                        std::shared_ptr<RunSpec> read) {
  // The scene was validated by load_run already; here it is only replayed as commands.
  std::map<std::string, ParamValue> scene_sets;
  std::vector<std::pair<std::string, double>> options;
  for (const std::string& pair : o.sets) {
    const size_t eq = pair.find('=');
    const std::string key = pair.substr(0, eq);
    const ParamValue value = parse_param_value(pair.substr(eq + 1));
    if (key.rfind("integrator.", 0) == 0 && std::holds_alternative<double>(value))
      options.emplace_back(key.substr(11), std::get<double>(value));
    else if (key.rfind("impulse.", 0) != 0)  // the contact treatment's, sent below
      scene_sets[key] = value;
  }
  w.worker.send(cmd::LoadScene{o.scene, scene_sets, std::move(read)});
  if (!o.integrator.empty()) w.worker.send(cmd::SetIntegrator{o.integrator});
  if (!o.rotation.empty()) w.worker.send(cmd::SetRotation{o.rotation});
  for (const auto& [name, value] : options) w.worker.send(cmd::SetIntegratorOption{name, value});
  if (contact)
    w.worker.send(cmd::SetContact{contact->mode_name(), contact->restitution,
                                  double(contact->iterations),
                                  ContactTreatment::solver_names()[int(contact->solver)],
                                  double(contact->facets)});
}

}  // namespace

std::string save_view_screenshot(GuiWindow& w, const Snapshot& s) {
  const std::string path = output_name(w, s, ".png");
  write_png(path, {w.target->width(), w.target->height(), w.target->read_pixels()});
  return path;
}

int command_gui(GuiOptions o) {
  // Bad scene input fails here, before a window opens, with the CLI's messages and exit code 2.
  std::optional<double> initial_dt;
  std::optional<ContactTreatment> initial_contact;  // --contact or --set impulse.*, checked
  bool lists_contacts = true;                       // the scene's, for --compare contact=...
  std::shared_ptr<RunSpec> read;  // the scene as read here, handed to the worker (read once)
  if (!o.scene.scene.empty()) {
    if (o.lesson.empty()) read = std::make_shared<RunSpec>();
    LoadedRun checked = load_run(o.scene, false, read.get());
    lists_contacts = checked.sim.world().lists_contacts();
    if (!o.scene.dt.empty()) initial_dt = checked.sim.dt();
    const bool impulse_sets = std::any_of(o.scene.sets.begin(), o.scene.sets.end(), [](auto& s) {
      return s.rfind("impulse.", 0) == 0;
    });
    if (!o.scene.contact.empty() || impulse_sets) initial_contact = checked.sim.world().contact;
  }

  // A bad lesson, or a step of it that could not play, fails here with exit code 2.
  if (!o.lesson.empty()) LessonPlayer(load_lesson(o.lesson)).check();
  std::optional<ColourBy> colour;
  if (!o.colour_by.empty()) colour = colour_by_name(o.colour_by);

  for (const std::string& item : split_list(o.compare))
    if (const size_t equals = item.find('='); equals != std::string::npos) {
      try {  // a variant: the scene must take that parameter and value
        const std::string key = item.substr(0, equals);
        const ParamValue value = parse_param_value(item.substr(equals + 1));
        ContactTreatment contact;  // or the contact treatment's
        if (!contact.set_key(key, value, "variant")) load_scene(o.scene.scene, {{key, value}});
        contact.check(lists_contacts, "variant");
      } catch (const InputError& e) {
        throw InputError("--compare " + item + ": " + e.what());
      }
    } else if (!IntegratorRegistry::instance().contains(item.substr(0, item.find('@'))))
      throw InputError("--compare: " + IntegratorRegistry::instance().unknown_message(
                                           item.substr(0, item.find('@'))));
  GuiWindow w;
  g_window = &w;
  w.window = open_gl_window(o.width, o.height, true, o.frames == 0, w.ui.gl_version);
  glfwSwapInterval(o.frames > 0 ? 0 : 1);
  glfwSetDropCallback(w.window, [](GLFWwindow*, int count, const char** paths) {
    for (int i = 0; i < count; ++i) g_window->dropped.push_back(paths[i]);
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  const std::string ini = config_dir() + "/stepwise.ini";
  io.IniFilename = o.frames > 0 ? nullptr : ini.c_str();  // test renders ignore saved layouts
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 4;
  ImGui::GetStyle().FrameRounding = 3;
  // Ours first: ImGui's backend installs its own and calls this one after it.
  glfwSetKeyCallback(w.window, [](GLFWwindow*, int key, int, int action, int) {
    g_window->keys.on_key(key, action);
  });
  ImGui_ImplGlfw_InitForOpenGL(w.window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  w.settings.ui = &w.ui;
  register_settings_handler(w.settings);

  w.renderer = std::make_unique<SceneRenderer>();
  w.target = std::make_unique<FrameTarget>();
  w.ui.assets_dir = o.assets_dir;
  w.ui.scene_files = list_scene_files(o.assets_dir);
  w.ui.lessons_dir = std::filesystem::path(o.assets_dir).parent_path().string() + "/lessons";
  w.ui.lesson_files = list_scene_files(w.ui.lessons_dir);
  w.worker.set_threads(o.threads);
  w.worker.start();

  bool scene_requested = false;
  int frames_drawn = 0, timed_frames = 0;
  double timed_seconds = 0;
  auto last_frame = std::chrono::steady_clock::now();
  const auto started = last_frame;
  int exit_code = 0;
  while (!glfwWindowShouldClose(w.window)) {
    glfwPollEvents();
    for (const std::string& path : w.dropped) {
      if (is_lesson_file(path))
        w.worker.send(cmd::PlayLesson{path});
      else
        w.worker.send(cmd::LoadScene{path, {}});
    }
    w.dropped.clear();

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();  // the first one reads the ini, including the last scene
    if (!scene_requested) {
      if (o.scene.scene.empty())
        o.scene.scene = !w.settings.last_scene.empty() ? w.settings.last_scene : kDefaultGuiScene;
      if (!o.lesson.empty())
        w.worker.send(cmd::PlayLesson{o.lesson});
      else
        send_initial_scene(w, o.scene, initial_contact, std::move(read));
      if (initial_dt) w.worker.send(cmd::SetDt{*initial_dt});
      w.worker.send(cmd::SetPacing{Pacing::RealTime, w.ui.slow_motion});
      if (o.paused) w.worker.send(cmd::SetRunning{false});
      if (colour) w.ui.view.colour_by = *colour;  // the command line wins over the saved view
      if (o.force_network) w.ui.view.force_network = true;
      if (o.select >= 0) w.pending_select = o.select, w.ui.show_inspector = true;
      if (!o.output_dir.empty()) w.ui.output_dir = o.output_dir;
      if (o.hide_panels) w.ui.hide_panels = true;
      if (o.overlay) w.ui.record_overlay = true;
      if (o.record) w.ui.request_record_toggle = true;
      for (const std::string& item : split_list(o.compare)) {
        if (const size_t equals = item.find('='); equals != std::string::npos) {
          w.worker.send(cmd::AddVariant{item.substr(0, equals), parse_param_value(item.substr(equals + 1))});
          continue;
        }
        const size_t at = item.find('@');
        const double dt =
            at == std::string::npos ? 0.0 : parse_positive("--compare", item.substr(at + 1));
        const std::string rotation = o.scene.rotation.empty() ? "buss2" : o.scene.rotation;
        w.worker.send(cmd::AddComparison{item.substr(0, at), rotation, dt});
      }
      scene_requested = true;
    }

    w.worker.acquire_snapshot();
    const Snapshot& s = w.worker.snapshot();
    w.worker.take_samples(w.samples);
    w.ui.history.add(w.samples);
    if (!s.source.empty()) w.ui.loaded_source = s.source;
    if (s.scene_generation != w.seen_generation) {  // loaded or reset: old picks are stale
      w.seen_generation = s.scene_generation;
      w.ui.view.selected = -1;
      w.ui.view.highlight_bond = -1;
      if (w.pending_select >= 0 && w.pending_select < s.bodies)
        w.ui.view.selected = s.slot(w.pending_select);  // --select names an id
      w.pending_select = -1;
      if (s.source != w.camera_source) {
        w.ui.request_camera_reset = true;
        // A scene of named materials opens coloured by them (the colour key names them).
        if (!s.materials.empty() && w.ui.view.colour_by == ColourBy::Id)
          w.ui.view.colour_by = ColourBy::Material;
        if (s.materials.empty() && w.ui.view.colour_by == ColourBy::Material)
          w.ui.view.colour_by = ColourBy::Id;
      }
      w.camera_source = s.source;
    }
    lay_out(w);  // the view's shape frames the camera
    w.camera.aspect = w.ui.layout.view.w / std::max(w.ui.layout.view.h, 1.0f);
    if (w.ui.request_camera_reset) {
      w.auto_frame.reset(s, w.camera);
      w.ui.request_camera_reset = false;
    } else {
      w.auto_frame.update(s, w.camera);
    }
    // A diverged run points at the culprit.
    static std::string shown_error;
    if (s.error != shown_error) {
      shown_error = s.error;
      if (s.error_body >= 0) w.ui.view.selected = s.error_body;
    }
    if (w.ui.view.selected >= 0 && w.ui.view.selected == w.selected_slot &&
        s.id(w.ui.view.selected) != w.selected_id)  // stored anew (core/spatial_order.hpp)
      w.ui.view.selected = s.slot(w.selected_id);
    w.selected_slot = w.ui.view.selected;
    w.selected_id = s.id(w.ui.view.selected);
    if (w.ui.follow_selection && w.ui.view.selected >= 0 && w.ui.view.selected < s.bodies) {
      const Float3& p = s.position[w.ui.view.selected];
      w.camera.target = glm::vec3(p[0], p[1], p[2]);
    }
    // The network needs the contact list, the Inspector the selected body's contact points, the
    // Inspector and the phase portrait that body in full, the colouring its figure of each body.
    SnapshotDetail detail;
    detail.contacts = w.ui.view.force_network;
    detail.inspected = w.ui.show_inspector ? w.ui.view.selected : -1;
    detail.detailed = w.ui.view.selected;
    detail.figure = figure_of(w.ui.view.colour_by);
    if (detail != w.requested) w.worker.send(cmd::SetSnapshotDetail{w.requested = detail});
    handle_input(w, s);
    watch_scene_file(w, s);

    int fb_width = 0, fb_height = 0, win_width = 0, win_height = 0;
    glfwGetFramebufferSize(w.window, &fb_width, &fb_height);
    glfwGetWindowSize(w.window, &win_width, &win_height);
    const PixelRect view = view_pixels(w.ui.layout.view, fb_width, fb_height, win_width);
    w.target->resize(view.w, view.h, 4);
    w.ui.msaa_samples = w.target->samples();
    w.ui.render = w.renderer->draw(s, w.camera, w.ui.view, *w.target);
    update_share(w, s, view.w, view.h);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fb_width, fb_height);
    glClearColor(0.08f, 0.08f, 0.1f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    w.target->blit_to(0, view.x, view.y);
    glViewport(0, 0, fb_width, fb_height);
    // The layout test's last frame is drawn twice: as opened, then with every section unfolded.
    const bool measuring = o.frames > 0 && s.scene_generation > 0 && frames_drawn + 1 >= o.frames;
    if (measuring && !o.layout_report.empty()) {
      draw_panels(w, s);
      const LayoutReport as_opened = w.ui.layout_report;
      ImGui::EndFrame();
      ImGui::NewFrame();
      w.ui.expand_all = true;
      draw_panels(w, s);
      ImGui::EndFrame();
      ImGui::NewFrame();  // the unfolded sections measure their content on their first frame
      draw_panels(w, s);
      w.ui.expand_all = false;
      write_layout_report(o.layout_report, as_opened, w.ui.layout_report, win_width, win_height);
      ImGui::EndFrame();
      ImGui::NewFrame();
    }
    draw_panels(w, s);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    finish_share(w, s, fb_width, fb_height);

    const auto now = std::chrono::steady_clock::now();
    const double frame = std::chrono::duration<double>(now - last_frame).count();
    last_frame = now;
    w.ui.frame_ms = 0.9 * w.ui.frame_ms + 0.1 * frame * 1e3;
    w.ui.fps = w.ui.frame_ms > 0 ? 1e3 / w.ui.frame_ms : 0;

    if (o.frames > 0 && s.scene_generation > 0) {
      if (frames_drawn++ >= 3) timed_seconds += frame, ++timed_frames;  // skip warm-up frames
      if (frames_drawn >= o.frames) {
        if (!s.error.empty()) std::fprintf(stderr, "stepwise: %s\n", s.error.c_str());
        if (!o.screenshot.empty()) {
          write_png(o.screenshot, {fb_width, fb_height, read_framebuffer(0, fb_width, fb_height)});
          std::printf("wrote %s (%dx%d, %d frames, %.1f ms/frame, %d draw calls, %d bodies)\n",
                      o.screenshot.c_str(), fb_width, fb_height, frames_drawn,
                      timed_frames ? 1e3 * timed_seconds / timed_frames : 0.0,
                      w.ui.render.draw_calls, s.bodies);
        }
        break;
      }
    } else if (o.frames > 0 && now - started > std::chrono::seconds(60)) {
      std::fprintf(stderr, "stepwise: the scene did not load within 60 s\n");
      exit_code = 1;
      break;
    }
    glfwSwapBuffers(w.window);
  }

  stop_recording(w);  // a recording in progress is finalised, never lost
  w.worker.stop();
  if (io.IniFilename) ImGui::SaveIniSettingsToDisk(io.IniFilename);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  w.renderer.reset();  // GL objects go before the context does
  w.target.reset();
  glfwDestroyWindow(w.window);
  glfwTerminate();
  g_window = nullptr;
  return exit_code;
}

}  // namespace stepwise::cli
