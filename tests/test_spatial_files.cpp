// A file read in scattered order is stored in spatial order (core/spatial_order.hpp): it runs
// the same trajectories by id as the same file kept as listed, and every output (state CSV,
// saved states, VTK, LAMMPS data, messages) names bodies by their ids.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <unistd.h>

#include "core/spatial_order.hpp"
#include "io/csv.hpp"
#include "io/lammps_export.hpp"
#include "io/scene_file.hpp"
#include "io/vtk_series.hpp"

using namespace stepwise;

namespace {

constexpr int kSide = 16, kLayers = 17;  // 4,352 spheres
static_assert(kSide * kSide * kLayers >= kSpatialOrderMinBodies, "enough bodies to be ordered");

// A lattice of spheres with random small offsets and velocities, listed in a shuffled order,
// falling into a box (gravity, Hooke contacts with friction, six walls). `extra` goes into
// [scene]; `force` is a further [[force]] table's text.
std::string scattered_scene(const std::string& extra = "", const std::string& force = "") {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> jitter(-0.02, 0.02), speed(-0.6, 0.6);
  std::vector<std::string> bodies;
  for (int k = 0; k < kLayers; ++k)
    for (int j = 0; j < kSide; ++j)
      for (int i = 0; i < kSide; ++i) {
        std::ostringstream b;
        b.precision(17);
        b << "\n[[body]]\nmass = 0.5\nradius = 0.5\nposition = [" << 0.6 + 1.04 * i + jitter(random)
          << ", " << 0.6 + 1.04 * j + jitter(random) << ", " << 0.6 + 1.04 * k + jitter(random)
          << "]\nvelocity = [" << speed(random) << ", " << speed(random) << ", " << speed(random)
          << "]\nangular_velocity = [" << speed(random) << ", 0.0, " << speed(random) << "]\n";
        bodies.push_back(b.str());
      }
  std::shuffle(bodies.begin(), bodies.end(), random);
  std::string text = "[scene]\ndt = 0.0005\n" + extra + "\n";
  for (const std::string& b : bodies) text += b;
  text += "\n[[force]]\nmodel = \"gravity\"\ng = [0.0, 0.0, -1.0]\n";
  text +=
      "\n[[force]]\nmodel = \"hooke\"\nkn = 2000.0\nkt = 571.0\ngamma_n = 50.0\n"
      "gamma_t = 25.0\nmu = 0.5\nskin = 0.2\n";
  const double box = 1.04 * kSide + 0.2;
  for (int w = 0; w < 5; ++w) {  // the floor and four sides
    const int axis = w == 0 ? 2 : (w - 1) % 2;
    const bool far = w > 2;
    std::ostringstream t;
    t << "\n[[force.wall]]\npoint = [" << (far && axis == 0 ? box : 0.0) << ", "
      << (far && axis == 1 ? box : 0.0) << ", 0.0]\nnormal = [" << (axis == 0 ? (far ? -1 : 1) : 0)
      << ", " << (axis == 1 ? (far ? -1 : 1) : 0) << ", " << (axis == 2 ? 1 : 0) << "]\n";
    text += t.str();
  }
  return text + force;
}

std::string state_csv(const World& world) {
  std::ostringstream out;
  write_state_csv(out, world);
  return out.str();
}

// The largest difference between two state CSVs' numbers, row by row (same ids in each row).
double csv_difference(const std::string& a, const std::string& b) {
  std::istringstream in_a(a), in_b(b);
  std::string line_a, line_b;
  double most = 0;
  std::getline(in_a, line_a), std::getline(in_b, line_b);
  while (std::getline(in_a, line_a) && std::getline(in_b, line_b)) {
    std::istringstream ra(line_a), rb(line_b);
    std::string va, vb;
    std::getline(ra, va, ','), std::getline(rb, vb, ',');
    REQUIRE(va == vb);  // the id column
    while (std::getline(ra, va, ',') && std::getline(rb, vb, ','))
      most = std::max(most, std::abs(std::stod(va) - std::stod(vb)));
  }
  return most;
}

}  // namespace

