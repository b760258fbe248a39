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

#include "core/collision/collision.hpp"
#include "core/contacts/contact_exclusions.hpp"
#include "core/contacts/contact_materials.hpp"
#include "core/contacts/granular_walls.hpp"
#include "core/contacts/neighbor_list.hpp"
#include "core/parallel.hpp"
#include "core/world.hpp"

namespace stepwise {

// A granular evaluation's totals (GranularContacts' tasks and this class add into one).
struct ContactSums {
  double potential = 0, dissipation = 0, external = 0;
  double capped = 0;  // energy the cap or an opening contact took from the tangential springs
  double made = 0;    // energy manifolds' points brought or took as they came and went
  int contacts = 0, walls = 0;
  ContactSums& operator+=(const ContactSums& o) {
    potential += o.potential, dissipation += o.dissipation, external += o.external;
    capped += o.capped, made += o.made, contacts += o.contacts, walls += o.walls;
    return *this;
  }
};

class ShapeContacts {
 public:
  // A point's tangential spring, its feature, and where it acted (arms from each centre), so it
  // can be let go with its slip when the feature stops touching.
  struct FeatureSpring {
    std::uint64_t feature;
    Vec3 xi, arm_i, arm_j;
    double kt = 0;  // laws whose kt varies: the stiffness its energy was booked at
  };

  bool empty() const { return bodies_.empty(); }
  const std::vector<int>& bodies() const { return bodies_; }  // the bodies that are not spheres
  // Whether this class computes the pair (i, j): one of them is not a sphere.
  bool involves(int i, int j) const { return !bodies_.empty() && (slot_[i] >= 0 || slot_[j] >= 0); }

  // After the list was built: the pairs with a body that is not a sphere (their springs carried
  // over), less the excluded ones. Their list slots' gaps become +inf, so the sphere kernels
  // never take them.
  void rebuild(const World& world, const NeighborList& list, int walls, std::vector<double>& gaps,
               const ContactExclusions& exclusions);

  // Every touching point, the law applied, loads added to `out`. Springs change when Commit.
  // The narrow phase runs in tasks over consecutive pairs (with `parallel`); the points are then
  // taken in pair order, so the result is the same bit for bit for any number of threads.
  template <class Law, bool Commit>
  void apply(const StateView& s, const MaterialLaws<Law>& laws, const ContactParams& params,
             const std::vector<WallPlane>& walls, Parallel* parallel, ForceSums& out,
             ContactSums& sums);

  void save_state(ParamTable& out) const;
  void load_state(const ParamTable& in);  // applied at the next rebuild
  // Touching pairs (wall contacts as j = -1 - w) and the normal force of their elastic parts.
  void contact_forces(std::vector<ForceModel::ContactForce>& out) const;
  // The points where `body` touched at the last committed evaluation.
  void contact_points(int body, std::vector<ForceModel::ContactReport>& out) const;

 private:
  struct Pair {
    int i, j;  // j < 0: wall -1 - j
    PairCache cache;
    std::vector<FeatureSpring> springs;
    double normal_force = 0;  // at the last evaluation, for the force network
    // The points that touched at the last committed evaluation (feature, normal energy, depth,
    // approach speed), to book the energy a change of manifold makes or takes.
    struct Touch {
      std::uint64_t feature;
      double energy, depth, speed;
    };
    std::vector<Touch> touched;
  };
  struct Point {  // one manifold point, ready for the law
    Pair* pair;
    ContactPoint contact;
    Vec3 arm_i, arm_j, slip;
    double m_eff, r_eff;
    Vec3 old;
    double old_kt;
    double normal_energy = 0;  // set by the law (Commit)
  };
  struct LawResult {  // a point's, added to the bodies in point order (apply_points)
    Vec3 force, drag, xi;
    double kt;
  };
  // The law at points [4 first, 4 last) in batches of four; each batch's energy and capped sums.
  template <class Law>
  void law_of_points(const StateView& s, const MaterialLaws<Law>& laws, const ContactParams& params,
                     int first, int last);
  template <class Law, bool Commit>
  void apply_points(const StateView& s, const MaterialLaws<Law>& laws, const ContactParams& params,
                    const std::vector<WallPlane>& walls, int tasks, Parallel* parallel,
                    ForceSums& out, ContactSums& sums);
  // After a committed evaluation: the energy the manifolds' changes made (see the .cpp); each
  // pair's touched points become this evaluation's.
  double manifold_jumps(double dt);
  template <class Law>
  static const PairLaw<Law>& law_of(const MaterialLaws<Law>& laws, const World& world,
                                    const Pair& pair);
  // A task's share of the narrow phase: its pairs' points, in pair order.
  struct Task {
    Contacts manifold;
    std::vector<Point> points;
    std::vector<double> released;  // the energy of springs let go (Commit), nonzero, pair order
  };
  template <class Law, bool Commit>
  void collect(const StateView& s, int k, const MaterialLaws<Law>& laws,
               const std::vector<WallPlane>& walls, double dt, Task& task);
  // Body i where it is; spheres need no rotation (no sphere pair function reads it).
  Placement placement(const StateView& s, int i) const {
    return {*s.world.shape[i], s.x.col(i), slot_[i] >= 0 ? rotation_[slot_[i]] : Mat3::Identity()};
  }

  std::vector<int> bodies_;
  std::vector<int> slot_;       // per body: its index in bodies_, or -1 for a sphere
  std::vector<Mat3> rotation_;  // per bodies_ entry, at this evaluation
  std::vector<Pair> pairs_;     // body pairs in list order, then each body against each wall
  // For speed only, so that the thread making an evaluation's sums reads only the pairs that
  // touch, not every pair another thread's task wrote (each such line would cross between the
  // cores every step): each pair's work at the last evaluation in bounding-sphere tests (for the
  // tasks' shares), and the pairs whose touched points are not empty, in order.
  std::vector<int> costs_;
  std::vector<int> touched_pairs_, next_touched_;
  // This evaluation's points in pair order, where the tasks made them (copied into one array,
  // they took the summing thread 4% of a resting pile's step on two threads).
  std::vector<Point*> points_;
  std::vector<LawResult> results_;                     // per point (law_of_points)
  std::vector<std::pair<double, double>> batch_sums_;  // per batch of four points: energy, capped
  std::vector<Task> tasks_;
  std::vector<int> task_bounds_;  // first pair of each task, and the end
  struct Report {                 // a committed point, for contact_points
    int i, j;
    ContactPoint contact;
    double normal_force;
  };
  std::vector<Report> reports_;
  std::vector<FeatureSpring> kept_;
  std::map<std::pair<int, int>, std::vector<FeatureSpring>> pending_;  // loaded, until rebuild
  std::map<std::pair<int, int>, std::vector<Pair::Touch>> pending_touched_;  // loaded, likewise
  // Whether the pairs' touched points are known: not after loading a state written before they
  // were saved, until one evaluation has set them (manifold_jumps books nothing until then).
  bool touched_known_ = true;
};

}  // namespace stepwise

#include "core/contacts/shape_contacts_apply.hpp"
