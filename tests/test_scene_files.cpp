// Scene files: every built-in scene is expressible as a file, files round-trip bit-exactly, and
// bad files give one message naming the file and place.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include "io/lesson.hpp"
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

// Two spheres pressed together on a floor, the upper one sliding along x at `slide`.
std::string pressed_pair(const std::string& slide) {
  return "[scene]\nintegrator = \"velocity-verlet\"\nrotation = \"buss2\"\ndt = 1e-4\n"
         "[[body]]\nmass = 1.0\nradius = 0.5\nposition = [0, 0, 0.499]\n"
         "[[body]]\nmass = 1.0\nradius = 0.5\nposition = [0, 0, 1.497]\n"
         "velocity = [" +
         slide +
         ", 0, 0]\n"
         "[[force]]\nmodel = \"hooke\"\nkn = 1000.0\n"
         "[[force.wall]]\npoint = [0, 0, 0]\nnormal = [0, 0, 1]\n";
}

// The state `saved` from a pressed_pair run continues as the run itself does, bit for bit.
void check_continues(Simulation& original, const std::string& saved) {
  Simulation reloaded = make_simulation(parse_scene_toml(saved, "saved.toml"));
  REQUIRE_FALSE(original.advance(200));
  REQUIRE_FALSE(reloaded.advance(200));
  CHECK(original.energy().contacts == 2);
  check_same_world(original.world(), reloaded.world());
  CHECK(original.world().w == reloaded.world().w);
}

}  // namespace

TEST_CASE("run, save, load, continue: the same trajectory as an uninterrupted run, bit for bit") {
  // Every scene with its own methods, and again with the methods that carry state between steps
  // (leapfrog's half-step velocity, Wang's half-step spin, adaptive's step size, BAOAB's noise).
  const std::vector<std::pair<std::string, std::string>> methods = {
      {"", ""}, {"leapfrog", "wang-leapfrog"}, {"adaptive", "rk4"}, {"baoab", "splitting"}};
  int differ_without_state = 0;  // proves the state matters: without it many runs part ways
  for (const std::string& name : SceneRegistry::instance().names()) {
    for (const auto& method : methods) {  // no structured binding: clang 14 cannot capture one
      const std::string &integrator = method.first, &rotation = method.second;
      INFO(name << " " << integrator << " " << rotation);
      RunSpec spec = load_scene(name);
      if (!integrator.empty()) {
        spec.setup.integrator = integrator;
        spec.setup.rotation = rotation;
        spec.setup.integrator_options = ParamTable();
        if (integrator == "baoab") spec.setup.integrator_options.set("temperature", 0.01);
      }
      Simulation original = make_simulation(spec);
      REQUIRE_FALSE(original.advance(40));
      const std::string text = scene_to_toml(original, name);
      Simulation reloaded = make_simulation(parse_scene_toml(text, name + ".toml"));
      Simulation stateless =
          make_simulation(parse_scene_toml(text.substr(0, text.find("\n[state]\n")), name));
      check_same_world(original.world(), reloaded.world());
      CHECK(reloaded.time() == original.time());
      CHECK(reloaded.step_count() == original.step_count());
      REQUIRE_FALSE(original.advance(60));
      REQUIRE_FALSE(reloaded.advance(60));
      check_same_world(original.world(), reloaded.world());
      REQUIRE_FALSE(stateless.advance(60));
      differ_without_state += stateless.world().x != original.world().x;
      const EnergyReport a = original.energy(), b = reloaded.energy();
      CHECK(a.total == b.total);
      CHECK(a.energy_error == b.energy_error);
      CHECK(a.dissipated == b.dissipated);
      CHECK(a.contacts == b.contacts);
    }
  }
  CHECK(differ_without_state >= 20);
  MESSAGE("runs that part ways without the saved state: " << differ_without_state);
}

TEST_CASE("springs far below 1e-12 are saved too: a slow slide continues bit for bit") {
  // Two spheres pressed together, one creeping sideways at 1e-12: the pair's spring (and the
  // lower one's with the floor) stay near 1e-16, which a fuzzy zero test would drop on saving.
  Simulation original = make_simulation(parse_scene_toml(pressed_pair("1e-12"), "creep.toml"));
  REQUIRE_FALSE(original.advance(20));
  check_continues(original, scene_to_toml(original, "creep"));
}

