#pragma once
// The granular laws for bodies that are not spheres: the pairs of the neighbour list with a box,
// polyhedron or clump in them, and those bodies against the walls, go through the collision
// table (core/collision) and the law acts at every point of the manifold, with the same
// spring-dashpot, Coulomb cap and booking as the sphere kernels (spring_dashpot). Each point's
// tangential spring is kept per (pair, feature), so friction holds while the same corner or edge
// touches. Spheres against spheres never come here: a World of spheres costs nothing extra.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/collision/collision.hpp"
#include "core/contacts/granular_walls.hpp"
#include "core/contacts/neighbor_list.hpp"
#include "core/world.hpp"

namespace stepwise {

struct ShapeContactSums {
  double potential = 0, dissipation = 0, external = 0, capped = 0;
  int contacts = 0, walls = 0;
};

class ShapeContacts {
 public:
  // A point's tangential spring, its feature, and where it acted (arms from each centre), so it
  // can be let go with its slip when the feature stops touching.
  struct FeatureSpring {
    std::uint64_t feature;
    Vec3 xi, arm_i, arm_j;
  };

  bool empty() const { return bodies_.empty(); }
  const std::vector<int>& bodies() const { return bodies_; }  // the bodies that are not spheres

  // After the list was built: the pairs with a body that is not a sphere (their springs carried
  // over); `slot_is_shape[k]` set for their list slots, which the sphere kernels skip.
  void rebuild(const World& world, const NeighborList& list, int walls,
               std::vector<char>& slot_is_shape);

  // Every touching point, the law applied, loads added to `out`. Springs change when Commit.
  template <class Law, bool Commit>
  void apply(const StateView& s, const Law& law, const ContactParams& params,
             const std::vector<WallPlane>& walls, ForceSums& out, ShapeContactSums& sums);

  void save_state(ParamTable& out) const;
  void load_state(const ParamTable& in);  // applied at the next rebuild
  // Touching pairs (wall contacts as j = -1 - w) and the normal force of their elastic parts.
  void contact_forces(std::vector<ForceModel::ContactForce>& out) const;

 private:
  struct Pair {
    int i, j;  // j < 0: wall -1 - j
    PairCache cache;
    std::vector<FeatureSpring> springs;
    double normal_force = 0;  // at the last evaluation, for the force network
  };
  struct Point {  // one manifold point, ready for the law
    Pair* pair;
    ContactPoint contact;
    Vec3 arm_i, arm_j, slip;
    double m_eff, r_eff;
    Vec3 old;
  };
  template <class Law, bool Commit>
  void apply_points(const StateView& s, const Law& law, const ContactParams& params,
                    const std::vector<WallPlane>& walls, ForceSums& out, ShapeContactSums& sums);
  template <bool Commit>
  void collect(const StateView& s, Pair& pair, const std::vector<WallPlane>& walls,
               double release_kt, double dt, ShapeContactSums& sums);

  std::vector<int> bodies_;
  std::vector<Pair> pairs_;  // body pairs in list order, then each body against each wall
  std::vector<Point> points_;
  Contacts manifold_;
  std::vector<FeatureSpring> kept_;
  std::map<std::pair<int, int>, std::vector<FeatureSpring>> pending_;  // loaded, until rebuild
};

}  // namespace stepwise

#include "core/contacts/shape_contacts_apply.hpp"
