// The sphere kernels screen against the walls only the blocks of bodies that can reach one
// (wall_candidates.hpp); screening every body (wall_screen = "all") is the reference.
#include <doctest/doctest.h>
#include <string>
#include <vector>

#include "core/force_model.hpp"
#include "core/random.hpp"
#include "test_support.hpp"

using namespace stepwise;

namespace {

// Spheres in a box whose lid comes down on them while one side wall draws back, so the walls'
// gaps change while the list stands: thrown about under gravity, heaping on the floor (springs
// held and let go), or nearly still in free space (the list stands while the lid comes).
Simulation box_with_moving_walls(const std::string& screen, const std::string& integrator,
                                 double speed, double g) {
  const double box = 9.0;
  Random random(17);
  World world;
  for (int i = 0; i < 300; ++i) {
    BodySpec b;
    b.radius = random.uniform(0.3, 0.5);
    b.mass = random.uniform(0.5, 2.0);
    b.position = Vec3(random.uniform(0.5, box - 0.5), random.uniform(0.5, box - 0.5),
                      random.uniform(0.5, box - 0.5));
    b.velocity = speed * Vec3(random.normal(), random.normal(), random.normal());
    b.angular_velocity = speed * Vec3(random.normal(), random.normal(), random.normal());
    world.add_body(b);
  }
  ParamTable hooke, gravity;
  hooke.set("kn", 2000.0);
  hooke.set("mu", 0.4);
  hooke.set("wall_screen", screen);
  std::vector<ParamTable> walls = test::box_walls(box);
  walls[5].set("velocity", std::vector<double>{0, 0, -1.5});  // the lid comes down
  walls[0].set("velocity", std::vector<double>{-0.3, 0, 0});  // the x = 0 wall draws back
  hooke.set("wall", walls);
  gravity.set("g", std::vector<double>{0, 0, -g});
  world.add_force(ForceRegistry::instance().make("gravity", gravity));
  world.add_force(ForceRegistry::instance().make("hooke", hooke));
  return Simulation(world, 1e-3, integrator, "buss2");
}

}  // namespace

TEST_CASE("walls screened only where a block can reach them: every body screened, bit for bit") {
  // Verlet (committing evaluations: springs held and let go) and RK4 (trial evaluations too).
  for (const std::string integrator : {"velocity-verlet", "rk4"})
    for (const bool still : {false, true}) {
      CAPTURE(integrator);
      CAPTURE(still);
      const double speed = still ? 0.01 : 2.0, g = still ? 0.0 : 2.0;
      Simulation blocks = box_with_moving_walls("auto", integrator, speed, g);
      Simulation every = box_with_moving_walls("all", integrator, speed, g);
      int touching = 0, lid = 0;
      for (int chunk = 0; chunk < 40; ++chunk) {
        REQUIRE_FALSE(blocks.advance(100));
        REQUIRE_FALSE(every.advance(100));
        touching += blocks.energy().wall_contacts;
        const World& w = blocks.world();
        for (int i = 0; i < w.size(); ++i)  // touching the lid (at 9 - 1.5 t)
          lid += w.x(2, i) + w.radius(i) > 9.0 - 1.5 * blocks.time();
      }
      CHECK(touching > 1000);  // walls held and let go all through
      CHECK(lid > 20);         // the lid came down on bodies that were far from it
      test::check_same(test::run_end(blocks), test::run_end(every));
    }
  ParamTable wrong;
  wrong.set("wall_screen", std::string("some"));
  CHECK_THROWS_WITH_AS(ForceRegistry::instance().make("hooke", wrong),
                       doctest::Contains("'wall_screen' must be auto or all"), InputError);
}