TEST_CASE("a pair's spring given twice in a saved state: the later is taken, as before") {
  // A state whose pair history names pair (0, 1) twice, a made-up spring first: the later one,
  // the saved spring, is the one continued (as a table keyed by pair did).
  Simulation original = make_simulation(parse_scene_toml(pressed_pair("1e-3"), "pair.toml"));
  REQUIRE_FALSE(original.advance(20));
  std::string saved = scene_to_toml(original, "pair");
  const size_t at = saved.find("pairs = [");
  REQUIRE(at != std::string::npos);
  saved.insert(at + std::strlen("pairs = ["), "0.0, 1.0, 0.25, -0.5, 0.125, ");
  check_continues(original, saved);
}

TEST_CASE("a state loaded and saved again before any step still continues bit for bit") {
  // The contact history of a loaded state waits for the next list rebuild; saving before it
  // must write that history, or the springs (spheres', walls', shapes') are lost.
  for (const std::string name : {"dice", "settle"}) {
    INFO(name);
    RunSpec spec =
        load_scene(name, name == std::string("settle")
                             ? std::map<std::string, ParamValue>{{"n", ParamValue(1000.0)},
                                                                 {"nx", ParamValue(10.0)},
                                                                 {"ny", ParamValue(10.0)},
                                                                 {"nz", ParamValue(10.0)}}
                             : std::map<std::string, ParamValue>{});
    Simulation original = make_simulation(spec);
    REQUIRE_FALSE(original.advance(6000));
    Simulation loaded = make_simulation(parse_scene_toml(scene_to_toml(original, name), "a"));
    Simulation again = make_simulation(parse_scene_toml(scene_to_toml(loaded, name), "b"));
    REQUIRE_FALSE(original.advance(200));
    REQUIRE_FALSE(again.advance(200));
    CHECK(original.energy().contacts >= (name == "dice" ? 4 : 1000));  // springs to lose
    check_same_world(original.world(), again.world());
    CHECK(original.energy().dissipated == again.energy().dissipated);
    CHECK(original.energy().corrected == again.energy().corrected);
  }
}

