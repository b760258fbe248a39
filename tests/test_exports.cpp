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

TEST_CASE("a VTK series holds every body as a point, every bond as a line, every cube as a cell") {
  const std::string dir = (std::filesystem::temp_directory_path() / "stepwise_vtk_test").string();
  std::filesystem::remove_all(dir);
  Simulation sim = make_simulation(load_scene("cube-chain"));
  {
    VtkSeries series(dir);
    for (int frame = 0; frame < 3; ++frame) {
      series.write_frame(sim);
      if (frame < 2) REQUIRE_FALSE(sim.advance(25));
    }
  }
  const int n = sim.world().size(), bonds = n - 1;
  const std::string pvd = slurp(dir + "/series.pvd");
  CHECK(std::count(pvd.begin(), pvd.end(), '\n') > 3);
  CHECK(pvd.find("frame_000002.vtu") != std::string::npos);
  const std::string xml = slurp(dir + "/frame_000002.vtu");
  // Each cube: its centre, and a polyhedron cell of its eight corners.
  CHECK(xml.find("NumberOfPoints=\"" + std::to_string(9 * n) + "\"") != std::string::npos);
  CHECK(xml.find("NumberOfCells=\"" + std::to_string(2 * n + bonds) + "\"") != std::string::npos);
  const auto points = data_array(xml, "position");
  REQUIRE(points.size() == size_t(27 * n));
  CHECK(data_array(xml, "orientation").size() == size_t(36 * n));
  CHECK(data_array(xml, "angular_velocity").size() == size_t(27 * n));
  const auto offsets = data_array(xml, "offsets");
  REQUIRE(offsets.size() == size_t(2 * n + bonds));
  CHECK(offsets.back() == n + 2 * bonds + 8 * n);
  const auto types = data_array(xml, "types");
  CHECK(std::count(types.begin(), types.end(), 3.0) == bonds);
  CHECK(std::count(types.begin(), types.end(), 42.0) == n);
  // Corners of the last cube, in the world: half a side from its centre along each body axis.
  const World& world = sim.world();
  const Mat3 R = world.q[n - 1].toRotationMatrix();
  for (int k = 0; k < 8; ++k) {
    const int p = n + 8 * (n - 1) + k;
    const Vec3 local = R.transpose() * (Vec3(points[3 * p], points[3 * p + 1], points[3 * p + 2]) -
                                        world.x.col(n - 1));
    CHECK(local.cwiseAbs().isApprox(Vec3::Constant(0.5), 1e-12));
  }
  const auto faces = data_array(xml, "faces"), face_offsets = data_array(xml, "faceoffsets");
  REQUIRE(face_offsets.size() == size_t(2 * n + bonds));
  CHECK(faces.size() == size_t(n * (1 + 6 * 5)));  // 6 faces of 4 corners, with counts
  CHECK(face_offsets.back() == double(faces.size()));
  const auto twist = data_array(xml, "twist_torque");
  REQUIRE(twist.size() == size_t(2 * n + bonds));
  double loaded = 0;
  for (int b = n; b < n + bonds; ++b) loaded += std::abs(twist[b]);
  CHECK(loaded > 0);  // the chain is being twisted: its bonds carry torque
}

TEST_CASE("a VTK frame draws a clump's pebbles and an octahedron's faces") {
  const std::string dir = (std::filesystem::temp_directory_path() / "stepwise_vtk_shapes").string();
  std::filesystem::remove_all(dir);
  World world;
  world.add_body(clump_body({{Vec3(-0.3, 0, 0), 0.1}, {Vec3(0.3, 0, 0), 0.2}}, 1.0, Vec3(0, 0, 1)));
  world.add_body(shaped_body(polyhedron_shape({Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0),
                                               Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)}),
                             1.0, Vec3(5, 0, 0)));
  Simulation sim(world, 1e-3);
  {
    VtkSeries series(dir);
    series.write_frame(sim);
  }
  const std::string xml = slurp(dir + "/frame_000000.vtu");
  // Two centres, two pebbles, six corners; cells: two centres, two pebbles, one polyhedron.
  CHECK(xml.find("NumberOfPoints=\"10\" NumberOfCells=\"5\"") != std::string::npos);
  const auto types = data_array(xml, "types"), body = data_array(xml, "body");
  CHECK(types == std::vector<double>{1, 1, 1, 1, 42});
  CHECK(body == std::vector<double>{0, 1, 0, 0, 1});
  const auto radius = data_array(xml, "radius");
  REQUIRE(radius.size() == 10);
  CHECK(radius[2] + radius[3] == doctest::Approx(0.3));  // the pebbles' own radii
  const auto faces = data_array(xml, "faces");
  REQUIRE(faces.size() == 1 + 8 * 4);  // eight triangles
  CHECK(faces[0] == 8);
  for (int f = 0; f < 8; ++f) CHECK(faces[1 + 4 * f] == 3);
}
