#pragma once
// Conservative pair interactions between spheres that act only while they overlap (soft
// repulsion, WCA): the neighbour loop lives here, a model gives U(r) and -dU/dr for a pair whose
// surfaces touch at r = reach = r_i + r_j.
#include <cmath>

#include "core/contacts/neighbor_list.hpp"
#include "core/world.hpp"

namespace stepwise {

class PairPotential : public ForceModel {
 public:
  explicit PairPotential(const ParamTable& p) : list_(p.number("skin", 0.1)) {
    if (!(list_.skin() >= 0)) throw InputError(p.where() + ": skin must be >= 0");
  }

  // Energy and radial force magnitude (positive = repulsive) at distance r < reach.
  virtual void pair(double r, double reach, double& energy, double& force) const = 0;

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    const World& world = s.world;
    list_.update(s.x, world.radius);
    const auto& offsets = list_.offsets();
    const auto& neighbors = list_.neighbors();
    for (int i = 0; i < world.size(); ++i)
      for (int k = offsets[i]; k < offsets[i + 1]; ++k) {
        const int j = neighbors[k];
        const Vec3 d = s.x.col(i) - s.x.col(j);
        const double reach = world.radius(i) + world.radius(j), r2 = d.squaredNorm();
        if (r2 >= reach * reach) continue;
        const double r = std::sqrt(r2);
        double energy, force;
        pair(r, reach, energy, force);
        out.force.col(i) += force / r * d;
        out.force.col(j) -= force / r * d;
        out.potential += energy;
        ++out.contacts;
      }
  }
  bool jacobian(const StateView&, Triplets&, Triplets&) const override { return false; }
  // Stiffness by the pair's curvature near contact (for the critical time step).
  double max_frequency(const World& world) const override {
    if (world.size() == 0) return 0;
    const double reach = 2 * world.radius.minCoeff(), h = 1e-4 * reach;
    double e, f_in, f_out;
    pair(reach * 0.95 - h, reach, e, f_in);
    pair(reach * 0.95 + h, reach, e, f_out);
    return std::sqrt(std::abs(f_in - f_out) / (2 * h) / (0.5 * world.mass.minCoeff()));
  }

 protected:
  NeighborList list_;
};

}  // namespace stepwise