TEST_CASE("a state saved the step before a manifold changes books that change on reloading") {
  // The points each shape pair touched at the last evaluation are part of the state: the energy a
  // change of manifold brings is booked against them (EnergyReport::corrected).
  Simulation original = make_simulation(load_scene("dice"));
  double corrected = original.energy().corrected;
  int reloaded_steps = 0;
  for (int step = 0; step < 4000 && reloaded_steps < 3; ++step) {
    const std::string text = scene_to_toml(original, "dice");
    REQUIRE_FALSE(original.step());
    if (original.energy().corrected == corrected) continue;
    corrected = original.energy().corrected;
    Simulation reloaded = make_simulation(parse_scene_toml(text, "dice.toml"));
    REQUIRE_FALSE(reloaded.step());
    CHECK(reloaded.energy().corrected == corrected);
    check_same_world(original.world(), reloaded.world());
    ++reloaded_steps;
  }
  CHECK(reloaded_steps == 3);
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

TEST_CASE("a built-in scene's parameter form keeps the values, integrator, dt and seed chosen") {
  BuiltinChoices chosen;
  chosen.parameters = {{"n", 64.0}, {"nx", 4.0}, {"ny", 4.0}, {"nz", 4.0}, {"mu", 0.25}};
  chosen.integrator = "adaptive";
  chosen.dt = 2.5e-4;
  chosen.seed = 7;
  chosen.label = "a small pile";
  chosen.integrator_options.set("tolerance", 1e-7);
  const std::string text = builtin_scene_toml("settle", chosen);
  INFO(text);
  CHECK(text.find("n = 64.0  # ") != std::string::npos);  // with its description
  CHECK(text.find("mu = 0.25  # ") != std::string::npos);
  const RunSpec loaded = parse_scene_toml(text, "settle.toml");
  RunSpec direct = load_scene("settle", chosen.parameters);
  check_same_world(loaded.setup.world, direct.setup.world);
  CHECK(loaded.setup.world.size() == 64);
  CHECK(loaded.setup.integrator == "adaptive");
  CHECK(loaded.setup.rotation == direct.setup.rotation);
  CHECK(loaded.setup.dt == 2.5e-4);
  CHECK(loaded.setup.duration == direct.setup.duration);
  CHECK(loaded.seed == 7);
  CHECK(loaded.label == "a small pile");
  CHECK(loaded.setup.integrator_options.number("tolerance", 0) == 1e-7);
  // Nothing chosen: every parameter at its default, the scene's own dt (the file it always was).
  const RunSpec plain = parse_scene_toml(builtin_scene_toml("settle"), "settle.toml");
  CHECK(plain.setup.world.size() == 10000);
  CHECK(plain.setup.dt == load_scene("settle").setup.dt);
  CHECK(plain.seed == 1);
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
  // Shapes' lengths within 1e-12 to 1e12: 1e300 overflowed a box's or polyhedron's hull to one
  // without corners (a segmentation fault), 1e-300 underflowed to "all coincide".
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[[body]]\nshape = \"box\"\nhalf_extents = [1e300, 1e300, 1e300]\n",
                       "b.toml"),
      doctest::Contains("b.toml:1 [[body]]: box half_extents must be from 1e-12 to 1e12"),
      InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[[body]]\nshape = \"box\"\nhalf_extents = [1e-300, 1, 1]\n", "b.toml"),
      doctest::Contains("box half_extents must be from 1e-12 to 1e12"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml(
          "[[body]]\nshape = \"polyhedron\"\n"
          "vertices = [1e300, 0, 0, 0, 1e300, 0, 0, 0, 1e300, -1e300, -1e300, -1e300]\n",
          "p.toml"),
      doctest::Contains(
          "p.toml:1 [[body]]: polyhedron vertices must be finite (|x|, |y|, |z| <= 1e12)"),
      InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[body]]\nshape = \"sphere\"\nradius = 1e300\n", "s.toml"),
                       doctest::Contains("radius must be from 1e-12 to 1e12"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[[body]]\nshape = \"clump\"\nspheres = [0, 0, 0, 1e300, 1, 0, 0, 1]\n",
                       "c.toml"),
      doctest::Contains("clump spheres need finite centres and radii"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[scene]\nbuiltin = \"kepler\"\n[parameters]\nq = 1\n", "k.toml"),
      doctest::Contains("no parameter 'q'"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[[body]]\n[[force]]\nmodel = \"spring\"\n[[force.link]]\na = 0\nb = 4\n",
                       "s.toml"),
      doctest::Contains("do not exist"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[force]]\nmodel = \"warp\"\n", "w.toml"),
                       doctest::Contains("unknown force model 'warp'"), InputError);
  // Rigid contact, or its options, in a scene with nothing that finds where bodies touch.
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[scene]\nbuiltin = \"kepler\"\ncontact = \"impulse\"\n", "k.toml"),
      doctest::Contains("k.toml:3 [scene]: contact impulse needs a contact model"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[scene]\nbuiltin = \"kepler\"\n[impulse]\nrestitution = 0.2\n", "k.toml"),
      doctest::Contains("k.toml:3 [impulse]: contact impulse needs a contact model"), InputError);
  CHECK_NOTHROW(parse_scene_toml(
      "[scene]\nbuiltin = \"box-stack\"\ncontact = \"impulse\"\n[impulse]\nrestitution = 0.2\n",
      "b.toml"));
}

TEST_CASE("a clump in a scene file gets integrated mass properties and round-trips exactly") {
  const std::string text =
      "[scene]\nintegrator = \"velocity-verlet\"\nrotation = \"rk4\"\ndt = 0.01\n"
      "[[body]]\nshape = \"clump\"\nmass = 2.0\nspheres = [0, 0, 0, 0.5, 0.6, 0, 0, 0.5, 0, 0.7, "
      "0, 0.3]\n"
      "angular_velocity = [0.3, 1.0, 0.2]\n";
  RunSpec spec = parse_scene_toml(text, "clump.toml");
  Simulation sim = make_simulation(spec);
  const World& w = sim.world();
  REQUIRE(w.shape[0]->kind() == "clump");
  CHECK(w.shape[0]->members().size() == 3);
  CHECK(w.inertia(0, 0) < w.inertia(1, 0));  // principal moments, ascending
  CHECK(w.inertia(1, 0) < w.inertia(2, 0));
  REQUIRE_FALSE(sim.advance(100));
  RunSpec again = parse_scene_toml(scene_to_toml(sim, "clump"), "saved.toml");
  Simulation reloaded = make_simulation(again);
  check_same_world(sim.world(), reloaded.world());
  CHECK(reloaded.world().shape[0]->members()[2].centre ==
        sim.world().shape[0]->members()[2].centre);
}

