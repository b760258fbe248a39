#include "core/scenes/disk_scene_helpers.hpp"

#include "core/scene.hpp"

namespace stepwise {

BodySpec disk_at(const ShapePtr& disk, double mass, double x, double y, double vx, double vy) {
  BodySpec b;
  b.shape = disk;
  b.mass = mass;
  b.position = Vec3(x, y, 0);
  b.velocity = Vec3(vx, vy, 0);
  return b;
}

void add_gravity_2d(World& world, double g) {
  ParamTable gravity;
  gravity.set("g", std::vector<double>{0, -g, 0});
  world.add_force(ForceRegistry::instance().make("gravity", gravity));
}

}  // namespace stepwise
