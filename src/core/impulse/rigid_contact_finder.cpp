#include "core/impulse/rigid_contact_finder.hpp"

namespace stepwise {

void RigidContactFinder::find(const World& world, const std::vector<RigidWall>& walls,
                              const ContactExclusions& exclusions, const Friction& mu,
                              std::vector<RigidContact>& out) {
  const int n = world.size();
  rotation_.resize(n);
  for (int i = 0; i < n; ++i) rotation_[i] = world.q[i].toRotationMatrix();
  auto placed = [&](int i) { return Placement{*world.shape[i], world.x.col(i), rotation_[i]}; };
  const CollisionTable& table = CollisionTable::instance();
  // Touching only: a zero margin (the bounding spheres must overlap).
  sweep_.pairs(world.x, world.radius, 0.0, offsets_, neighbors_);
  kept_.clear();
  size_t old = 0;  // walks caches_ alongside: both are in (i, j) order
  for (int i = 0; i < n; ++i)
    for (int k = offsets_[i]; k < offsets_[i + 1]; ++k) {
      const int j = neighbors_[k];
      if (world.inv_mass(i) == 0 && world.inv_mass(j) == 0) continue;  // nothing to move
      if (exclusions.excluded(i, j)) continue;
      const std::pair<int, int> pair{i, j};
      while (old < caches_.size() && caches_[old].first < pair) ++old;
      PairCache cache =
          old < caches_.size() && caches_[old].first == pair ? caches_[old].second : PairCache{};
      manifold_.clear();
      table.collide(placed(i), placed(j), cache, manifold_);
      kept_.push_back({pair, cache});
      if (manifold_.empty()) continue;
      const double friction = mu(i, j);
      for (const ContactPoint& c : manifold_)
        out.push_back({i, j, c.position, c.normal, c.depth, c.feature, friction, Vec3::Zero()});
    }
  caches_.swap(kept_);
  for (int i = 0; i < n; ++i) {
    if (world.inv_mass(i) == 0) continue;
    for (size_t w = 0; w < walls.size(); ++w) {
      const RigidWall& wall = walls[w];
      // The bounding sphere first: most bodies are far from most walls.
      if (wall.normal.dot(world.x.col(i)) - wall.offset >= world.radius(i)) continue;
      manifold_.clear();
      table.collide_wall(placed(i), wall.normal, wall.offset, manifold_);
      const int j = -1 - int(w);
      if (manifold_.empty()) continue;
      const double friction = mu(i, j);
      for (const ContactPoint& c : manifold_)
        out.push_back({i, j, c.position, c.normal, c.depth, c.feature, friction, wall.velocity});
    }
  }
}

}  // namespace stepwise
