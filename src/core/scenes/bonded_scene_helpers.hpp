#pragma once
// Shared by the bonded scenes: reading the bond parameters and bonding neighbours in a row.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/params.hpp"
#include "core/world.hpp"

namespace stepwise {

// Scene parameters every bonded scene has (kr, ks, kt, kb, damping, bond.model).
void add_bond_params(std::vector<struct ParamSpec>& params, double stiffness, double damping);
// Adds a bond model ("bond-" + bond.model) joining the given pairs (i, j) at their current pose.
void add_bonds(World& world, const ParamTable& p, const std::vector<std::pair<int, int>>& pairs);
// n unit cubes (mass 1) along x, each bonded to its predecessor; `customise` may change cube k
// (flags, velocities) before it is added.
void add_bonded_cube_row(World& world, const ParamTable& p, int n,
                         const std::function<void(int, BodySpec&)>& customise);

}  // namespace stepwise
