#include "app/gui_overlay.hpp"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include "ui/ui_state.hpp"

namespace stepwise::cli {
namespace {

// Makes `context` current for a scope and puts the window's back after.
struct UsingContext {
  ImGuiContext* previous;
  explicit UsingContext(ImGuiContext* context) : previous(ImGui::GetCurrentContext()) {
    ImGui::SetCurrentContext(context);
  }
  ~UsingContext() { ImGui::SetCurrentContext(previous); }
};

}  // namespace

OverlayPainter::OverlayPainter(int width, int height, double fps)
    : width_(width), height_(height), fps_(fps) {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  context_ =
      ImGui::CreateContext();  // its own fonts and GL objects (the backend keeps them per context)
  ImGui::SetCurrentContext(context_);
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  ImGui_ImplOpenGL3_Init("#version 330 core");
  ImGui::SetCurrentContext(previous);
}

OverlayPainter::~OverlayPainter() {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(context_);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext(context_);
  ImGui::SetCurrentContext(previous == context_ ? nullptr : previous);
}

void OverlayPainter::paint(const Snapshot& frame, const EnergyHistory& history,
                           FrameTarget& target) {
  UsingContext using_ours(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(width_), float(height_));
  io.DeltaTime = float(1.0 / fps_);
  ImGui_ImplOpenGL3_NewFrame();
  // A new auto-fitting window is sized on its first frame and shown from the second.
  for (int pass = first_ ? 0 : 1; pass < 2; ++pass) {
    ImGui::NewFrame();
    draw_recording_overlay(frame, history, frame.caption);
    if (pass == 0) ImGui::EndFrame();
  }
  first_ = false;
  ImGui::Render();
  target.bind_resolved();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace stepwise::cli
