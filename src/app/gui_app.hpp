#pragma once
// The window: GLFW + OpenGL + ImGui around a PhysicsWorker. `stepwise`, `stepwise SCENE` and
// `stepwise gui SCENE [--frames N --screenshot FILE]` all come here.
#include <optional>
#include <string>
#include <vector>

#include "app/commands.hpp"

namespace stepwise::cli {



// Built-in default: what the window opens on the first time.
inline constexpr const char* kDefaultGuiScene = "cube-chain";

}  // namespace stepwise::cli
