// Newton's cradle in the plane: disks hanging from stiff strings (springs) in a touching row,
// Hertzian contacts between them, gravity along -y. The 2-D twin of `newtons-cradle`.
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/disk_scene_helpers.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class NewtonsCradle2d final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{
        "newtons-cradle-2d",
        "disks on strings in a row: momentum passes through (2-D)",
        "The first disk hits the row and stops; a pulse runs through the touching disks "
        "and the last one swings out with almost all the momentum. Pull back two and two "
        "fly out: momentum and energy together allow nothing else.",
        {{"n", 5.0, "number of disks"},
         {"pulled", 1.0, "disks pulled back together"},
         {"radius", 0.1, "disk radius"},
         {"length", 1.0, "string length"},
         {"angle", 30.0, "release angle of the pulled disks, degrees"},
         {"E", 1e8, "Young's modulus of the disks"},
         {"e", 1.0, "coefficient of restitution"},
         {"g", 9.81, "gravitational acceleration"}}};
    info.dimensions = 2;
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 2, 100), pulled = count(p, "pulled", 0, n - 1);
    const double r = shape_length(p, "radius", 1), length = positive(p, "length");
    const double angle = p.number("angle") * M_PI / 180.0, g = positive(p, "g", true);
    SceneSetup s;
    const ShapePtr disk = disk_shape(r);
    std::vector<Vec3> anchors;
    for (int i = 0; i < n; ++i) {
      const Vec3 anchor(2 * r * i, length, 0);
      // The pulled disks swing back together, as one body would, about their own anchors.
      const double a = i < pulled ? angle : 0.0;
      const Vec3 at = anchor + length * Vec3(-std::sin(a), -std::cos(a), 0);
      s.world.add_body(disk_at(disk, 1.0, at.x(), at.y()));
      anchors.push_back(anchor);
    }
    add_cradle_strings(s.world, p, anchors, length);
    add_gravity_2d(s.world, g);
    s.dt = 2e-5;
    s.duration = 2;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("newtons-cradle-2d", NewtonsCradle2d);
}  // namespace stepwise
