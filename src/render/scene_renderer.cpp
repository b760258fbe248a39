#include "render/scene_renderer.hpp"

#include <algorithm>
#include <cmath>

#include "render/to_glm.hpp"

namespace stepwise {
namespace {

const glm::vec3 kLightWorld = glm::normalize(glm::vec3(0.45f, 0.25f, 1.0f));
const glm::vec4 kBackground(0.115f, 0.125f, 0.15f, 1.0f);

float nice_step(float extent) {
  const float raw = std::max(extent / 12.0f, 1e-6f);
  const float decade = std::pow(10.0f, std::floor(std::log10(raw)));
  for (float m : {1.0f, 2.0f, 5.0f})
    if (m * decade >= raw) return m * decade;
  return 10.0f * decade;
}

glm::vec4 bond_orientation(const glm::vec3& from, const glm::vec3& to) {
  const glm::vec3 axis = to - from;
  const float length = glm::length(axis);
  if (!(length > 0)) return {1, 0, 0, 0};
  // The shortest rotation taking +x onto the bond: (1 + x.d, x × d), normalised.
  const glm::vec3 d = axis / length;
  if (d.x < -0.9999f) return {0, 0, 0, 1};
  const glm::vec4 q(1.0f + d.x, 0.0f, -d.z, d.y);
  return q / glm::length(q);
}

}  // namespace

void Bounds::add(const glm::vec3& p, float r) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return;
  if (empty) {
    low = p - r;
    high = p + r;
    empty = false;
  } else {
    low = glm::min(low, p - r);
    high = glm::max(high, p + r);
  }
}

Bounds snapshot_bounds(const Snapshot& s) {
  Bounds b;
  for (const SphereInstance& sphere : s.spheres) b.add(to_glm(sphere.position), sphere.radius);
  float largest = 0;
  for (const SphereInstance& sphere : s.spheres) largest = std::max(largest, sphere.radius);
  for (const BoxInstance& box : s.boxes) {
    b.add(to_glm(box.position), glm::length(to_glm(box.half_extents)));
    largest = std::max(largest, glm::length(to_glm(box.half_extents)));
  }
  std::vector<float> mesh_size;
  for (const auto& mesh : s.meshes) mesh_size.push_back(mesh_radius(mesh));
  for (const HullInstance& hull : s.hulls) {
    const float r = hull.mesh < int(mesh_size.size()) ? mesh_size[hull.mesh] : 0.0f;
    b.add(to_glm(hull.position), r);
    largest = std::max(largest, r);
  }
  // Context: what the bodies hang from, fall onto or orbit, and never less than a few body sizes.
  for (const auto& spring : s.springs) b.add(to_glm(spring[1]), 0);
  for (const Float3& centre : s.centres) b.add(to_glm(centre), 0);
  // A 2-D scene's walls are lines that bound it (a table's cushions, a box): all in view.
  if (s.dimensions == 2)
    for (const ShownWall& wall : s.walls) b.add(to_glm(wall.point), 0);
  for (const ShownWall& wall : s.walls)
    if (wall.normal[2] > 0.99f && !b.empty)
      b.add(glm::vec3(0.5f * (b.low.x + b.high.x), 0.5f * (b.low.y + b.high.y), wall.point[2]), 0);
  if (b.empty) b.add(glm::vec3(0), 1);
  const glm::vec3 centre = 0.5f * (b.low + b.high);
  b.add(centre, 4.0f * largest);
  return b;
}

SceneRenderer::SceneRenderer()
    : spheres_(std::make_unique<SphereBatch>()),
      boxes_(std::make_unique<BoxBatch>()),
      hulls_(std::make_unique<HullBatch>()),
      shadows_(std::make_unique<ShadowBatch>()),
      lines_(std::make_unique<LineBatch>()) {}

SceneRenderer::~SceneRenderer() = default;

glm::vec4 SceneRenderer::comparison_tint(int k) {
  static const glm::vec4 tints[] = {
      {0.3f, 0.95f, 1.0f, 0.45f}, {1.0f, 0.4f, 0.95f, 0.45f}, {1.0f, 0.95f, 0.3f, 0.45f}};
  return tints[k % 3];
}

