// The window, rendered headless under Xvfb: every built-in scene draws its bodies, the panels are
// there, and the integrator panel shows a changed integrator. Checked by pixel statistics.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/scene.hpp"
#include "io/png.hpp"

using namespace stepwise;

namespace {

const std::string kBinary = STEPWISE_BINARY;

std::string output_dir() {
  const auto dir = std::filesystem::temp_directory_path() / "stepwise_gui_tests";
  std::filesystem::create_directories(dir);
  return dir.string();
}

int render(const std::string& args, const std::string& png) {
  std::filesystem::remove(png);
  const std::string command = kBinary + " gui " + args + " --screenshot " + png + " > /dev/null";
  return std::system(command.c_str());
}

struct Region {
  int x0, y0, x1, y1;
};

struct Stats {
  double mean = 0, deviation = 0;
  long saturated = 0;  // clearly coloured pixels: bodies (panels and background are grey-blue)
  long bright = 0;     // text
};

Stats stats(const Image& image, Region r) {
  Stats s;
  long n = 0;
  double sum = 0, sum2 = 0;
  for (int y = std::max(r.y0, 0); y < std::min(r.y1, image.height); ++y)
    for (int x = std::max(r.x0, 0); x < std::min(r.x1, image.width); ++x) {
      const std::uint8_t* p = &image.rgba[(size_t(y) * image.width + x) * 4];
      const int lo = std::min({p[0], p[1], p[2]}), hi = std::max({p[0], p[1], p[2]});
      const double luminance = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
      sum += luminance;
      sum2 += luminance * luminance;
      s.saturated += hi - lo > 70;
      s.bright += luminance > 170;
      ++n;
    }
  s.mean = sum / std::max(n, 1L);
  s.deviation = std::sqrt(std::max(sum2 / std::max(n, 1L) - s.mean * s.mean, 0.0));
  return s;
}

long differing_pixels(const Image& a, const Image& b, Region r) {
  long count = 0;
  for (int y = r.y0; y < r.y1; ++y)
    for (int x = r.x0; x < r.x1; ++x) {
      const size_t i = (size_t(y) * a.width + x) * 4;
      count += std::abs(a.rgba[i] - b.rgba[i]) + std::abs(a.rgba[i + 1] - b.rgba[i + 1]) > 40;
    }
  return count;
}

}  // namespace

TEST_CASE("every built-in scene renders its bodies") {
  const std::string dir = output_dir();
  for (const std::string& scene : SceneRegistry::instance().names()) {
    CAPTURE(scene);
    const std::string png = dir + "/" + scene + ".png";
    REQUIRE(render(scene + " --frames 6 --size 640x400 --no-panels", png) == 0);
    const Image image = read_png(png);
    CHECK(image.width == 640);
    CHECK(image.height == 400);
    const Stats s = stats(image, {0, 0, image.width, image.height});
    CHECK(s.deviation > 4);    // not a blank frame
    CHECK(s.saturated > 150);  // coloured bodies in view
  }
}

namespace {

// --layout-report: name x y w h overflow per line, '#' lines between the two looks.
struct Placed {
  Region r;
  float overflow = 0;
};
using Report = std::map<std::string, Placed>;

std::pair<Report, Report> read_report(const std::string& path) {
  std::ifstream in(path);
  std::pair<Report, Report> out;
  Report* into = &out.first;
  std::string line;
  int looks = 0;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0) {
      into = ++looks == 1 ? &out.first : &out.second;
      continue;
    }
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::istringstream numbers(line.substr(tab + 1));
    float x, y, w, h, overflow;
    numbers >> x >> y >> w >> h >> overflow;
    (*into)[line.substr(0, tab)] = {{int(std::lround(x)), int(std::lround(y)),
                                     int(std::lround(x + w)), int(std::lround(y + h))},
                                    overflow};
  }
  return out;
}

