#include "core/contacts/contact_reports.hpp"

namespace stepwise {

void sphere_contact_forces(const World& world, const NeighborList& list,
                           const ShapeContacts& shapes, const ElasticForce& elastic,
                           std::vector<ForceModel::ContactForce>& out) {
  const auto& offsets = list.offsets();
  const auto& neighbors = list.neighbors();
  for (int i = 0; i + 1 < int(offsets.size()) && i < world.size(); ++i)
    for (int k = offsets[i]; k < offsets[i + 1]; ++k) {
      const int j = neighbors[k];
      if (shapes.involves(i, j)) continue;  // shapes reports those
      const double reach = world.radius(i) + world.radius(j);
      const double r = (world.x.col(i) - world.x.col(j)).norm();
      if (r < reach)
        out.push_back({i, j, elastic(reach - r, world.radius(i) * world.radius(j) / reach)});
    }
}

void sphere_contact_points(const World& world, int body, const NeighborList& list,
                           const std::vector<WallPlane>& walls, const ShapeContacts& shapes,
                           const ElasticForce& elastic,
                           std::vector<ForceModel::ContactReport>& out) {
  if (body < 0 || body >= world.size() || body >= list.size()) return;
  const auto& offsets = list.offsets();
  const auto& neighbors = list.neighbors();
  auto pair = [&](int j) {
    if (shapes.involves(body, j)) return;
    const double ri = world.radius(body), rj = world.radius(j), reach = ri + rj;
    const Vec3 d = world.x.col(body) - world.x.col(j);
    const double r = d.norm();
    if (!(r < reach) || r == 0) return;
    const Vec3 n = d / r;  // pushes body out of j
    const double delta = reach - r;
    out.push_back(
        {j, world.x.col(j) + (rj - 0.5 * delta) * n, n, delta, elastic(delta, ri * rj / reach)});
  };
  // The half list holds (i, j > i): body's own row, and the rows before it that name it.
  for (int i = 0; i < body; ++i)
    for (int k = offsets[i]; k < offsets[i + 1]; ++k)
      if (neighbors[k] == body) pair(i);
  for (int k = offsets[body]; k < offsets[body + 1]; ++k) pair(neighbors[k]);
  if (world.shape[body]->type() != sphere_type()) return;  // shapes reports its walls
  const double r = world.radius(body);
  for (size_t w = 0; w < walls.size(); ++w) {
    const double gap = walls[w].normal.dot(world.x.col(body)) - walls[w].offset - r;
    if (gap < 0)
      out.push_back({-1 - int(w), world.x.col(body) - (r + 0.5 * gap) * walls[w].normal,
                     walls[w].normal, -gap, elastic(-gap, r)});
  }
}

}  // namespace stepwise
