// A break at billiards (2-D): fifteen balls racked in a triangle, the cue ball shot into its apex.
// Balls are disks of a pool ball's size and mass on the table's plane; Hertzian contacts with
// restitution e between balls and on the cushions, a little friction, and the cloth as a weak
// linear drag. Momentum is kept through every collision until the cushions take their share.
#include <array>
#include <cmath>

#include "core/scene.hpp"
#include "core/scenes/disk_scene_helpers.hpp"

namespace stepwise {
namespace {

class Billiards final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"billiards",
                   "a break: the cue ball into a racked triangle (2-D)",
                   "The cue ball hits the apex and stops almost dead; its momentum spreads through "
                   "the rack, whose balls fly apart with the same total momentum until the "
                   "cushions turn them.",
                   {{"speed", 6.0, "cue ball speed (m/s)"},
                    {"offset", 0.0, "the cue ball's aim off the rack's axis (m)"},
                    {"e", 0.93, "coefficient of restitution"},
                    {"mu", 0.06, "friction between balls"},
                    {"cloth", 0.2, "the cloth's drag rate (1/s)"},
                    {"E", 1e8, "Young's modulus of the balls"}}};
    info.dimensions = 2;
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const double r = 0.028575, m = 0.17, length = 2.54, width = 1.27;  // a 9-foot table
    SceneSetup s;
    const ShapePtr ball = disk_shape(r);
    s.world.add_body(disk_at(ball, m, 0.25 * length, 0.5 * width + p.number("offset"),
                             positive(p, "speed", true)));
    const double gap = 1e-4;  // racked as tight as a rack does: touching is not overlapping
    const double step = 2 * r + gap;
    for (int row = 0; row < 5; ++row)
      for (int k = 0; k <= row; ++k)
        s.world.add_body(disk_at(ball, m, 0.75 * length + row * step * std::sqrt(3.0) / 2,
                                 0.5 * width + (k - 0.5 * row) * step));
    ParamTable hertz(p.where());
    hertz.set("E", positive(p, "E"));
    hertz.set("e", positive(p, "e"));
    hertz.set("mu", positive(p, "mu", true));
    hertz.set("coulomb", std::string("exact"));
    std::vector<ParamTable> cushions;
    // The cushions: point (x, y) and normal (nx, ny) of each.
    for (const auto& c : {std::array{0.0, 0.0, 1.0, 0.0},
                          {length, 0.0, -1.0, 0.0},
                          {0.0, 0.0, 0.0, 1.0},
                          {0.0, width, 0.0, -1.0}}) {
      ParamTable w;
      w.set("point", std::vector<double>{c[0], c[1], 0});
      w.set("normal", std::vector<double>{c[2], c[3], 0});
      cushions.push_back(w);
    }
    hertz.set("wall", cushions);
    s.world.add_force(ForceRegistry::instance().make("hertz", hertz));
    ParamTable cloth;
    cloth.set("c", positive(p, "cloth", true) * m);
    s.world.add_force(ForceRegistry::instance().make("linear-drag", cloth));
    s.dt = 2e-5;
    s.duration = 4;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("billiards", Billiards);
}  // namespace stepwise