bool inside(const Region& a, const Region& b) {
  return a.x0 >= b.x0 && a.y0 >= b.y0 && a.x1 <= b.x1 && a.y1 <= b.y1;
}

bool overlap(const Region& a, const Region& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

}  // namespace

TEST_CASE("the panels are drawn and show the chosen integrator") {
  const std::string dir = output_dir();
  const std::string euler = dir + "/kepler_euler.png", rk4 = dir + "/kepler_rk4.png";
  const std::string report = dir + "/kepler_euler.txt";
  REQUIRE(render("kepler --integrator euler --frames 4 --size 1280x800 --layout-report " + report,
                 euler) == 0);
  REQUIRE(render("kepler --integrator rk4 --frames 4 --size 1280x800", rk4) == 0);
  const Image a = read_png(euler), b = read_png(rk4);
  REQUIRE(a.width == 1280);
  REQUIRE(b.width == 1280);
  const Region run_bar{0, 0, 1280, 50};
  CHECK(stats(a, run_bar).bright > 300);  // the run bar's text
  // The Integrator section (its combo, description and equations) shows a different method.
  const auto [opened, unfolded] = read_report(report);
  REQUIRE(opened.count("Integrator"));
  const Region section = opened.at("Integrator").r;
  const Region integrator_title{section.x0, section.y0, section.x1, std::min(section.y1, 800)};
  CHECK(stats(a, integrator_title).bright > 200);
  CHECK(differing_pixels(a, b, integrator_title) > 100);
  // Headless rendering never needs a display it cannot have: a clear error instead.
  const std::string no_display = "env -u DISPLAY -u WAYLAND_DISPLAY " + kBinary +
                                 " gui kepler --frames 1 2> " + dir + "/err.txt";
  const int code = std::system(no_display.c_str());
  CHECK(WEXITSTATUS(code) == 2);
}

// Projectors: at 1600x900, 1280x720 and 1024x768 the run bar, both columns and the 3-D view share
// the window without overlapping, the dt field shows without scrolling, and with every section
// unfolded no line of text or widget runs past its panel's edge. The screenshot agrees: the
// columns are panel-dark along their inner edge and the view between them shows the bodies.
TEST_CASE("the window fits a projector: panels inside, dt visible, nothing cut off") {
  const std::string dir = output_dir();
  const std::vector<std::string> sections = {
      "Scenes",        "Integrator", "Parameters",        "Stats",
      "Energy",        "Compare",    "Inspector",         "Record & share",
      "Lockstep runs", "Stability",  "Convergence order", "Phase space"};
  for (const auto& [width, height] :
       {std::pair{1600, 900}, std::pair{1280, 720}, std::pair{1024, 768}}) {
    for (const std::string scene : {"kepler", "cube-chain", "settle", "dice"}) {
      const std::string size = std::to_string(width) + "x" + std::to_string(height);
      CAPTURE(size);
      CAPTURE(scene);
      const std::string png = dir + "/fit_" + scene + size + ".png";
      const std::string txt = dir + "/fit_" + scene + size + ".txt";
      std::filesystem::remove(txt);
      REQUIRE(render(scene + " --select 1 --paused --frames 4 --size " + size +
                         " --layout-report " + txt,
                     png) == 0);
      const auto [opened, unfolded] = read_report(txt);
      const Region window{0, 0, width, height};
      for (const char* part : {"run bar", "controls", "analysis", "dt field"}) {
        CAPTURE(part);
        REQUIRE(opened.count(part));
        CHECK(inside(opened.at(part).r, window));
      }
      const Region bar = opened.at("run bar").r, left = opened.at("controls").r,
                   right = opened.at("analysis").r, dt = opened.at("dt field").r;
      CHECK_FALSE(overlap(left, right));
      CHECK_FALSE(overlap(bar, left));
      CHECK_FALSE(overlap(bar, right));
      CHECK(dt.x1 - dt.x0 > 40);  // not scrolled or clipped out of sight
      CHECK(dt.y1 - dt.y0 > 10);
      CHECK(inside(dt, left));
      const Region view{left.x1, bar.y1, right.x0, height};
      CHECK(view.x1 - view.x0 >= 0.35 * width);
      for (const std::string& name : sections) {
        CAPTURE(name);
        CHECK(unfolded.count(name));
      }
      if (scene == std::string("cube-chain")) CHECK(unfolded.count("Bonds"));  // the bond table
      for (const auto& entry : unfolded) {  // no structured binding: clang 14 cannot capture one
        CAPTURE(entry.first);
        CHECK(entry.second.overflow == 0);
      }
      // Pixels: dark panel background just inside each column's edge, bodies in the view.
      const Image image = read_png(png);
      REQUIRE(image.width == width);
      const Stats left_edge = stats(image, {left.x0 + 2, left.y0 + 2, left.x0 + 4, left.y1 - 2});
      const Stats right_edge =
          stats(image, {right.x0 + 2, right.y0 + 2, right.x0 + 4, right.y1 - 2});
      CHECK(left_edge.mean < 30);
      CHECK(left_edge.deviation < 6);
      CHECK(right_edge.mean < 30);
      CHECK(right_edge.deviation < 6);
      CHECK(stats(image, view).saturated > 100);
    }
  }
}