TEST_CASE("a scattered file runs in spatial order: the same trajectories by id, outputs by id") {
  RunSpec sorted_spec = parse_scene_toml(scattered_scene(), "scattered.toml");
  RunSpec kept_spec = parse_scene_toml(scattered_scene("spatial_order = false"), "kept.toml");
  REQUIRE(sorted_spec.setup.world.ids.size() == size_t(kSide * kSide * kLayers));
  REQUIRE(kept_spec.setup.world.ids.empty());
  Simulation sorted = make_simulation(sorted_spec), kept = make_simulation(kept_spec);
  // Before any step, every output that names bodies is the kept file's, to the byte.
  CHECK(state_csv(sorted.world()) == state_csv(kept.world()));
  REQUIRE_FALSE(sorted.advance(300));
  REQUIRE_FALSE(kept.advance(300));
  const EnergyReport a = sorted.energy(), b = kept.energy();
  CHECK(a.contacts == b.contacts);
  CHECK(a.contacts > 100);  // the packing's grains do touch
  CHECK(a.total == doctest::Approx(b.total).epsilon(1e-9));
  // Summed in another order, the forces differ in their last bits: round-off, not more.
  const double difference = csv_difference(state_csv(sorted.world()), state_csv(kept.world()));
  INFO("largest difference by id after 300 steps: " << difference);
  CHECK(difference < 1e-9);

  // Saved, the bodies are listed as stored with their ids; reloaded, the run goes on bit for bit.
  const std::string saved = scene_to_toml(sorted, "scattered");
  CHECK(saved.find("\n[[body]]\nid = ") != std::string::npos);
  Simulation reloaded = make_simulation(parse_scene_toml(saved, "saved.toml"));
  CHECK(reloaded.world().ids == sorted.world().ids);
  REQUIRE_FALSE(sorted.advance(100));
  REQUIRE_FALSE(reloaded.advance(100));
  CHECK(state_csv(reloaded.world()) == state_csv(sorted.world()));
  CHECK(reloaded.world().x == sorted.world().x);
}

