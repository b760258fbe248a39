#pragma once
// What GranularContacts hands other parts of the program, apart from its forces: under the
// contact treatment `impulse`, the touching points with each pair's friction and rolling and
// twisting resistance (rigid_contacts); for `export --lammps`, each pair of materials' law
// (pair_laws). Kept apart from the evaluation in granular_contact.hpp.
#include "core/contacts/granular_contact.hpp"

namespace stepwise {

template <class Law>
bool GranularContacts<Law>::rigid_contacts(const World& world, double time,
                                           std::vector<RigidContact>& out) {
  if (laws_.stale(world, own_version_)) laws_.build(world, own(), wall_materials_, own_version_);
  rigid_walls_.clear();
  for (const Wall& w : walls_)
    rigid_walls_.push_back({w.normal, w.velocity, (w.point + time * w.velocity).dot(w.normal)});
  finder_.find(
      world, rigid_walls_, exclusions_,
      [&](int i, int j) {
        const int mi = world.material[i];
        return j >= 0 ? laws_.pair(mi, world.material[j]).mu : laws_.wall(-1 - j, mi).mu;
      },
      out);
  // Rolling and twisting resistance, as the penalty laws give it: between spheres and
  // against walls, on the pair's effective radius.
  const auto round = [&](int b) { return world.shape[b]->type() == sphere_type(); };
  if (mu_roll_ > 0 || mu_twist_ > 0)
    for (RigidContact& c : out) {
      if (!round(c.i) || (c.j >= 0 && !round(c.j))) continue;
      const double ri = world.radius(c.i), rj = c.j >= 0 ? world.radius(c.j) : 0.0;
      const double r_eff = c.j >= 0 ? ri * rj / (ri + rj) : ri;
      c.roll_cap = mu_roll_ * r_eff;
      c.twist_cap = mu_twist_ * r_eff;
    }
  return true;
}

template <class Law>
bool GranularContacts<Law>::pair_laws(const World& world, std::vector<ParamTable>& pairs,
                                      std::vector<ParamTable>& walls) const {
  MaterialLaws<Law> laws;  // built here: the model's own table may be stale in a const call
  laws.build(world, own(), wall_materials_, own_version_);
  auto table = [](const PairLaw<Law>& law) {
    ParamTable out;
    law.law.coefficients(out);
    out.set("mu", law.mu);
    return out;
  };
  for (const PairLaw<Law>& law : laws.all()) pairs.push_back(table(law));
  for (const PairLaw<Law>& law : laws.all_walls()) walls.push_back(table(law));
  return true;
}

}  // namespace stepwise
