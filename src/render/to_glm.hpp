// A snapshot's float triple as GLM's vector (the renderer's maths).
#pragma once

#include <glm/glm.hpp>

#include "runtime/snapshot.hpp"

namespace stepwise {

inline glm::vec3 to_glm(const Float3& v) {
  return {v[0], v[1], v[2]};
}

}  // namespace stepwise