TEST_CASE(
    "a polyhedron in a scene file is fitted to its centroid and principal axes and round-trips") {
  const std::string text =
      "[scene]\ndt = 0.01\n[[body]]\nshape = \"polyhedron\"\nmass = 3.0\nposition = [1, 2, 3]\n"
      "vertices = [0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0.5, 2, 1, 0.5]\nangular_velocity = [0.3, 1.0, "
      "0.2]\n";
  RunSpec spec = parse_scene_toml(text, "poly.toml");
  Simulation sim = make_simulation(spec);
  REQUIRE(sim.world().shape[0]->kind() == "polyhedron");
  REQUIRE_FALSE(sim.advance(50));
  RunSpec again = parse_scene_toml(scene_to_toml(sim, "poly"), "saved.toml");
  Simulation reloaded = make_simulation(again);
  check_same_world(sim.world(), reloaded.world());
  ParamTable a, b;
  sim.world().shape[0]->save(a);
  reloaded.world().shape[0]->save(b);
  CHECK(a.numbers("vertices") == b.numbers("vertices"));
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[body]]\nshape = \"cone\"\n", "bad.toml"),
                       doctest::Contains("unknown shape 'cone' (known: box, clump, disk, "
                                         "disk-clump, polygon, polyhedron, sphere)"),
                       InputError);
}

TEST_CASE("hostile files are refused with the file and line, before they can crash") {
  // 20,000 nested table headers (40 KB): refused before the loader's recursion is deep.
  std::string deep = "[a";
  for (int k = 0; k < 20000; ++k) deep += ".a";
  deep += "]\nx = 1\n";
  CHECK_THROWS_WITH_AS(parse_scene_toml(deep, "deep.toml"),
                       doctest::Contains("deep.toml:1: tables nested more than 32 deep"),
                       InputError);
  CHECK_THROWS_WITH_AS(parse_lesson(deep, "deep.toml"),
                       doctest::Contains("nested more than 32 deep"), InputError);
  // A saved state whose cached potentials are fewer than its force models.
  Simulation sim =
      make_simulation(parse_scene_toml("[scene]\nbuiltin = \"impact\"\n", "impact.toml"));
  REQUIRE_FALSE(sim.advance(5));
  std::string saved = scene_to_toml(sim, "impact");
  const size_t at = saved.find("potentials = [");
  REQUIRE(at != std::string::npos);
  saved.replace(at, saved.find('\n', at) - at, "potentials = []");
  CHECK_THROWS_WITH_AS(make_simulation(parse_scene_toml(saved, "s.toml")),
                       doctest::Contains("'potentials' lists 0 numbers for 2 force models"),
                       InputError);
  // A lesson caption no screen can show (it broke ImGui's 16-bit vertex indices).
  const std::string lesson = "[lesson]\nscene = \"kepler\"\n[[step]]\nat = 0\ncaption = \"" +
                             std::string(20000, 'x') + "\"\n";
  CHECK_THROWS_WITH_AS(parse_lesson(lesson, "l.toml"),
                       doctest::Contains("caption is 20000 characters; at most 1000"), InputError);
  // A clock, step or dt that means nothing.
  CHECK_THROWS_WITH_AS(parse_scene_toml("[scene]\nbuiltin = \"kepler\"\ntime = nan\n", "t.toml"),
                       doctest::Contains("t.toml:3 [scene]: time: must be"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[scene]\nbuiltin = \"kepler\"\nstep = 1e308\n", "t.toml"),
                       doctest::Contains("step: must be a whole number"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[scene]\nbuiltin = \"kepler\"\ndt = 0\n", "t.toml"),
                       doctest::Contains("dt: must be from 1e-12"), InputError);
  // A body's numbers beyond any scene, or not numbers: refused where they are written, whether
  // the bodies are read line by line or (a comment holding three quotes) the file whole.
  for (const std::string tail : {"", "# '''\n"})
    for (const char* line :
         {"position = [1e308, 0, 0]", "velocity = [0, nan, 0]", "angular_velocity = [0, 0, -inf]",
          "angular_momentum = [1e101, 0, 0]", "inertia = [1e300, 1, 1]", "mass = 1e308",
          "mass = nan", "orientation = [1e300, 0, 0, 0]", "pivot = [0, 0, 2e100]"}) {
      INFO(line << " " << tail);
      const std::string text =
          std::string("[scene]\nname = \"x\"\n[[body]]\nradius = 0.5\n") + line + "\n" + tail;
      CHECK_THROWS_WITH_AS(parse_scene_toml(text, "b.toml"),
                           doctest::Contains("b.toml:5 [[body]]: "), InputError);
      CHECK_THROWS_WITH_AS(parse_scene_toml(text, "b.toml"),
                           doctest::Contains(": must be from -1e+100 to 1e+100 (got "), InputError);
    }
}

