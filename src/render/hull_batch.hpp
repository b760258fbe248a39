#pragma once
// Convex polyhedra drawn instanced: one vertex array per distinct hull (flat-shaded triangles in
// its body frame), one draw call per hull whatever the number of bodies that have it. They share
// the box shader (a box is a hull scaled from the unit cube; a hull is drawn at scale 1).
#include <memory>
#include <vector>

#include "render/batches.hpp"
#include "runtime/snapshot.hpp"

namespace stepwise {

class HullBatch {
 public:
  HullBatch();
  ~HullBatch();
  // Uploads the meshes that differ from the ones held (a scene load changes them, a step not).
  void set_meshes(const std::vector<std::vector<Float3>>& meshes);
  // instances[m]: the bodies drawn with mesh m (half_extents 1). Returns the draw calls made.
  int draw(const std::vector<std::vector<BoxDraw>>& instances, const FrameUniforms& u);

 private:
  struct Mesh;
  GlProgram program_;
  std::vector<std::unique_ptr<Mesh>> meshes_;
};

// Farthest corner of a mesh from its body origin (shadows, framing).
float mesh_radius(const std::vector<Float3>& triangles);

}  // namespace stepwise
