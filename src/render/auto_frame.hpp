#pragma once
// Keeps a scene in view: frames it when loaded, then widens the view whenever bodies leave the
// framed box (orbits, falls), until the user takes the camera. Depends only on the states seen,
// so recordings frame the same way every time.
#include "render/camera.hpp"
#include "render/scene_renderer.hpp"

namespace stepwise {

class AutoFrame {
 public:
  void reset(const Snapshot& s, Camera& camera);
  void update(const Snapshot& s, Camera& camera);
  bool enabled = true;

 private:
  Bounds framed_;
};

}  // namespace stepwise