namespace {
// 64 spheres of the settle scene after `steps`: contact springs, cached forces, a running ledger.
Simulation small_pile(int steps) {
  Simulation sim = make_simulation(
      parse_scene_toml("[scene]\nbuiltin = \"settle\"\n[parameters]\nn = 64\nnx = 4\nny = 4\n"
                       "nz = 4\n",
                       "settle.toml"));
  REQUIRE_FALSE(sim.advance(steps));
  return sim;
}
}  // namespace

TEST_CASE("a saved state's numbers are refused at the door when not finite or beyond 1e300") {
  Simulation sim = small_pile(2000);
  const std::string saved = scene_to_toml(sim, "settle");
  // The saved file loads as it is, both ways (line by line; whole, for a comment of three quotes).
  for (const std::string tail : {"", "# '''\n"})
    CHECK_NOTHROW(make_simulation(parse_scene_toml(saved + tail, "s.toml")));
  // Each key's first number replaced: the key's own line is named, with the limit.
  for (const std::string tail : {"", "# '''\n"})
    for (const char* key : {"dissipated = ", "initial_energy = ", "force = [",
                            "potential = ", "potentials = [", "pairs = [", "walls = ["})
      for (const char* bad : {"nan", "-inf", "1e308"}) {
        INFO(key << bad << " " << tail);
        const size_t at = saved.find(std::string("\n") + key, saved.find("\n[state]\n"));
        REQUIRE(at != std::string::npos);
        const size_t value = at + 1 + std::strlen(key);
        const size_t end = saved.find_first_of(",\n", value);
        std::string text = saved;
        text.replace(value, end - value, bad);
        const long line = 1 + std::count(saved.begin(), saved.begin() + at + 1, '\n');
        const std::string where = "s.toml:" + std::to_string(line) + " ";
        CHECK_THROWS_WITH_AS(make_simulation(parse_scene_toml(text + tail, "s.toml")),
                             doctest::Contains(where.c_str()), InputError);
        CHECK_THROWS_WITH_AS(make_simulation(parse_scene_toml(text + tail, "s.toml")),
                             doctest::Contains(": must be from -1e+300 to 1e+300 (got "),
                             InputError);
      }
}

TEST_CASE("a run made with its World moved in continues as the unbroken run") {
  // A saved settling pile: clock, seed, carried state and contact springs all come from the spec.
  Simulation original = small_pile(1500);
  RunSpec spec = parse_scene_toml(scene_to_toml(original, "settle"), "s.toml");
  Simulation moved = make_simulation(spec, std::exchange(spec.setup.world, World()));
  CHECK(spec.setup.world.size() == 0);
  CHECK(moved.time() == original.time());
  // (make_simulation(spec) is this one given a copy: the comparison is with the unbroken run.)
  REQUIRE_FALSE(moved.advance(500));
  REQUIRE_FALSE(original.advance(500));
  check_same_world(moved.world(), original.world());
  CHECK(moved.energy().total == original.energy().total);
  CHECK(moved.energy().dissipated == original.energy().dissipated);
}

