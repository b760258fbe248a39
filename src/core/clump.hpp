#pragma once
// Clumps (PFC): rigid unions of overlapping spheres. Their mass properties come from a converged
// volume integration of the union, and their body frame is the principal frame.
#include <vector>

#include "core/shapes/shape.hpp"
#include "core/types.hpp"

namespace stepwise {

struct MassProperties {
  double volume = 0;
  Vec3 centre = Vec3::Zero();    // centroid, template frame
  Mat3 inertia = Mat3::Zero();   // about the centroid, template axes, unit density
  Vec3 principal = Vec3::Zero(); // eigenvalues, ascending, unit density
  Quat axes = Quat::Identity();  // principal frame -> template frame (a proper rotation)
  int resolution = 0;            // grid columns per side at convergence
};

// Integrates the union on an n x n grid of columns, each integrated exactly along z, doubling n
// until volume and inertia change by less than `tolerance` (relative).
MassProperties clump_mass_properties(const std::vector<ClumpSphere>& spheres,
                                     double tolerance = 1e-6);
// The support point of a union of spheres (or disks) along d: the farthest of each member's.
Vec3 members_support(const std::vector<ClumpSphere>& spheres, const Vec3& d);

}  // namespace stepwise