void SceneRenderer::build_bodies(const Snapshot& s, const ViewOptions& o) {
  scale_ = body_colours(s, o.colour_by, body_colour_);
  auto colour_of = [&](int body) {
    glm::vec4 c = body_colour_[body];
    if (o.tint != glm::vec4(1))
      c = glm::vec4(glm::mix(glm::vec3(c), glm::vec3(o.tint), 0.65f), o.tint.a);
    if (body == o.selected || body == s.dragged_body)
      c = glm::vec4(glm::mix(glm::vec3(c), glm::vec3(1), 0.45f), c.a);
    if (o.highlight_stiffest && (body == s.stiffest_i || body == s.stiffest_j))
      c = glm::vec4(1.0f, 0.85f, 0.1f, c.a);
    return c;
  };
  sphere_draws_.clear();
  box_draws_.clear();
  casters_.clear();
  for (const SphereInstance& sphere : s.spheres) {
    sphere_draws_.push_back(
        {glm::vec4(to_glm(sphere.position), sphere.radius), colour_of(sphere.body)});
    casters_.emplace_back(to_glm(sphere.position), sphere.radius);
  }
  for (const BoxInstance& box : s.boxes) {
    const glm::vec3 half = to_glm(box.half_extents);
    box_draws_.push_back(
        {to_glm(box.position),
         glm::vec4(box.orientation[0], box.orientation[1], box.orientation[2], box.orientation[3]),
         half, colour_of(box.body)});
    casters_.emplace_back(to_glm(box.position), std::max({half.x, half.y, half.z}));
  }
  for (auto& draws : hull_draws_) draws.clear();
  hull_draws_.resize(s.meshes.size());
  mesh_radius_.resize(s.meshes.size());
  for (size_t m = 0; m < s.meshes.size(); ++m) mesh_radius_[m] = mesh_radius(s.meshes[m]);
  for (const HullInstance& hull : s.hulls) {
    if (hull.mesh < 0 || hull.mesh >= int(s.meshes.size())) continue;
    const Float4& q = hull.orientation;
    hull_draws_[hull.mesh].push_back({to_glm(hull.position), glm::vec4(q[0], q[1], q[2], q[3]),
                                      glm::vec3(1), colour_of(hull.body)});
    casters_.emplace_back(to_glm(hull.position), mesh_radius_[hull.mesh]);
  }
  bond_draws_.clear();
  // Springs as slim grey bars, field centres as small suns.
  float smallest = 1e30f;
  for (const SphereInstance& sphere : s.spheres) smallest = std::min(smallest, sphere.radius);
  if (smallest > 1e29f) smallest = 0.05f;
  for (const auto& spring : s.springs) {
    const glm::vec3 a = to_glm(spring[0]), b = to_glm(spring[1]);
    bond_draws_.push_back({0.5f * (a + b), bond_orientation(a, b),
                           glm::vec3(0.5f * glm::length(b - a), 0.25f * smallest, 0.25f * smallest),
                           glm::vec4(0.75f, 0.77f, 0.8f, 1.0f) * o.tint});
  }
  if (o.force_network && !s.contacts.empty()) {
    float strongest = 0;
    for (const auto& c : s.contacts) strongest = std::max(strongest, c.force);
    for (const auto& c : s.contacts) {
      if (c.i >= s.bodies || c.j >= s.bodies || !(strongest > 0)) continue;
      const float load = c.force / strongest;
      const glm::vec3 a = to_glm(s.position[c.i]), b = to_glm(s.position[c.j]);
      const float width = smallest * (0.05f + 0.35f * std::sqrt(load));
      bond_draws_.push_back({0.5f * (a + b), bond_orientation(a, b),
                             glm::vec3(0.5f * glm::length(b - a), width, width),
                             glm::vec4(load_colour(load), 1.0f)});
    }
  }
  for (const Float3& centre : s.centres)
    sphere_draws_.push_back(
        {glm::vec4(to_glm(centre), 0.6f * smallest), glm::vec4(1.0f, 0.86f, 0.35f, 1.0f)});
  if (!o.bonds) return;
  auto body_size = [&](int i) {
    float size = 0;
    for (const SphereInstance& sphere : s.spheres)
      if (sphere.body == i) return sphere.radius;
    for (const BoxInstance& box : s.boxes)
      if (box.body == i)
        size = std::min({box.half_extents[0], box.half_extents[1], box.half_extents[2]});
    return size;
  };
  float width = -1;
  for (size_t k = 0; k < s.bonds.size(); ++k) {
    const BondLine& bond = s.bonds[k];
    if (bond.broken || bond.i >= s.bodies || bond.j >= s.bodies) continue;
    if (width < 0) width = 0.18f * std::max(std::min(body_size(bond.i), body_size(bond.j)), 1e-4f);
    const glm::vec3 a = to_glm(s.position[bond.j]), b = to_glm(s.position[bond.i]);
    const bool picked = int(k) == o.highlight_bond;
    const float w = picked ? 2.2f * width : width;
    bond_draws_.push_back({0.5f * (a + b), bond_orientation(a, b),
                           glm::vec3(0.5f * glm::length(b - a), w, w),
                           picked ? glm::vec4(0.2f, 1.0f, 1.0f, 1.0f)
                                  : glm::vec4(load_colour(bond.load), 1.0f) * o.tint});
  }
}

