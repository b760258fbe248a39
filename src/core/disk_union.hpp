#pragma once
// Mass properties of a union of overlapping disks (a 2-D clump), exact: Green's theorem turns
// the area integrals into integrals along the arcs of each circle that no other disk covers, and
// those have closed forms (no grid, no tolerance).
#include <vector>

#include "core/shapes/shape.hpp"

namespace stepwise {

struct PlaneMassProperties {
  double area = 0;
  Vec3 centroid = Vec3::Zero();  // z = 0
  double polar = 0;              // integral of r^2 dA about the centroid (unit density)
};

// Disks as (centre.x, centre.y, radius); centre.z is ignored.
PlaneMassProperties disk_union_properties(const std::vector<ClumpSphere>& disks);

}  // namespace stepwise
