// The live number field driven through ImGui without a window: keystrokes go in as a user's
// would, and what the field applies is counted. Typing 5000 must be one edit, not four.
#include <doctest/doctest.h>
#include <imgui.h>

#include <string>

#include "ui/number_field.hpp"

using namespace stepwise;

namespace {

constexpr int kEnter = 257, kA = 65;

struct Headless {
  FieldEdits edits;
  std::string message;
  int commits = 0;
  double applied = 0;

  Headless() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800, 600);
    io.DeltaTime = 1.0f / 60;
    io.IniFilename = nullptr;
    io.KeyMap[ImGuiKey_Enter] = kEnter;
    io.KeyMap[ImGuiKey_A] = kA;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  }
  ~Headless() { ImGui::DestroyContext(); }

  // One frame of a window holding the field (focused first if asked).
  void frame(double current, bool focus = false) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(300, 100));
    ImGui::Begin("panel");
    if (focus) ImGui::SetKeyboardFocusHere();
    double value = 0;
    if (number_field("kn", current, 0, 1e6, edits, value, message)) ++commits, applied = value;
    ImGui::End();
    ImGui::Render();
  }
  void type(const std::string& text, double current) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = true, io.KeysDown[kA] = true;  // select what the field shows
    frame(current);
    io.KeyCtrl = false, io.KeysDown[kA] = false;
    frame(current);
    for (char c : text) {
      io.AddInputCharacter(c);
      frame(current);
    }
  }
  void press_enter(double current) {
    ImGui::GetIO().KeysDown[kEnter] = true;
    frame(current);
    ImGui::GetIO().KeysDown[kEnter] = false;
    frame(current);
  }
  void click_outside(double current) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(700, 500);
    io.MouseDown[0] = true;
    frame(current);
    io.MouseDown[0] = false;
    frame(current);
  }
  void focus(double current) {
    frame(current, true);
    frame(current);
  }
};

}  // namespace

TEST_CASE("typing 5000 into a live field applies it once, on Enter") {
  Headless ui;
  ui.focus(1);
  ui.type("5000", 1);
  CHECK(ui.commits == 0);  // nothing while typing: not 5, 50, 500
  ui.press_enter(1);
  CHECK(ui.commits == 1);
  CHECK(ui.applied == 5000);
}

TEST_CASE("a live field applies when it loses focus") {
  Headless ui;
  ui.focus(1);
  ui.type("42", 1);
  ui.click_outside(1);
  CHECK(ui.commits == 1);
  CHECK(ui.applied == 42);
}

TEST_CASE("a value out of range or not finite is refused with a message, never applied") {
  Headless ui;
  ui.focus(1);
  ui.type("-3", 1);
  ui.press_enter(1);
  CHECK(ui.commits == 0);
  CHECK(ui.message == "kn: -3 refused, it must be from 0 to 1e+06");
  ui.message.clear();
  ui.focus(1);
  ui.type("1e400", 1);
  ui.press_enter(1);
  CHECK(ui.commits == 0);
  CHECK(ui.message.find("kn: inf refused") == 0);
}