void SceneRenderer::update_trails(const Snapshot& s) {
  constexpr int kMaxBodies = 32;
  constexpr size_t kLength = 1500;
  if (s.bodies > kMaxBodies || s.bodies == 0) {
    trails_.clear();
    return;
  }
  if (int(trails_.size()) != s.bodies || s.time < trail_time_) {
    trails_.assign(s.bodies, std::vector<glm::vec3>(kLength));
    trail_head_ = trail_length_ = 0;
  }
  if (s.time == trail_time_) return;
  trail_time_ = s.time;
  for (int i = 0; i < s.bodies; ++i) trails_[i][trail_head_] = to_glm(s.position[i]);
  trail_head_ = (trail_head_ + 1) % kLength;
  trail_length_ = std::min(trail_length_ + 1, kLength);
}

void SceneRenderer::build_environment(const Snapshot& s, const ViewOptions& o, float floor_z) {
  line_vertices_.clear();
  triangle_vertices_.clear();
  overlay_lines_.clear();
  const Bounds& b = sticky_bounds_;
  const glm::vec3 centre = 0.5f * (b.low + b.high), half = 0.5f * (b.high - b.low);
  const float extent = std::max({half.x, half.y, half.z, 1e-3f});
  if (o.grid) {
    const float step = nice_step(2.5f * extent);
    const float reach = std::ceil(1.6f * extent / step) * step;
    const float cx = std::round(centre.x / step) * step, cy = std::round(centre.y / step) * step;
    const glm::vec4 floor_colour(0.20f, 0.215f, 0.25f, 1.0f),
        grid_colour(0.34f, 0.36f, 0.41f, 1.0f);
    const glm::vec3 corners[4] = {{cx - reach, cy - reach, floor_z},
                                  {cx + reach, cy - reach, floor_z},
                                  {cx + reach, cy + reach, floor_z},
                                  {cx - reach, cy + reach, floor_z}};
    for (int k : {0, 1, 2, 0, 2, 3}) triangle_vertices_.push_back({corners[k], floor_colour});
    const float lift = 1e-4f * extent;
    for (float d = -reach; d <= reach + 0.5f * step; d += step) {
      line_vertices_.push_back({{cx + d, cy - reach, floor_z + lift}, grid_colour});
      line_vertices_.push_back({{cx + d, cy + reach, floor_z + lift}, grid_colour});
      line_vertices_.push_back({{cx - reach, cy + d, floor_z + lift}, grid_colour});
      line_vertices_.push_back({{cx + reach, cy + d, floor_z + lift}, grid_colour});
    }
  }
  if (o.walls) {
    for (const ShownWall& wall : s.walls) {
      const glm::vec3 n = glm::normalize(to_glm(wall.normal)), p = to_glm(wall.point);
      if (n.z > 0.99f) continue;  // the floor is drawn as the grid
      if (s.dimensions == 2) {  // a line of the plane: a band along it on the far side
        const glm::vec3 along(-n.y, n.x, 0), c = centre - glm::dot(centre - p, n) * n;
        const float length = glm::dot(glm::abs(along), half) * 1.3f + 0.05f * extent;
        const float depth = 0.04f * extent, z = floor_z + 2e-4f * extent;
        const glm::vec3 a = glm::vec3(c.x, c.y, z) - length * along, b = a + 2.0f * length * along;
        const glm::vec3 q[4] = {a, b, b - depth * n, a - depth * n};
        const glm::vec4 fill(0.55f, 0.65f, 0.8f, 0.35f), edge(0.7f, 0.8f, 0.95f, 1.0f);
        for (int k : {0, 1, 2, 0, 2, 3}) triangle_vertices_.push_back({q[k], fill});
        line_vertices_.push_back({q[0], edge});
        line_vertices_.push_back({q[1], edge});
        continue;
      }
      const glm::vec3 helper = std::abs(n.z) < 0.9f ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0);
      const glm::vec3 t1 = glm::normalize(glm::cross(n, helper)), t2 = glm::cross(n, t1);
      auto reach = [&](const glm::vec3& t) { return glm::dot(glm::abs(t), half) * 1.02f; };
      const glm::vec3 c = centre - glm::dot(centre - p, n) * n;
      const glm::vec3 u = reach(t1) * t1, v = reach(t2) * t2;
      const glm::vec3 q[4] = {c - u - v, c + u - v, c + u + v, c - u + v};
      const glm::vec4 fill(0.55f, 0.65f, 0.8f, 0.10f), edge(0.6f, 0.7f, 0.85f, 0.6f);
      for (int k : {0, 1, 2, 0, 2, 3}) triangle_vertices_.push_back({q[k], fill});
      for (int k = 0; k < 4; ++k) {
        line_vertices_.push_back({q[k], edge});
        line_vertices_.push_back({q[(k + 1) % 4], edge});
      }
    }
  }
  // Disks' spokes, drawn just above each disk's top so the view from above sees them turn.
  for (const auto& spoke : s.spokes) {
    const glm::vec3 a = to_glm(spoke[0]), b = to_glm(spoke[1]);
    const float lift = 1.02f * glm::length(b - a);
    const glm::vec4 ink(0.08f, 0.08f, 0.1f, 0.9f);
    line_vertices_.push_back({a + glm::vec3(0, 0, lift), ink});
    line_vertices_.push_back({b + glm::vec3(0, 0, lift), ink});
  }
  if (o.trails && !trails_.empty()) {
    const size_t length = trails_[0].size();
    for (size_t b = 0; b < trails_.size(); ++b) {
      const glm::vec3 colour = glm::mix(glm::vec3(body_colour_[b]), glm::vec3(1), 0.3f);
      for (size_t k = 1; k < trail_length_; ++k) {
        const size_t i0 = (trail_head_ + length - trail_length_ + k - 1) % length;
        const size_t i1 = (i0 + 1) % length;
        const float fade = float(k) / float(trail_length_);
        line_vertices_.push_back({trails_[b][i0], glm::vec4(colour, 0.8f * fade)});
        line_vertices_.push_back({trails_[b][i1], glm::vec4(colour, 0.8f * fade)});
      }
    }
  }
  if (o.highlight_stiffest && s.stiffest_i >= 0 && s.stiffest_j >= 0 && s.stiffest_i < s.bodies &&
      s.stiffest_j < s.bodies) {
    const glm::vec4 mark(1.0f, 0.85f, 0.1f, 1.0f);
    overlay_lines_.push_back({to_glm(s.position[s.stiffest_i]), mark});
    overlay_lines_.push_back({to_glm(s.position[s.stiffest_j]), mark});
  }
  if (o.pull_body >= 0 && o.pull_body < s.bodies) {
    const glm::vec4 pull(1.0f, 0.55f, 0.15f, 1.0f);
    overlay_lines_.push_back({to_glm(s.position[o.pull_body]), pull});
    overlay_lines_.push_back({o.pull_target, pull});
  }
  // The inspected body's contact points: a cross at each, and its normal (out of the other).
  if (o.selected >= 0 && o.selected == s.inspected) {
    const float size = 0.03f * extent;
    const glm::vec4 mark(1.0f, 0.3f, 0.85f, 1.0f);
    for (const Snapshot::ContactMark& c : s.inspected_contacts) {
      const glm::vec3 p = to_glm(c.position), n = to_glm(c.normal);
      for (const glm::vec3& axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)}) {
        overlay_lines_.push_back({p - size * axis, mark});
        overlay_lines_.push_back({p + size * axis, mark});
      }
      overlay_lines_.push_back({p, mark});
      overlay_lines_.push_back({p + 3.0f * size * n, mark});
    }
  }
  if (s.dragged_body >= 0 && s.dragged_body < s.bodies) {
    const glm::vec4 pull(1.0f, 0.85f, 0.2f, 1.0f);
    overlay_lines_.push_back({to_glm(s.position[s.dragged_body]), pull});
    overlay_lines_.push_back({to_glm(s.drag_target), pull});
  }
}

