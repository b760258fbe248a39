#pragma once
// Shared by the granular scenes: the hooke contact parameters and adding the contact model.
#include <vector>

#include "core/params.hpp"
#include "core/world.hpp"

namespace stepwise {

struct ParamSpec;
// kn, kt, gamma_n, gamma_t, mu with the given defaults (kt = 2/7 kn, gamma_t = gamma_n / 2 as in
// the LAMMPS benchmark when not given).
void add_contact_params(std::vector<ParamSpec>& params, double kn, double gamma_n, double mu);
// Adds "hooke" contacts with the scene's parameters and the given walls (point, normal pairs).
void add_contacts(World& world, const ParamTable& p, const std::vector<std::pair<Vec3, Vec3>>& walls,
                  double skin);

}  // namespace stepwise