TEST_CASE(
    "materials in a scene file: density gives mass, walls and pairs name them, saves round-trip") {
  const std::string text =
      "[scene]\nintegrator = \"velocity-verlet\"\nrotation = \"buss2\"\ndt = 1e-5\n"
      "[[material]]\nname = \"glass\"\ndensity = 2500\nE = 6e7\nnu = 0.25\ne = 0.9\nmu = 0.3\n"
      "[[material]]\nname = \"steel\"\ndensity = 7800\nE = 2e8\n"
      "[[material_pair]]\na = \"glass\"\nb = \"steel\"\ne = 0.5\n"
      "[[body]]\nmaterial = \"glass\"\nradius = 0.01\nposition = [0, 0, 0.0101]\n"
      "velocity = [0.3, 0, -1]\n"
      "[[body]]\nmaterial = \"steel\"\nradius = 0.01\nposition = [0.05, 0, 0.0101]\n"
      "velocity = [0, 0, -1]\n"
      "[[body]]\nmaterial = \"steel\"\nmass = 2.0\nradius = 0.01\nposition = [0.1, 0, 0.5]\n"
      "[[force]]\nmodel = \"hertz\"\ncoulomb = \"exact\"\n"
      "[[force.wall]]\npoint = [0, 0, 0]\nnormal = [0, 0, 1]\nmaterial = \"steel\"\nrigid = true\n";
  RunSpec spec = parse_scene_toml(text, "m.toml");
  Simulation sim = make_simulation(spec);
  const World& w = sim.world();
  const double volume = 4.0 / 3.0 * M_PI * 1e-6;
  CHECK(w.mass(0) == doctest::Approx(2500 * volume).epsilon(1e-12));
  CHECK(w.mass(1) == doctest::Approx(7800 * volume).epsilon(1e-12));
  CHECK(w.mass(2) == 2.0);  // a given mass wins
  CHECK(w.material[0] == 1);
  CHECK(w.material[2] == 2);
  REQUIRE_FALSE(sim.advance(30));  // both balls mid-bounce on the plate
  CHECK(sim.energy().wall_contacts == 2);
  const std::string saved = scene_to_toml(sim, "m");
  CHECK(saved.find("[[material_pair]]") != std::string::npos);
  Simulation reloaded = make_simulation(parse_scene_toml(saved, "m2.toml"));
  REQUIRE_FALSE(sim.advance(300));
  REQUIRE_FALSE(reloaded.advance(300));
  check_same_world(sim.world(), reloaded.world());
  CHECK(sim.world().w == reloaded.world().w);
  CHECK(sim.energy().dissipated == reloaded.energy().dissipated);
}

TEST_CASE("bad materials are refused naming the file and line") {
  const std::string body = "[[body]]\nmaterial = \"glass\"\n";
  const std::string glass = "[[material]]\nname = \"glass\"\nE = 1e7\n";
  CHECK_THROWS_WITH_AS(parse_scene_toml(body, "a.toml"), doctest::Contains("a.toml:2"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml(body, "a.toml"),
                       doctest::Contains("no material named 'glass'"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[[material]]\nname = \"g\"\ncolour = 1\n" + body, "b.toml"),
      doctest::Contains("b.toml:3 [[material]]: a material has no key 'colour'"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[material]]\nname = \"g\"\nE = 1e400\n", "c.toml"),
                       doctest::Contains("c.toml:3"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[material]]\nname = \"g\"\nnu = 0.7\n", "c.toml"),
                       doctest::Contains("nu: must be from -0.99 to 0.49"), InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml(glass + glass + body, "d.toml"),
                       doctest::Contains("defined twice"), InputError);
  // A key the law does not read, a wall of an unknown material, a pair of one.
  CHECK_THROWS_WITH_AS(
      parse_scene_toml(
          "[[material]]\nname = \"glass\"\nkn = 1e4\n" + body + "[[force]]\nmodel = \"hertz\"\n",
          "e.toml"),
      doctest::Contains(
          "e.toml:3 [[material]]: material 'glass': hertz reads no 'kn' (E, nu, e, mu)"),
      InputError);
  CHECK_THROWS_WITH_AS(parse_scene_toml(glass + body +
                                            "[[force]]\nmodel = \"hooke\"\n[[force.wall]]\n"
                                            "material = \"steel\"\n",
                                        "f.toml"),
                       doctest::Contains("no material named 'steel' (known: glass)"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml(glass + "[[material_pair]]\na = \"glass\"\nb = \"wood\"\n" + body, "g.toml"),
      doctest::Contains("no material named 'wood'"), InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[[body]]\n[[force]]\nmodel = \"hooke\"\ncoulomb = \"exactly\"\n", "h.toml"),
      doctest::Contains("h.toml:4"), InputError);
}

