#pragma once
// Where rigid bodies touch (contact treatment `impulse`): sweep and prune over the bodies'
// bounding spheres, the collision table for the candidate pairs (spheres included, since the
// impulse solver has no sphere kernel) and for each body against each wall.
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "core/collision/collision.hpp"
#include "core/contacts/contact_exclusions.hpp"
#include "core/contacts/sweep_and_prune.hpp"
#include "core/world.hpp"

namespace stepwise {

// A wall as the finder reads it: unit normal into the free side, velocity, and n.x of the plane
// at the time asked about.
struct RigidWall {
  Vec3 normal, velocity;
  double offset;
};

class RigidContactFinder {
 public:
  using RigidContact = ForceModel::RigidContact;
  // mu(i, j): the pair's friction coefficient (j < 0: wall -1 - j).
  using Friction = std::function<double(int i, int j)>;
  // Appends every touching point at the World's state, pairs in order (i < j), then walls.
  void find(const World& world, const std::vector<RigidWall>& walls,
            const ContactExclusions& exclusions, const Friction& mu,
            std::vector<RigidContact>& out);

 private:
  SweepAndPrune sweep_;
  std::vector<int> offsets_, neighbors_;
  std::vector<Mat3> rotation_;
  // Last separating axes per pair, sorted by pair as the sweep lists them (merged, not looked up).
  std::vector<std::pair<std::pair<int, int>, PairCache>> caches_, kept_;
  Contacts manifold_;
};

}  // namespace stepwise
