#pragma once
// Draws one snapshot: bodies, bonds, walls, floor grid, shadows and the pull spring, into a
// FrameTarget. A handful of draw calls whatever the number of bodies.
#include <memory>

#include "render/batches.hpp"
#include "render/camera.hpp"
#include "render/colour_map.hpp"
#include "render/frame_target.hpp"
#include "render/hull_batch.hpp"

namespace stepwise {

struct ViewOptions {
  ColourBy colour_by = ColourBy::Id;
  bool shadows = true, bonds = true, walls = true, grid = true;
  bool bonds_on_top = false;        // draw bonds through the bodies that hide them
  bool trails = true;               // fading paths of the last positions (scenes of few bodies)
  bool force_network = false;       // contacts as bars between centres, width and colour by force
  bool highlight_stiffest = false;  // the bodies (and link) that set the critical time step
  int selected = -1;
  glm::vec4 tint{1, 1, 1, 1};  // multiplies body colours (ghost runs)
  bool ghosts = true;          // draw the comparison runs, translucent and tinted
  int pull_body = -1;          // a body being pulled: a line from it to the hand
  int highlight_bond = -1;     // a bond picked in the Bonds table, drawn bright and thick
  glm::vec3 pull_target{0};
};

struct RenderStats {
  int draw_calls = 0;
  int spheres = 0, boxes = 0, hulls = 0, bonds = 0;
};

struct Bounds {
  glm::vec3 low{0}, high{0};
  bool empty = true;
  void add(const glm::vec3& p, float r);
};
Bounds snapshot_bounds(const Snapshot& s);

class SceneRenderer {
 public:
  SceneRenderer();
  ~SceneRenderer();
  // Clears the target and draws the scene. `ghosts` are extra snapshots drawn translucent.
  RenderStats draw(const Snapshot& s, const Camera& camera, const ViewOptions& options,
                   FrameTarget& target);
  const ColourScale& colour_scale() const { return scale_; }
  static glm::vec4 comparison_tint(int k);  // the colour of comparison run k (0-based)

 private:
  void build_bodies(const Snapshot& s, const ViewOptions& o);
  void build_environment(const Snapshot& s, const ViewOptions& o, float floor_z);

  std::unique_ptr<SphereBatch> spheres_;
  std::unique_ptr<BoxBatch> boxes_;
  std::unique_ptr<HullBatch> hulls_;
  std::unique_ptr<ShadowBatch> shadows_;
  std::unique_ptr<LineBatch> lines_;
  std::vector<glm::vec4> body_colour_;
  std::vector<SphereDraw> sphere_draws_;
  std::vector<BoxDraw> box_draws_, bond_draws_;
  std::vector<std::vector<BoxDraw>> hull_draws_;  // per mesh of the snapshot
  std::vector<float> mesh_radius_;
  std::vector<glm::vec4> casters_;
  std::vector<LineVertex> line_vertices_, triangle_vertices_, overlay_lines_;
  ColourScale scale_;
  std::uint64_t bounds_generation_ = ~0ull;
  Bounds sticky_bounds_;  // everything the scene has occupied since it was loaded
  void update_trails(const Snapshot& s);
  std::vector<std::vector<glm::vec3>> trails_;  // ring buffers, one per body
  size_t trail_head_ = 0, trail_length_ = 0;
  double trail_time_ = -1;
};

}  // namespace stepwise
