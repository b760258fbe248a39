// Granular column collapse: a tall column of spheres on a rough floor, released at once. It
// slumps into a heap whose run-out grows with the column's aspect ratio.
#include <cmath>

#include "core/random.hpp"
#include "core/scene.hpp"
#include "core/scenes/granular_scene_helpers.hpp"

namespace stepwise {
namespace {

class ColumnCollapse final : public Scene {
 public:
  SceneInfo info() const override {
    SceneInfo info{"column-collapse",
                   "a column of spheres slumping into a heap",
                   "Gravity pulls the column down and out; friction between grains and with the "
                   "floor stops the flow. Taller columns run out further, a classic granular-flow "
                   "experiment.",
                   {{"width", 6.0, "column width (spheres along x)"},
                    {"depth", 4.0, "column depth (spheres along y)"},
                    {"height", 20.0, "column height (layers)"},
                    {"g", 1.0, "gravitational acceleration"}}};
    add_contact_params(info.params, 2000.0, 50.0, 0.5);
    return info;
  }
  SceneSetup build(const ParamTable& p) const override {
    const int nx = count(p, "width", 1, 1000), ny = count(p, "depth", 1, 1000);
    const int nz = count(p, "height", 1, 1000);
    if (static_cast<long>(nx) * ny * nz > 200000) throw InputError(p.where() + ": at most 200000 spheres");
    SceneSetup s;
    Random random(23);
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          BodySpec b;
          b.mass = M_PI / 6.0;
          b.radius = 0.5;
          b.position = Vec3(i + 0.5, j + 0.5, k + 0.5) * 1.01 +
                       Vec3(random.uniform(-0.01, 0.01), random.uniform(-0.01, 0.01), 0);
          s.world.add_body(b);
        }
    add_gravity(s.world, positive(p, "g", true));
    // Floor, a back wall at x = 0 (the column rests against it) and side walls in y.
    add_contacts(s.world, p,
                 {{Vec3::Zero(), Vec3::UnitZ()}, {Vec3::Zero(), Vec3::UnitX()},
                  {Vec3::Zero(), Vec3::UnitY()}, {Vec3(0, ny * 1.01, 0), -Vec3::UnitY()}},
                 0.2);
    const double m_eff = M_PI / 12.0, kn = p.number("kn"), gamma_n = p.number("gamma_n");
    s.dt = M_PI / std::sqrt(kn / m_eff - 0.25 * gamma_n * gamma_n) / 50.0;
    s.duration = 20;
    return s;
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("column-collapse", ColumnCollapse);
}  // namespace stepwise