TEST_CASE("a 2-D scene file writes its vectors [x, y]; a 3-D one is told it needs three") {
  // The same two disks and wall, once with [x, y] and once with [x, y, 0].
  auto scene = [](const std::string& p0, const std::string& v0, const std::string& g,
                  const std::string& normal) {
    return "[scene]\ndimensions = 2\n"
           "[[body]]\nshape = \"disk\"\nradius = 0.1\nmass = 1\nposition = " +
           p0 + "\nvelocity = " + v0 +
           "\n[[body]]\nshape = \"disk\"\nradius = 0.1\nmass = 1\nposition = [0.3, 0.1, 0]\n"
           "[[force]]\nmodel = \"gravity\"\ng = " +
           g +
           "\n[[force]]\nmodel = \"hooke\"\nkn = 1e4\n[[force.wall]]\npoint = [0, 0, 0]\n"
           "normal = " +
           normal + "\n";
  };
  Simulation shorthand = make_simulation(
      parse_scene_toml(scene("[0, 0.2]", "[1.5, -0.5]", "[0, -9.81]", "[0, 1]"), "short.toml"));
  Simulation full = make_simulation(parse_scene_toml(
      scene("[0, 0.2, 0]", "[1.5, -0.5, 0]", "[0, -9.81, 0]", "[0, 1, 0]"), "full.toml"));
  REQUIRE_FALSE(shorthand.advance(2000));
  REQUIRE_FALSE(full.advance(2000));
  CHECK(shorthand.world().x == full.world().x);
  CHECK(shorthand.world().v == full.world().v);
  CHECK(shorthand.energy().wall_contacts > 0);  // the wall was read: the disks reached it
  CHECK_THROWS_WITH_AS(parse_scene_toml("[[body]]\nmass = 1\nposition = [0, 0.2]\n", "flat.toml"),
                       "flat.toml:3 [[body]]: 'position' must be a list of three numbers",
                       InputError);
  CHECK_THROWS_WITH_AS(
      parse_scene_toml("[scene]\ndimensions = 2\n[[body]]\nshape = \"disk\"\nradius = 0.1\n"
                       "mass = 1\nposition = [0]\n",
                       "one.toml"),
      "one.toml:7 [[body]]: 'position' must be a list of two or three numbers", InputError);
}

