#include "core/scenes/granular_scene_helpers.hpp"

#include <algorithm>
#include <cmath>

#include "core/scene.hpp"

namespace stepwise {

void add_contact_params(std::vector<ParamSpec>& params, double kn, double gamma_n, double mu,
                        const char* coulomb) {
  params.push_back({"kn", kn, "normal contact stiffness"});
  params.push_back({"kt", 2.0 / 7.0 * kn, "tangential contact stiffness"});
  params.push_back({"gamma_n", gamma_n, "normal damping rate (force = m_eff gamma_n v_n)"});
  params.push_back({"gamma_t", 0.5 * gamma_n, "tangential damping rate"});
  params.push_back({"mu", mu, "Coulomb friction coefficient"});
  params.push_back({"mu_roll", 0.0, "rolling resistance (torque <= mu_roll r_eff |F_n|)"});
  params.push_back({"mu_twist", 0.0, "twisting resistance (torque <= mu_twist r_eff |F_n|)"});
  params.push_back({"coulomb", std::string(coulomb),
                    "friction at the cap: 'exact' (Coulomb while sliding) or 'lammps' (LAMMPS' "
                    "gran/hooke/history)"});
}

Vec3 column_lattice(int k, int side, double spacing, double z0) {
  const int i = k % side, j = (k / side) % side, layer = k / (side * side);
  return Vec3((i + 0.5 - 0.5 * side) * spacing, (j + 0.5 - 0.5 * side) * spacing,
              z0 + layer * spacing);
}

std::vector<std::pair<Vec3, Vec3>> walled_box(double half) {
  return {{Vec3::Zero(), Vec3::UnitZ()},
          {Vec3(-half, 0, 0), Vec3::UnitX()},
          {Vec3(half, 0, 0), -Vec3::UnitX()},
          {Vec3(0, -half, 0), Vec3::UnitY()},
          {Vec3(0, half, 0), -Vec3::UnitY()}};
}

void thermalise(World& world, const Vec3& mean_velocity, double mass, double dofs,
                double temperature) {
  double kinetic = 0;
  for (int b = 0; b < world.size(); ++b) {
    world.v.col(b) -= mean_velocity;
    kinetic += 0.5 * mass * world.v.col(b).squaredNorm();
  }
  const double scale = kinetic > 0 ? std::sqrt(0.5 * dofs * temperature / kinetic) : 0.0;
  world.v *= scale;
}

double contact_step(const ParamTable& p, double m_eff, double divisions) {
  const double kn = p.number("kn"), gamma_n = p.number("gamma_n");
  return M_PI / std::sqrt(std::max(kn / m_eff - 0.25 * gamma_n * gamma_n, 1e-12)) / divisions;
}

void add_contacts(World& world, const ParamTable& p,
                  const std::vector<std::pair<Vec3, Vec3>>& walls, double skin) {
  ParamTable table(p.where());
  for (const char* key : {"kn", "kt", "gamma_n", "gamma_t", "mu"})
    table.set(key, positive(p, key, true));
  for (const char* key : {"mu_roll", "mu_twist"})
    if (p.has(key)) table.set(key, positive(p, key, true));
  if (p.has("coulomb")) table.set("coulomb", p.text("coulomb", "lammps"));
  table.set("skin", skin);
  std::vector<ParamTable> wall_tables;
  for (const auto& [point, normal] : walls) {
    ParamTable w;
    w.set("point", std::vector<double>{point.x(), point.y(), point.z()});
    w.set("normal", std::vector<double>{normal.x(), normal.y(), normal.z()});
    wall_tables.push_back(w);
  }
  table.set("wall", wall_tables);
  world.add_force(ForceRegistry::instance().make("hooke", table));
}

void add_cradle_strings(World& world, const ParamTable& p, const std::vector<Vec3>& anchors,
                        double length) {
  std::vector<ParamTable> strings;
  for (size_t i = 0; i < anchors.size(); ++i) {
    ParamTable string;
    string.set("a", double(i));
    string.set("anchor", std::vector<double>{anchors[i].x(), anchors[i].y(), anchors[i].z()});
    string.set("k", 1e5);
    string.set("rest", length);
    strings.push_back(string);
  }
  ParamTable spring, hertz;
  spring.set("link", strings);
  world.add_force(ForceRegistry::instance().make("spring", spring));
  hertz.set("E", positive(p, "E"));
  hertz.set("e", positive(p, "e"));
  hertz.set("mu", 0.0);
  hertz.set("coulomb", std::string("exact"));  // frictionless, and no pull as the balls part
  world.add_force(ForceRegistry::instance().make("hertz", hertz));
}

}  // namespace stepwise
