#pragma once
// What the granular contacts report besides forces: each touching sphere pair's normal force
// for the force network, and one body's touching points for the Inspector. Read from the
// neighbour list and the wall planes after a step; pairs with another shape are ShapeContacts'.
#include <functional>
#include <vector>

#include "core/contacts/granular_walls.hpp"
#include "core/contacts/neighbor_list.hpp"
#include "core/contacts/shape_contacts.hpp"

namespace stepwise {

// The law's elastic normal force at overlap delta between spheres of effective radius r_eff.
using ElasticForce = std::function<double(double delta, double r_eff)>;

void sphere_contact_forces(const World& world, const NeighborList& list,
                           const ShapeContacts& shapes, const ElasticForce& elastic,
                           std::vector<ForceModel::ContactForce>& out);

void sphere_contact_points(const World& world, int body, const NeighborList& list,
                           const std::vector<WallPlane>& walls, const ShapeContacts& shapes,
                           const ElasticForce& elastic,
                           std::vector<ForceModel::ContactReport>& out);

}  // namespace stepwise