TEST_CASE(
    "bodies added a chunk at a time are the bodies added one by one; a refused one is named") {
  // Every built-in scene's bodies again, one add_bodies call against one add_body each: the same
  // columns (w and radius too) and the same sharing of shapes (spheres of one radius in a row).
  for (const std::string& name : SceneRegistry::instance().names()) {
    INFO(name);
    const World built = build_scene(name, {}).world;
    std::vector<BodySpec> specs;
    for (int i = 0; i < built.size(); ++i) {
      specs.push_back(built.body_spec(i));
      BodySpec& s = specs.back();
      if (s.shape && s.shape->type() == sphere_type() && !s.shape->planar())
        s.radius = s.shape->bounding_radius(), s.shape = nullptr;  // a sphere given by its radius
    }
    World one, all;
    one.materials = all.materials = built.materials;
    for (const BodySpec& s : specs) one.add_body(s);
    all.add_bodies(specs.data(), int(specs.size()));
    check_same_world(all, one);
    CHECK(all.w == one.w);
    CHECK(all.radius == one.radius);
    CHECK(all.pivot_arm == one.pivot_arm);
    for (int i = 1; i < all.size(); ++i)
      CHECK((all.shape[i] == all.shape[i - 1]) == (one.shape[i] == one.shape[i - 1]));
  }
  // A refused body leaves the World as it was, and says which it is.
  std::vector<BodySpec> specs(5);
  specs[3].inertia = Vec3(1, -1, 1);
  World world;
  world.add_body(BodySpec{});
  try {
    world.add_bodies(specs.data(), 5);
    FAIL("refused nothing");
  } catch (const BodyError& e) {
    CHECK(e.body == 4);
    CHECK(std::string(e.what()).rfind("body 4: inertia must be positive", 0) == 0);
  }
  CHECK(world.size() == 1);
  CHECK(world.x.cols() == 1);
  // Made one at a time (World::add_bodies(count, make)), over several of its chunks: each body
  // made once, in order; a body refused in a later chunk, or make throwing there, takes every
  // chunk back, and the World is as it was (its ids too).
  World many;
  many.add_body(BodySpec{});
  many.ids = {0};
  const Vec3 kept = many.x.col(0);
  std::vector<int> made;
  auto make = [&](int refused, int thrown) {
    return [&made, refused, thrown](int k, BodySpec& spec) {
      made.push_back(k);
      if (k == thrown) throw InputError("made body " + std::to_string(k) + " is wrong");
      spec.radius = 0.1 + 0.01 * (k / 3000);
      spec.position = Vec3(k, 0, 0);
      if (k == refused) spec.mass = -1;
    };
  };
  CHECK_THROWS_WITH_AS(many.add_bodies(10000, make(9000, -1)),
                       "body 9001: mass must be positive and finite", BodyError);
  CHECK_THROWS_WITH_AS(many.add_bodies(10000, make(-1, 8500)), "made body 8500 is wrong",
                       InputError);
  CHECK(many.size() == 1);
  CHECK(many.x.cols() == 1);
  CHECK(many.v.cols() == 1);
  CHECK(many.shape.size() == 1);
  CHECK(many.ids == std::vector<int>{0});
  CHECK(many.x.col(0) == kept);
  made.clear();
  many.add_bodies(10000, make(-1, -1));
  REQUIRE(many.size() == 10001);
  CHECK(many.ids.size() == 10001);
  CHECK(many.ids.back() == 10000);
  bool in_order = int(made.size()) == 10000;
  for (int k = 0; in_order && k < 10000; ++k) in_order = made[size_t(k)] == k;
  CHECK(in_order);
  CHECK(many.x(0, 10000) == 9999);
  CHECK(many.radius(9001) == doctest::Approx(0.13));  // (body k is World body k + 1)
  // Spheres of one radius in a row share a shape across the chunks (4096 bodies a chunk).
  CHECK(many.shape[4097] == many.shape[4096]);
  CHECK(many.shape[3000] != many.shape[3001]);
  // In a file of bodies added a chunk at a time, the refused body's own table and line lead.
  const std::string text =
      "[scene]\nname = \"x\"\ndt = 0.01\n[[body]]\nposition = [0, 0, 1]\n[[body]]\n"
      "position = [0, 0, 2]\n\n[[body]]\nposition = [0, 0, 3]\ninertia = [1, -1, 1]\n";
  CHECK_THROWS_WITH_AS(parse_scene_toml(text, "c.toml"),
                       "c.toml:9 [[body]]: body 2: inertia must be positive (a sphere read in "
                       "its body frame needs `inertia`)",
                       InputError);
}

TEST_CASE("bodies of a file share a shape only where their shapes are the same, bit for bit") {
  // (One shape per distinct shape: the window draws each in one call. Spheres of radius 0.5,
  // 0.25, 0.5, and boxes whose half extents differ in one component or in a zero's sign.)
  const std::string text =
      "[scene]\nname = \"x\"\ndt = 0.01\n"
      "[[body]]\nradius = 0.5\n[[body]]\nradius = 0.25\n[[body]]\nradius = 0.5\n"
      "[[body]]\nshape = \"box\"\nhalf_extents = [1, 1, 1]\n"
      "[[body]]\nshape = \"box\"\nhalf_extents = [1, 1, 2]\n"
      "[[body]]\nshape = \"box\"\nhalf_extents = [1, 1, 1]\n";
  const World& world = parse_scene_toml(text, "s.toml").setup.world;
  REQUIRE(world.size() == 6);
  CHECK(world.shape[0] == world.shape[2]);
  CHECK(world.shape[0] != world.shape[1]);
  CHECK(world.radius(1) == 0.25);
  CHECK(world.shape[3] == world.shape[5]);
  CHECK(world.shape[3] != world.shape[4]);
  CHECK(world.shape[0] != world.shape[3]);
}
