// Scene files: every built-in scene is expressible as a file, files round-trip bit-exactly, and
// bad files give one message naming the file and place.
#include <doctest/doctest.h>

#include <filesystem>

#include "io/scene_file.hpp"

using namespace stepwise;

namespace {

void check_same_world(const World& a, const World& b) {
  REQUIRE(a.size() == b.size());
  CHECK(a.x == b.x);
  CHECK(a.v == b.v);
  CHECK(a.L == b.L);
  CHECK(a.mass == b.mass);
  CHECK(a.inertia == b.inertia);
  for (int i = 0; i < a.size(); ++i) CHECK(a.q[i].coeffs() == b.q[i].coeffs());
  CHECK(a.forces.size() == b.forces.size());
}

}  // namespace

TEST_CASE("every built-in scene round-trips through an explicit scene file bit for bit") {
  for (const std::string& name : SceneRegistry::instance().names()) {
    INFO(name);
    RunSpec spec = load_scene(name);
    // Methods without carried state (half-step velocities are issue 7's to save).
    spec.setup.integrator = "velocity-verlet";
    spec.setup.rotation = "buss2";
    spec.setup.integrator_options = ParamTable();
    Simulation original = make_simulation(spec);
    REQUIRE_FALSE(original.advance(20));
    const std::string text = scene_to_toml(original, name);
    RunSpec reloaded_spec = parse_scene_toml(text, name + ".toml");
    Simulation reloaded = make_simulation(reloaded_spec);
    check_same_world(original.world(), reloaded.world());
    CHECK(reloaded.time() == original.time());
    CHECK(reloaded.step_count() == original.step_count());
    // Continuing both gives the same trajectory, where nothing but the saved state decides it.
    // Not yet for bodies held by dashpots or friction: Verlet's cached end-of-step forces were
    // taken at the half-step velocity, and contact history is not in the file. Carrying both is
    // issue 7's work.
    if (name == "cantilever" || original.energy().contacts > 0) continue;
    REQUIRE_FALSE(original.advance(30));
    REQUIRE_FALSE(reloaded.advance(30));
    check_same_world(original.world(), reloaded.world());
  }
}

TEST_CASE("the shipped assets/scenes files build the built-in scenes") {
  for (const std::string& name : SceneRegistry::instance().names()) {
    const std::string path = std::string(STEPWISE_SOURCE_DIR) + "/assets/scenes/" + name + ".toml";
    INFO(path);
    REQUIRE(std::filesystem::exists(path));
    RunSpec from_file = load_scene_file(path);
    RunSpec builtin = load_scene(name);
    check_same_world(from_file.setup.world, builtin.setup.world);
    CHECK(from_file.setup.dt == builtin.setup.dt);
    CHECK(from_file.setup.integrator == builtin.setup.integrator);
  }
}

TEST_CASE("scene file errors name the file, line and column") {
  const std::string path = std::string(STEPWISE_SOURCE_DIR) + "/tests/data/malformed.toml";
  try {
    load_scene_file(path);
    FAIL("no error");
  } catch (const InputError& e) {
    const std::string message = e.what();
    CHECK(message.find("malformed.toml:4:") != std::string::npos);
  }
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[body]]\nmass = 1\ncolour = 3\n", "b.toml"),
                       doctest::Contains("unknown key 'colour'"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[body]]\nmass = -1\n", "b.toml"),
                       doctest::Contains("mass must be positive"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[scene]\nbuiltin = \"kepler\"\n[parameters]\nq = 1\n", "k.toml"),
                       doctest::Contains("no parameter 'q'"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[[body]]\n[[force]]\nmodel = \"spring\"\n[[force.link]]\na = 0\nb = 4\n", "s.toml"),
      doctest::Contains("do not exist"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[force]]\nmodel = \"warp\"\n", "w.toml"),
                       doctest::Contains("unknown force model 'warp'"), InputError);
}

TEST_CASE("a clump in a scene file gets integrated mass properties and round-trips exactly") {
  const std::string text =
      "[scene]\nintegrator = \"velocity-verlet\"\nrotation = \"rk4\"\ndt = 0.01\n"
      "[[body]]\nshape = \"clump\"\nmass = 2.0\nspheres = [0, 0, 0, 0.5, 0.6, 0, 0, 0.5, 0, 0.7, 0, 0.3]\n"
      "angular_velocity = [0.3, 1.0, 0.2]\n";
  RunSpec spec = parse_scene_toml(text, "clump.toml");
  Simulation sim = make_simulation(spec);
  const World& w = sim.world();
  REQUIRE(w.shape[0] == Shape::Clump);
  CHECK(w.clump[0].size() == 3);
  CHECK(w.inertia(0, 0) < w.inertia(1, 0));  // principal moments, ascending
  CHECK(w.inertia(1, 0) < w.inertia(2, 0));
  REQUIRE_FALSE(sim.advance(100));
  RunSpec again = parse_scene_toml(scene_to_toml(sim, "clump"), "saved.toml");
  Simulation reloaded = make_simulation(again);
  check_same_world(sim.world(), reloaded.world());
  CHECK(reloaded.world().clump[0][2].centre == sim.world().clump[0][2].centre);
}
