#pragma once
// Bodies stored in spatial order, for speed only: bodies near in space sit near in memory, so a
// contact's partner is mostly in the cache already (a settled packing of 50,000 spheres read in
// random order stepped 1.25x slower than in its lattice order, nearly all in the pair loop). The
// order is a Morton (Z-order) curve over cells the size of the largest body; the bodies keep
// their ids (World::ids) for everything the user reads.
#include <vector>

#include "core/world.hpp"

namespace stepwise {

// Fewer bodies than this fit the cache in any order (and small scenes stay as given).
inline constexpr int kSpatialOrderMinBodies = 4096;
// A run stored in spatial order is sorted again at every multiple of this many steps (LAMMPS'
// atom_modify sort default), where its state can move with its bodies
// (Simulation::reorder_bodies).
inline constexpr long kResortEvery = 1000;

// The order (for World::reorder) along the curve: ties (one cell) keep their given order.
std::vector<int> spatial_order(const World& world);

// Reorders the World along the curve where it may be now: enough bodies, and no force model
// holding body indices (ForceModel::names_bodies); false (the World untouched) otherwise.
bool order_spatially(World& world);

}  // namespace stepwise