RenderStats SceneRenderer::draw(const Snapshot& s, const Camera& camera, const ViewOptions& o,
                                FrameTarget& target) {
  RenderStats stats;
  target.bind_for_drawing();
  glClearColor(kBackground.r, kBackground.g, kBackground.b, kBackground.a);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDisable(GL_CULL_FACE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);

  if (s.scene_generation != bounds_generation_) {
    sticky_bounds_ = Bounds{};
    bounds_generation_ = s.scene_generation;
    trails_.clear();
  }
  const Bounds now = snapshot_bounds(s);
  sticky_bounds_.add(now.low, 0);
  sticky_bounds_.add(now.high, 0);
  float floor_z =
      sticky_bounds_.low.z - 0.02f * glm::length(sticky_bounds_.high - sticky_bounds_.low);
  for (const ShownWall& wall : s.walls)
    if (wall.normal[2] > 0.99f) floor_z = wall.point[2];
  const bool plane = s.dimensions == 2;
  if (plane) floor_z = sticky_bounds_.low.z - 0.01f;  // the grid is the paper behind the plane
  FrameUniforms u;
  u.view = camera.view();
  u.projection = camera.projection(float(target.width()) / float(target.height()));
  u.light_world = kLightWorld;
  u.light_view = glm::normalize(glm::mat3(u.view) * kLightWorld);

  update_trails(s);
  build_bodies(s, o);
  build_environment(s, o, floor_z);
  // Opaque floor, then shadows on it (no depth writes), then bodies, then translucent walls.
  std::vector<LineVertex> floor(
      triangle_vertices_.begin(),
      triangle_vertices_.begin() + (o.grid ? std::min<size_t>(6, triangle_vertices_.size()) : 0));
  stats.draw_calls += lines_->draw(floor, GL_TRIANGLES, u);
  stats.draw_calls += lines_->draw(line_vertices_, GL_LINES, u);
  if (o.shadows && !plane) {  // seen from straight above, a shadow would only hide the disk
    glDepthMask(GL_FALSE);
    stats.draw_calls += shadows_->draw(casters_, floor_z, u);
    glDepthMask(GL_TRUE);
  }
  stats.draw_calls += spheres_->draw(sphere_draws_, u);
  stats.draw_calls += boxes_->draw(box_draws_, u);
  hulls_->set_meshes(s.meshes);
  stats.draw_calls += hulls_->draw(hull_draws_, u);
  if (o.bonds_on_top || (o.force_network && !s.contacts.empty())) glClear(GL_DEPTH_BUFFER_BIT);
  stats.draw_calls += boxes_->draw(bond_draws_, u);
  if (triangle_vertices_.size() > floor.size()) {
    glDepthMask(GL_FALSE);
    std::vector<LineVertex> walls(triangle_vertices_.begin() + floor.size(),
                                  triangle_vertices_.end());
    stats.draw_calls += lines_->draw(walls, GL_TRIANGLES, u);
    glDepthMask(GL_TRUE);
  }
  // Comparison runs: the same scene under other methods, as tinted ghosts over the main run.
  if (o.ghosts && !s.comparisons.empty()) {
    const ColourScale main_scale = scale_;
    glDepthMask(GL_FALSE);
    for (size_t k = 0; k < s.comparisons.size(); ++k) {
      ViewOptions ghost = o;
      ghost.tint = comparison_tint(int(k));
      ghost.selected = -1;
      build_bodies(s.comparisons[k], ghost);
      stats.draw_calls += spheres_->draw(sphere_draws_, u);
      stats.draw_calls += boxes_->draw(box_draws_, u);
      hulls_->set_meshes(s.comparisons[k].meshes);
      stats.draw_calls += hulls_->draw(hull_draws_, u);
      stats.draw_calls += boxes_->draw(bond_draws_, u);
    }
    glDepthMask(GL_TRUE);
    scale_ = main_scale;
  }
  glDisable(GL_DEPTH_TEST);
  stats.draw_calls += lines_->draw(overlay_lines_, GL_LINES, u);
  glEnable(GL_DEPTH_TEST);

  target.resolve();
  stats.spheres = int(sphere_draws_.size());
  stats.boxes = int(box_draws_.size());
  stats.hulls = int(s.hulls.size());
  stats.bonds = int(bond_draws_.size());
  return stats;
}

}  // namespace stepwise
