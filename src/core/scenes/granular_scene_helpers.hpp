#pragma once
// Shared by the granular scenes: the hooke contact parameters and adding the contact model.
#include <vector>

#include "core/params.hpp"
#include "core/world.hpp"

namespace stepwise {

struct ParamSpec;
// kn, kt, gamma_n, gamma_t, mu with the given defaults (kt = 2/7 kn, gamma_t = gamma_n / 2 as in
// the LAMMPS benchmark when not given), and the friction cap: "exact" Coulomb while sliding, or
// "lammps" (LAMMPS' gran/hooke/history, for scenes measured against it).
void add_contact_params(std::vector<ParamSpec>& params, double kn, double gamma_n, double mu,
                        const char* coulomb = "exact");
// Adds "hooke" contacts with the scene's parameters and the given walls (point, normal pairs).
// Where the k-th body goes when bodies are dropped from side x side columns `spacing` apart,
// centred over the origin, layer by layer upwards from height z0.
Vec3 column_lattice(int k, int side, double spacing, double z0);
// A floor at z = 0 and four side walls at x = +-half and y = +-half (point, normal pairs).
std::vector<std::pair<Vec3, Vec3>> walled_box(double half);
// As LAMMPS' velocity create, for lattice scenes whose bodies all have `mass` and whose
// velocities were drawn with this mean: zero net momentum, then scaled to `temperature` over
// `dofs` degrees of freedom (every body at rest when nothing is left to scale: a lone grain).
void thermalise(World& world, const Vec3& mean_velocity, double mass, double dofs,
                double temperature);
// A step of 1/divisions of the hooke contact's duration pi / sqrt(kn / m_eff - gamma_n^2 / 4).
double contact_step(const ParamTable& p, double m_eff, double divisions);
void add_contacts(World& world, const ParamTable& p, const std::vector<std::pair<Vec3, Vec3>>& walls,
                  double skin);
// Newton's cradles (3-D and 2-D): body i hangs from anchors[i] on a stiff string (a spring of
// rest `length`), and the bodies touch by frictionless Hertz contacts of the scene's E and e.
void add_cradle_strings(World& world, const ParamTable& p, const std::vector<Vec3>& anchors,
                        double length);

}  // namespace stepwise
