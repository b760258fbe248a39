// ParaView series: the files parse and hold one point per body, one line per bond.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "io/scene_file.hpp"
#include "io/vtk_series.hpp"

using namespace stepwise;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The whitespace-separated values of the DataArray called `name`.
std::vector<double> data_array(const std::string& xml, const std::string& name) {
  const std::regex pattern("Name=\"" + name + "\"[^>]*>([^<]*)</DataArray>");
  std::smatch m;
  REQUIRE(std::regex_search(xml, m, pattern));
  std::istringstream values(m[1].str());
  std::vector<double> out;
  for (double v; values >> v;) out.push_back(v);
  return out;
}

}  // namespace

TEST_CASE("a VTK series holds every body as a point and every bond as a line with its forces") {
  const std::string dir = (std::filesystem::temp_directory_path() / "stepwise_vtk_test").string();
  std::filesystem::remove_all(dir);
  Simulation sim = make_simulation(load_scene("cube-chain"));
  {
    VtkSeries series(dir);
    for (int frame = 0; frame < 3; ++frame) {
      series.write_frame(sim);
      REQUIRE_FALSE(sim.advance(25));
    }
  }
  const int n = sim.world().size(), bonds = n - 1;
  const std::string pvd = slurp(dir + "/series.pvd");
  CHECK(std::count(pvd.begin(), pvd.end(), '\n') > 3);
  CHECK(pvd.find("frame_000002.vtu") != std::string::npos);
  const std::string xml = slurp(dir + "/frame_000002.vtu");
  CHECK(xml.find("NumberOfPoints=\"" + std::to_string(n) + "\"") != std::string::npos);
  CHECK(xml.find("NumberOfCells=\"" + std::to_string(n + bonds) + "\"") != std::string::npos);
  const auto points = data_array(xml, "position");
  REQUIRE(points.size() == size_t(3 * n));
  // The last frame was written after 50 steps: positions as the simulation had them then.
  CHECK(data_array(xml, "orientation").size() == size_t(4 * n));
  CHECK(data_array(xml, "angular_velocity").size() == size_t(3 * n));
  const auto offsets = data_array(xml, "offsets");
  REQUIRE(offsets.size() == size_t(n + bonds));
  CHECK(offsets.back() == n + 2 * bonds);
  const auto types = data_array(xml, "types");
  CHECK(std::count(types.begin(), types.end(), 3.0) == bonds);
  const auto twist = data_array(xml, "twist_torque");
  REQUIRE(twist.size() == size_t(n + bonds));
  double loaded = 0;
  for (int b = n; b < n + bonds; ++b) loaded += std::abs(twist[b]);
  CHECK(loaded > 0);  // the chain is being twisted: its bonds carry torque
}