namespace {

std::string run_capture(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  pclose(pipe);
  return out;
}

}  // namespace

TEST_CASE("polyhedra are drawn, one instanced call per distinct shape") {
  const std::string png = output_dir() + "/polyhedra.png";
  std::filesystem::remove(png);
  // Three octahedra and three tetrahedra: floor, grid, shadows and one call per hull.
  const std::string out = run_capture(kBinary + " gui " + STEPWISE_SOURCE_DIR +
                                      "/tests/data/polyhedra.toml --frames 4 --size 640x400 "
                                      "--no-panels --screenshot " +
                                      png);
  CHECK(out.find("5 draw calls, 6 bodies") != std::string::npos);
  const Image image = read_png(png);
  CHECK(stats(image, {0, 0, image.width, image.height}).saturated > 400);
}

TEST_CASE("record: frame count and duration follow simulated time; bad output fails first") {
  const std::string dir = output_dir();
  const std::string video = dir + "/kepler.mp4";
  std::filesystem::remove(video);
  REQUIRE(
      std::system((kBinary + " record kepler --seconds 2 --fps 30 --size 320x240 --overlay -o " +
                   video + " > /dev/null")
                      .c_str()) == 0);
  const std::string probe = run_capture(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=nb_read_frames,width,height,pix_fmt,codec_name -of default=nw=1 " +
      video);
  CHECK(probe.find("codec_name=h264") != std::string::npos);
  CHECK(probe.find("pix_fmt=yuv420p") != std::string::npos);
  CHECK(probe.find("width=320") != std::string::npos);
  CHECK(probe.find("nb_read_frames=60") != std::string::npos);  // t = 0, 1/30, ..., 59/30
  // Slow motion: 0.5 s of simulated time spread over 2 s of video.
  REQUIRE(
      std::system((kBinary + " record kepler --seconds 0.5 --slow-motion 0.25 --size 320x240 -o " +
                   video + " > /dev/null")
                      .c_str()) == 0);
  CHECK(run_capture("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                    "stream=nb_read_frames -of default=nw=1 " +
                    video)
            .find("nb_read_frames=60") != std::string::npos);
  // Problems are reported before any simulation work, with exit code 2.
  CHECK(WEXITSTATUS(std::system(
            (kBinary + " record kepler -o /nonexistent/dir/x.mp4 2> /dev/null").c_str())) == 2);
  CHECK(WEXITSTATUS(std::system(("env PATH=/nonexistent " + kBinary + " record kepler -o " + dir +
                                 "/y.mp4 2> " + dir + "/err.txt")
                                    .c_str())) == 2);
  CHECK(run_capture("cat " + dir + "/err.txt").find("ffmpeg was not found") != std::string::npos);
}