TEST_CASE("outputs of a spatially ordered run name bodies by id: LAMMPS data, VTK, failures") {
  Simulation sorted = make_simulation(parse_scene_toml(scattered_scene(), "scattered.toml"));
  Simulation kept =
      make_simulation(parse_scene_toml(scattered_scene("spatial_order = false"), "kept.toml"));
  REQUIRE_FALSE(sorted.world().ids.empty());
  const auto folder =
      std::filesystem::temp_directory_path() / ("stepwise_spatial_" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  auto lines_of = [](const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::sort(lines.begin(), lines.end());  // (atoms may be listed in any order)
    return lines;
  };
  export_lammps(sorted, (folder / "a").string(), 10, 10);
  export_lammps(kept, (folder / "b").string(), 10, 10);
  CHECK(lines_of(folder / "a" / "scene.data") == lines_of(folder / "b" / "scene.data"));
  {
    VtkSeries vtk((folder / "vtk").string());
    vtk.write_frame(sorted);
  }
  std::ifstream frame(folder / "vtk" / "frame_000000.vtu");
  std::stringstream text;
  text << frame.rdbuf();
  const std::string vtu = text.str();
  const size_t id_at = vtu.find("Name=\"id\"");
  REQUIRE(id_at != std::string::npos);
  std::istringstream ids(vtu.substr(vtu.find('>', id_at) + 1));
  for (int i = 0; i < 20; ++i) {
    double id = -1;
    ids >> id;
    CHECK(id == sorted.world().id(i));
  }
  std::filesystem::remove_all(folder);

  // A body gone non-finite is named by its id, and found where it is stored.
  const int slot = 11, id = sorted.world().id(slot);
  REQUIRE(id != slot);
  sorted.edit([&](World& w) { w.v(0, slot) = std::numeric_limits<double>::infinity(); });
  const auto failure = sorted.advance(2);
  REQUIRE(failure);
  CHECK(failure->body == slot);
  CHECK(failure->id == id);
  CHECK(failure->message().find("first bad body: " + std::to_string(id) + ")") !=
        std::string::npos);
}

TEST_CASE(
    "spatial order: kept as listed where a model names bodies, the file asks, or it is small") {
  const std::string spring =
      "\n[[force]]\nmodel = \"spring\"\n[[force.link]]\na = 0\nb = 1\nk = 10.0\nrest = 1.0\n";
  CHECK(parse_scene_toml(scattered_scene("", spring), "spring.toml").setup.world.ids.empty());
  CHECK(parse_scene_toml(scattered_scene("spatial_order = false"), "kept.toml")
            .setup.world.ids.empty());
  CHECK_FALSE(parse_scene_toml(scattered_scene(), "s.toml").setup.world.ids.empty());
  // The packing's hooke with an exclusion names two bodies too.
  std::string excluded = scattered_scene();
  excluded.replace(excluded.find("skin = 0.2\n"), 11, "skin = 0.2\nexclude = [0, 1]\n");
  CHECK(parse_scene_toml(excluded, "x.toml").setup.world.ids.empty());
}

TEST_CASE("a saved state's ids: every body has one, each once, within the bodies") {
  Simulation sorted = make_simulation(parse_scene_toml(scattered_scene(), "scattered.toml"));
  const std::string saved = scene_to_toml(sorted, "scattered");
  auto refused = [&](const std::string& from, const std::string& to) {
    std::string text = saved;
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    try {
      parse_scene_toml(text, "bad.toml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string first = "id = " + std::to_string(sorted.world().id(0)) + "\n";
  const std::string second = "id = " + std::to_string(sorted.world().id(1)) + "\n";
  CHECK(refused(second, first).find("a second body with id") != std::string::npos);
  CHECK(refused(second, "").find("either every body gives its `id` or none does") !=
        std::string::npos);
  CHECK(refused(first, "id = 4352\n")
            .find("id: must be a whole number from 0.0 to 4351.0 (got 4352.0)") !=
        std::string::npos);
  CHECK(refused(first, "id = 1.5\n").find("bad.toml") != std::string::npos);
}

TEST_CASE("a run stored in spatial order is sorted again as its bodies move: the same run by id") {
  // 1,300 steps of the falling, colliding lattice: sorted when read, again at step 1,000.
  RunSpec sorted_spec = parse_scene_toml(scattered_scene(), "scattered.toml");
  Simulation sorted = make_simulation(sorted_spec);
  Simulation kept =
      make_simulation(parse_scene_toml(scattered_scene("spatial_order = false"), "kept.toml"));
  REQUIRE_FALSE(sorted.advance(1000));
  REQUIRE_FALSE(kept.advance(1000));
  const std::vector<int> before = sorted.world().ids;
  const std::string saved = scene_to_toml(sorted, "scattered");  // before the sort at 1,000
  REQUIRE_FALSE(sorted.advance(300));
  REQUIRE_FALSE(kept.advance(300));
  int moved = 0;
  for (size_t k = 0; k < before.size(); ++k) moved += sorted.world().ids[k] != before[k];
  INFO("bodies stored anew at step 1,000: " << moved);
  CHECK(moved > 100);
  const EnergyReport a = sorted.energy(), b = kept.energy();
  CHECK(a.contacts == b.contacts);
  CHECK(a.contacts > 1000);
  CHECK(a.total == doctest::Approx(b.total).epsilon(1e-9));
  CHECK(a.dissipated == doctest::Approx(b.dissipated).epsilon(1e-9));
  const double difference = csv_difference(state_csv(sorted.world()), state_csv(kept.world()));
  INFO("largest difference by id after 1,300 steps: " << difference);
  CHECK(difference < 1e-8);
  // Saved at step 1,000 and reloaded, it sorts there too and goes on bit for bit.
  Simulation reloaded = make_simulation(parse_scene_toml(saved, "saved.toml"));
  REQUIRE_FALSE(reloaded.advance(300));
  CHECK(reloaded.world().ids == sorted.world().ids);
  CHECK(reloaded.world().x == sorted.world().x);
  CHECK(reloaded.world().v == sorted.world().v);
}
