#pragma once
// A GLFW window with a current OpenGL 4.5 (or 3.3) core context and glad loaded: the visible
// sandbox window, or a hidden one for off-screen recording. No display: InputError (exit 2).
#include <string>

struct GLFWwindow;

namespace stepwise::cli {

GLFWwindow* open_gl_window(int width, int height, bool visible, bool resizable,
                           std::string& gl_version);

}  // namespace stepwise::cli
