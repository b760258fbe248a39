#pragma once
// Rigid contact by impulses (seed 004), run after each step on the state it reached:
//  1. impacts: a pair whose points close faster than a resting contact would gets the seed's
//     impulse j = -(1 + e) u_n / (n.K n) (its points solved together, with friction), pair after
//     pair in order, swept until none closes: a row of touching balls passes the blow on (the
//     sequential-impulse result of Newton's cradle);
//  2. resting contacts: every point together, u_n >= 0, P_n >= 0, u_n P_n = 0, with Coulomb
//     friction on a circular cone, by projected Gauss-Seidel warm started from the last step;
//  3. the overlap the step left is taken out of the positions (post-stabilisation): the least
//     displacements along the normals, velocities untouched, so it adds no kinetic energy; the
//     Simulation books what it changes as its own term. Only the bodies with an overlap beyond
//     the slop, and the points they touch at, take part. A slop of 1e-3 of the smaller body's
//     bounding radius is left in, so a resting contact stays found from step to step (Box2D's
//     linear slop, relative here, as scenes range from grains to boulders).
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "core/impulse/contact_system.hpp"
#include "core/impulse/contact_treatment.hpp"

namespace stepwise {

class ImpulseContact {
 public:
  using RigidContact = ForceModel::RigidContact;
  struct Figures {
    int contacts = 0, wall_contacts = 0;  // touching pairs
    int impacts = 0;                      // pairs that got an impact impulse
    int sweeps = 0;                       // of the resting contacts' solve
    double max_depth = 0;                 // overlap before the correction
  };
  // Phases 1 and 2 on the World's velocities. `gained[i]`: the speed the step's forces give body
  // i in one step (a pair closing slower than twice its bodies' is resting, not an impact).
  Figures resolve_velocities(World& world, const ContactTreatment& treatment,
                             const std::vector<RigidContact>& contacts, const VecX& gained);
  // Phase 3 for these contacts (found at the World's positions). Returns whether any body moved.
  bool separate(World& world, const std::vector<RigidContact>& contacts,
                const ContactTreatment& treatment);
  static constexpr double kSlop = 1e-3;  // of the smaller bounding radius
  void reset() {
    warm_.clear();
    resting_.clear();
  }
  // The last resolve's resting contacts as the contact models report theirs (the force network,
  // the Inspector): the normal force is the resting impulse over the step. `contacts` are the
  // ones that resolve was given (nothing is listed if they are not).
  void contact_forces(const std::vector<RigidContact>& contacts, double dt,
                      std::vector<ForceModel::ContactForce>& out) const;
  void contact_points(const std::vector<RigidContact>& contacts, int body, double dt,
                      std::vector<ForceModel::ContactReport>& out) const;
  void save_state(ParamTable& out) const;
  void load_state(const ParamTable& in);

 private:
  using Key = std::tuple<int, int, std::uint64_t>;  // i, j, feature
  int impacts(const ContactTreatment& treatment, const VecX& gained);
  ContactSystem system_;
  std::vector<Key> keys_;    // per row
  std::vector<int> groups_;  // the first row of each pair, then the row count
  // Last step's resting impulses (world frame), sorted by key: looked up by bisection (a map's
  // nodes cost a pile of boxes a few per cent of its step).
  std::vector<std::pair<Key, Vec3>> warm_;
  // The entry of this key, if any; hint: where the last one was found (updated).
  const Vec3* warm_start(const Key& key, size_t& hint) const;
  void sort_warm_starts();
  std::vector<RigidContact> near_;  // separate(): the points it moves bodies apart at
  std::vector<double> resting_;     // per contact of the last resolve: its resting normal impulse
};

}  // namespace stepwise