// Frames ffprobe can decode from a video (-1 if it cannot read one).
int frames_in(const std::string& video) {
  const std::string probe = run_capture(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames "
      "-of default=nw=1 " +
      video);
  const auto at = probe.find("nb_read_frames=");
  return at == std::string::npos ? -1 : std::atoi(probe.c_str() + at + 15);
}

TEST_CASE("an --overlay video carries the overlay from its first frame") {
  const std::string dir = output_dir();
  const std::string video = dir + "/overlay.mp4", first = dir + "/overlay_first.png";
  std::filesystem::remove(first);
  REQUIRE(std::system((kBinary + " record kepler --seconds 0.2 --overlay --size 640x360 -o " +
                       video + " > /dev/null")
                          .c_str()) == 0);
  REQUIRE(std::system(("ffmpeg -v error -y -i " + video + " -vframes 1 " + first).c_str()) == 0);
  const Image image = read_png(first);
  // The text box in the top-left corner: light text on a dark box (the scene there is empty).
  CHECK(stats(image, {12, 12, 260, 70}).bright > 100);
}

TEST_CASE("the window's recording carries the overlay when asked, from its first frame") {
  const std::string dir = output_dir() + "/window_overlay";
  std::filesystem::remove_all(dir);
  REQUIRE(render("kepler --record --overlay --frames 30 --size 640x480 --output-dir " + dir,
                 output_dir() + "/window_overlay.png") == 0);
  std::string video;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".mp4") video = entry.path().string();
  REQUIRE_FALSE(video.empty());
  const std::string first = dir + "/first.png";
  REQUIRE(std::system(("ffmpeg -v error -y -i " + video + " -vframes 1 " + first).c_str()) == 0);
  const Image image = read_png(first);
  CHECK(stats(image, {12, 12, 200, 60}).bright > 100);  // the method and energy-error text box
}

TEST_CASE("record cut short by Ctrl+C exits 130 and leaves a playable video") {
  const std::string dir = output_dir();
  const std::string video = dir + "/interrupted.mp4";
  std::filesystem::remove(video);
  const std::string code =
      run_capture("bash -c '" + kBinary + " record kepler --seconds 1000 --size 320x240 -o " +
                  video + " > /dev/null 2>&1 & p=$!; sleep 4; kill -INT $p; wait $p; echo $?'");
  CHECK(code.find("130") != std::string::npos);
  CHECK(frames_in(video) > 5);
}

TEST_CASE("a lesson renders the same frames twice") {
  const std::string dir = output_dir();
  const std::string lesson =
      std::string(STEPWISE_SOURCE_DIR) + "/assets/lessons/integrators-on-an-orbit.toml";
  std::string digests[2];
  for (int k = 0; k < 2; ++k) {
    const std::string video = dir + "/lesson" + std::to_string(k) + ".mp4";
    REQUIRE(std::system((kBinary + " record --lesson " + lesson +
                         " --seconds 3 --size 320x240 -o " + video + " > /dev/null")
                            .c_str()) == 0);
    digests[k] = run_capture("ffmpeg -v error -i " + video + " -f framemd5 - | grep -v '^#'");
  }
  CHECK(digests[0].size() > 1000);
  CHECK(digests[0] == digests[1]);
}

TEST_CASE("a recording started in the window is finalised when the window closes") {
  const std::string dir = output_dir() + "/window_recording";
  std::filesystem::remove_all(dir);
  REQUIRE(std::system((kBinary + " gui kepler --frames 40 --size 640x480 --record --output-dir " +
                       dir + " > /dev/null")
                          .c_str()) == 0);
  std::string video;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".mp4") video = entry.path().string();
  REQUIRE_FALSE(video.empty());
  CHECK(frames_in(video) >= 5);
}
