#include "app/gui_gl_window.hpp"

#include <algorithm>

#include <glad/gl.h>
// glad first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>

#include "app/icon.hpp"
#include "core/types.hpp"

namespace stepwise::cli {

GLFWwindow* open_gl_window(int width, int height, bool visible, bool resizable,
                           std::string& gl_version) {
  glfwSetErrorCallback([](int, const char*) {});
  if (!glfwInit())
    throw InputError(
        "no display to open a window on (is DISPLAY set?); the headless commands "
        "work without one: stepwise run | sweep | bench | save (see --help)");
  if (width <= 0 || height <= 0) {
    // No --size: 1600x900, or the primary monitor's work area (less a title bar) if smaller, so a
    // 1280x720 or 1024x768 projector gets a window that fits.
    width = 1600, height = 900;
    int x = 0, y = 0, w = 0, h = 0;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
      glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
    if (w > 0 && h > 0)
      width = std::min(width, w), height = std::min(height, std::max(h - 32, 240));
  }
  // 4.5 core, else 3.3 core (the shaders are GLSL 330). MSAA is done in our own framebuffer.
  const int versions[][2] = {{4, 5}, {3, 3}};
  for (const auto& v : versions) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, v[0]);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, v[1]);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, resizable ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(width, height, "stepwise", nullptr, nullptr);
    if (window) {
      glfwMakeContextCurrent(window);
      if (!gladLoadGL(glfwGetProcAddress)) {
        glfwDestroyWindow(window);
        continue;
      }
      if (visible) {  // the task bar's and title bar's icon: the installed icon's own drawing
        Image small = icon_image(32), large = icon_image(64);
        GLFWimage icons[2] = {{32, 32, small.rgba.data()}, {64, 64, large.rgba.data()}};
        glfwSetWindowIcon(window, 2, icons);
      }
      gl_version = std::to_string(v[0]) + "." + std::to_string(v[1]) + " core, " +
                   reinterpret_cast<const char*>(glGetString(GL_RENDERER));
      return window;
    }
  }
  glfwTerminate();
  throw InputError(
      "could not create an OpenGL 3.3+ core window on this display; the headless "
      "commands work without one: stepwise run | sweep | bench | save");
}

}  // namespace stepwise::cli
