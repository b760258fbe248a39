#pragma once
// Shared by the 2-D scenes (World::dimensions = 2): disks in the x-y plane, gravity along -y.
#include "core/world.hpp"

namespace stepwise {

// A disk body of this shape (shared, so a packing holds one), in the plane at (x, y).
BodySpec disk_at(const ShapePtr& disk, double mass, double x, double y, double vx = 0,
                 double vy = 0);
// Uniform gravity g along -y: "down" on the screen of a 2-D scene.
void add_gravity_2d(World& world, double g);

}  // namespace stepwise
