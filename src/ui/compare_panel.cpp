// Compare integrators: lockstep runs drawn as ghosts with their energy errors overlaid, the
// convergence order measured from the current state, the stability chart, reversibility and
// the phase portrait of the selected body.
#include <imgui.h>

#include <cstring>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/analysis.hpp"
#include "core/integrator.hpp"
#include "core/rotation_scheme.hpp"
#include "ui/ui_state.hpp"

namespace stepwise {
namespace {

ImU32 tint_colour(int k) {
  const glm::vec4 t = SceneRenderer::comparison_tint(k);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(t.r, t.g, t.b, 1));
}

// Least-squares slope of log(error) against log(dt).
double fitted_order(const SweepSeries& series) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (const SweepRow& r : series.rows) {
    if (r.failed || !(r.error > 0)) continue;
    const double x = std::log(r.dt), y = std::log(r.error);
    sx += x, sy += y, sxx += x * x, sxy += x * y, ++n;
  }
  return n >= 2 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0;
}

int expected_order(const std::string& integrator) {
  static std::map<std::string, int> orders;
  if (!orders.count(integrator) && IntegratorRegistry::instance().contains(integrator))
    orders[integrator] = IntegratorRegistry::instance().make(integrator)->info().order;
  return orders[integrator];
}

void lockstep_section(UiState& ui, const Snapshot& s, const SendCommand& send) {
  ImGui::TextColored(ImVec4(1, 1, 1, 1), "main: %s", s.run_label.c_str());
  for (size_t k = 0; k < s.comparisons.size(); ++k) {
    const Snapshot& c = s.comparisons[k];
    ImGui::PushID(int(k));
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(tint_colour(int(k))), "run %zu: %s", k + 1,
                       c.run_label.c_str());
    same_line_if_fits(button_width("remove"));
    if (ImGui::SmallButton("remove")) send(cmd::RemoveComparison{int(k)});
    ImGui::TextDisabled("   error %+.3e   cost %.3g s per simulated s%s%s", c.energy.energy_error,
                        c.cost_per_sim_second, c.error.empty() ? "" : "   ", c.error.c_str());
    ImGui::PopID();
  }
  CompareState& c = ui.compare;
  int& integrator = c.integrator;
  int& rotation = c.rotation;
  double& dt = c.dt;
  const auto integrators = IntegratorRegistry::instance().names();
  const auto rotations = RotationRegistry::instance().names();
  auto combo = [](const char* label, int& index, const std::vector<std::string>& names) {
    ImGui::SetNextItemWidth(140);
    if (ImGui::BeginCombo(label, names[index].c_str())) {
      for (int i = 0; i < int(names.size()); ++i)
        if (ImGui::Selectable(names[i].c_str(), i == index)) index = i;
      ImGui::EndCombo();
    }
  };
  if (s.rotation != c.synced_rotation) {
    c.synced_rotation = s.rotation;
    for (int i = 0; i < int(rotations.size()); ++i)
      if (rotations[i] == s.rotation) rotation = i;
  }
  combo("##integrator", integrator, integrators);
  same_line_if_fits(140);
  combo("##rotation", rotation, rotations);
  same_line_if_fits(80 + ImGui::CalcTextSize(" dt").x);
  ImGui::SetNextItemWidth(80);
  ImGui::InputDouble("dt##compare", &dt, 0, 0, dt > 0 ? "%.4g" : "same");
  same_line_if_fits(button_width("Add run"));
  if (ImGui::Button("Add run") && s.comparisons.size() < 3)
    send(cmd::AddComparison{integrators[integrator], rotations[rotation], std::max(dt, 0.0)});
  if (!s.comparisons.empty()) {
    same_line_if_fits(button_width("Clear"));
    if (ImGui::Button("Clear")) send(cmd::RemoveComparison{-1});
  }
  // The same scene with one parameter changed (penalty springs beside multipliers, a stiffer
  // spring): built afresh from t = 0 with the main run's methods and caught up to its time.
  ImGui::SetNextItemWidth(std::min(220.0f, ImGui::GetContentRegionAvail().x));
  ImGui::InputText("##variant", c.variant, sizeof c.variant);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("a scene parameter as key=value");
  same_line_if_fits(button_width("Add variant"));
  const char* equals = std::strchr(c.variant, '=');
  if (ImGui::Button("Add variant") && equals && s.comparisons.size() < 3)
    send(cmd::AddVariant{std::string(c.variant, size_t(equals - c.variant)), parse_param_value(equals + 1)});
  ImGui::Checkbox("show ghosts", &ui.view.ghosts);
  ImGui::TextDisabled("Runs start from the current state and keep the main run's simulated time; "
                      "a variant starts the scene afresh.");

  PlotOptions o;
  o.height = 170;
  o.x_label = "time";
  o.y_label = "relative energy error, each run";
  o.symmetric_log = ui.energy_log;
  std::vector<PlotSeries> series = {
      {"main", IM_COL32(240, 240, 240, 255), &ui.history.time, &ui.history.error}};
  for (size_t k = 0; k < ui.history.comparisons.size() && k < s.comparisons.size(); ++k)
    series.push_back({"run " + std::to_string(k + 1), tint_colour(int(k)),
                      &ui.history.comparisons[k].time, &ui.history.comparisons[k].error});
  plot("compare-errors", series, o);
}

// A study's button: `start` (true when pressed) while none runs; while one runs, Stop (sends
// StopStudy) beside "running...".
bool study_button(bool running, const char* start, bool convergence, const SendCommand& send) {
  if (!running) return ImGui::Button(start);
  ImGui::PushID(start);
  if (ImGui::Button("Stop")) send(cmd::StopStudy{convergence});
  ImGui::PopID();
  ImGui::SameLine();
  ImGui::TextDisabled("running...");
  return false;
}

void convergence_section(UiState& ui, const Snapshot& s, const SendCommand& send) {
  std::map<std::string, bool>& chosen = ui.compare.convergence_methods;
  double& horizon = ui.compare.horizon;
  if (horizon <= 0) horizon = std::max(50 * s.dt, 1e-9);
  int shown = 0;
  for (const std::string& name : IntegratorRegistry::instance().names()) {
    if (shown++) same_line_if_fits(checkbox_width(name.c_str()));
    bool on = chosen[name];
    if (ImGui::Checkbox(name.c_str(), &on)) chosen[name] = on;
  }
  ImGui::SetNextItemWidth(100);
  ImGui::InputDouble("horizon (simulated s)", &horizon, 0, 0, "%.4g");
  same_line_if_fits(button_width("Measure"));
  if (study_button(s.convergence.running, "Measure", true, send)) {
    std::vector<std::string> list;
    for (const auto& [name, on] : chosen)
      if (on) list.push_back(name);
    send(cmd::RunConvergence{list, horizon});
  }
  if (s.convergence.status.empty()) return;
  ImGui::TextDisabled("from the current state, dt = %.4g / 1, 2, 4, 8; reference: %s", s.dt,
                      s.convergence.result.reference.c_str());
  if (s.convergence.status != "done" && s.convergence.status != "running")
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s", s.convergence.status.c_str());
  std::vector<std::vector<double>> xs, ys;  // plotted this frame only
  xs.assign(s.convergence.result.series.size(), {});
  ys.assign(s.convergence.result.series.size(), {});
  std::vector<PlotSeries> series;
  for (size_t k = 0; k < s.convergence.result.series.size(); ++k) {
    const SweepSeries& sw = s.convergence.result.series[k];
    for (auto it = sw.rows.rbegin(); it != sw.rows.rend(); ++it)  // ascending dt
      if (!it->failed && it->error > 0) xs[k].push_back(it->dt), ys[k].push_back(it->error);
    char label[96];
    std::snprintf(label, sizeof label, "%s: slope %.2f (order %d)", sw.integrator.c_str(),
                  fitted_order(sw), expected_order(sw.integrator));
    series.push_back({label,
                      ImGui::ColorConvertFloat4ToU32(ImVec4(0.4f + 0.6f * float((k * 37) % 10) / 10,
                                                            0.9f - 0.15f * float(k % 4),
                                                            0.5f + 0.5f * float(k % 2), 1)),
                      &xs[k], &ys[k], nullptr, nullptr, true});
  }
  PlotOptions o;
  o.height = 200;
  o.log_x = o.log_y = true;
  o.x_label = "dt";
  o.y_label = "error at the horizon (log-log)";
  plot("convergence", series, o);
}

void stability_section(UiState& ui, const Snapshot& s, const SendCommand& send) {
  ImGui::Checkbox("highlight the stiffest bodies", &ui.view.highlight_stiffest);
  std::map<std::string, bool>& shown = ui.compare.stability_methods;
  int column = 0;
  for (const std::string& name : IntegratorRegistry::instance().names()) {
    if (column++) same_line_if_fits(checkbox_width(name.c_str()));
    bool on = shown[name];
    if (ImGui::Checkbox((name + "##stab").c_str(), &on)) shown[name] = on;
  }
  std::vector<PlotSeries> series;
  std::string computing;
  int k = 0;
  // Curves come from the runtime's analysis jobs (the same function as `stepwise stability`).
  const StabilityView& view = s.stability;
  for (const auto& [name, on] : shown) {
    if (!on) continue;
    const auto curve = view.growth.find(name);
    const bool busy = std::find(view.computing.begin(), view.computing.end(), name) !=
                      view.computing.end();
    if (curve == view.growth.end()) {
      if (!busy) send(cmd::RunStability{name});
      computing += (computing.empty() ? "" : ", ") + name;
      continue;
    }
    series.push_back({name,
                      ImGui::ColorConvertFloat4ToU32(ImVec4(0.35f + 0.13f * float(k % 5),
                                                            0.9f - 0.12f * float(k % 6),
                                                            0.4f + 0.2f * float(k % 3), 1)),
                      &view.omega_dt, &curve->second});
    ++k;
  }
  PlotOptions o;
  o.height = 200;
  o.x_label = "omega dt";
  o.y_label = "amplitude growth per step on x'' = -omega^2 x (1 = neutral)";
  if (s.omega_worst > 0) o.markers.push_back({s.omega_worst * s.dt, "this scene: omega dt"});
  plot("stability", series, o);
  if (!computing.empty()) ImGui::TextDisabled("computing: %s", computing.c_str());
}

void reversibility_section(UiState& ui, const Snapshot& s, const SendCommand& send) {
  int& steps = ui.compare.reversibility_steps;
  ImGui::SetNextItemWidth(100);
  ImGui::InputInt("steps each way", &steps);
  steps = std::max(steps, 1);
  same_line_if_fits(button_width("Run, flip, run back"));
  if (study_button(s.reversibility.running, "Run, flip, run back", false, send))
    send(cmd::RunReversibility{steps});
  const ReversibilityView& r = s.reversibility;
  if (r.status == "done")
    ImGui::Text("%s + %s, dt %.4g, %ld steps: returned within %.3e (velocity %.3e)",
                r.integrator.c_str(), r.rotation.c_str(), r.dt, r.steps, r.position_error,
                r.velocity_error);
  else if (!r.status.empty())
    ImGui::TextDisabled("%s", r.status.c_str());
  ImGui::TextDisabled("Symplectic, time-reversible methods come back to round-off.");
}

void history_section(UiState& ui, const Snapshot& s, const SendCommand& send) {
  const int n = int(s.history_times.size());
  if (n == 0) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", s.history_kept ? "no checkpoints yet"
                                             : "no checkpoints: one of this scene would take more "
                                               "than the memory kept for them");
    ImGui::PopTextWrapPos();
    return;
  }
  if (ImGui::Button("<- step back")) send(cmd::Rewind{});
  same_line_if_fits(ImGui::CalcTextSize("(Left arrow)  00 checkpoints").x);
  ImGui::TextDisabled("(Left arrow)  %d checkpoints, t = %.4g .. %.4g", n, s.history_times.front(),
                      s.history_times.back());
  int& index = ui.compare.history_index;
  if (!ImGui::IsAnyItemActive()) index = s.history_position >= 0 ? s.history_position : n - 1;
  index = std::clamp(index, 0, n - 1);
  ImGui::SetNextItemWidth(-1);
  char label[64];
  std::snprintf(label, sizeof label, "t = %.4f", s.history_times[index]);
  ImGui::SliderInt("##scrub", &index, 0, n - 1, label);
  if (ImGui::IsItemDeactivatedAfterEdit()) send(cmd::RestoreCheckpoint{index});
  if (s.history_position >= 0)
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1),
                       "In the past. Change the integrator, dt or a stiffness to branch: the old "
                       "future keeps running as a ghost beside the new one.");
}

void reference_section(UiState& ui, const Snapshot& s, const SendCommand& send) {
  bool on = s.reference_on;
  if (ImGui::Checkbox("shadow run: rk4 at dt/8", &on)) send(cmd::SetReference{on});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("started from the current state");
  if (!s.reference_on) return;
  if (s.reference_waiting)
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1),
                       "The live run waits for its shadow (t = %.6g of %.6g): rk4 at the dt it "
                       "was switched on with / 8. Switch it off and on for the new dt / 8.",
                       s.reference_time, s.time + s.dt);
  PlotOptions o;
  o.height = 170;
  o.x_label = "time";
  o.y_label = "live run against the shadow (log)";
  o.symmetric_log = true;
  plot("reference",
       {{"position error", IM_COL32(120, 200, 255, 255), &ui.history.time,
         &ui.history.reference_position_error},
        {"energy difference / |E0|", IM_COL32(255, 140, 90, 255), &ui.history.time,
         &ui.history.reference_energy_error}},
       o);
}

void phase_section(UiState& ui, const Snapshot& s) {
  const int body = ui.view.selected;
  if (body < 0 || body >= s.bodies) {
    ImGui::TextDisabled("double-click a body to see its phase portrait");
    return;
  }
  CompareState& c = ui.compare;
  int& axis = c.phase_axis;
  ImGui::Text("body %d:", s.id(body));
  same_line_if_fits(3 * checkbox_width("x"));
  ImGui::RadioButton("x", &axis, 0);
  ImGui::SameLine();
  ImGui::RadioButton("y", &axis, 1);
  ImGui::SameLine();
  ImGui::RadioButton("z", &axis, 2);
  std::vector<double>& xs = c.phase_x;
  std::vector<double>& vs = c.phase_v;
  if (c.phase_body != body || c.phase_traced_axis != axis || c.phase_generation != s.scene_generation)
    xs.clear(), vs.clear(), c.phase_body = body, c.phase_traced_axis = axis,
                            c.phase_generation = s.scene_generation;
  if (s.revision != c.phase_revision && s.detail.body == body) {
    c.phase_revision = s.revision;
    xs.push_back(s.position[body][axis]);
    vs.push_back(s.detail.velocity[axis]);
    if (xs.size() > 20000)
      xs.erase(xs.begin(), xs.begin() + 5000), vs.erase(vs.begin(), vs.begin() + 5000);
  }
  PlotOptions o;
  o.height = 200;
  o.x_label = "position";
  o.y_label = "velocity";
  plot("phase", {{"trajectory", IM_COL32(120, 200, 255, 255), &xs, &vs}}, o);
}

// A sub-section: unfolded by the layout test's second look like every section.
template <class Draw>
void subsection(UiState& ui, const char* title, bool default_open, Draw draw) {
  if (ui.expand_all) ImGui::SetNextItemOpen(true);
  if (!ImGui::TreeNodeEx(title, default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) return;
  begin_measured();
  draw();
  end_measured(title, ui.layout_report);
  ImGui::TreePop();
}

}  // namespace

void draw_compare_panel(UiState& ui, const Snapshot& s, const SendCommand& send) {
  ImGui::PushTextWrapPos(0);
  subsection(ui, "Lockstep runs", true, [&] { lockstep_section(ui, s, send); });
  subsection(ui, "History and branches", false, [&] { history_section(ui, s, send); });
  subsection(ui, "Reference error", false, [&] { reference_section(ui, s, send); });
  subsection(ui, "Convergence order", false, [&] { convergence_section(ui, s, send); });
  subsection(ui, "Stability", false, [&] { stability_section(ui, s, send); });
  subsection(ui, "Reversibility", false, [&] { reversibility_section(ui, s, send); });
  subsection(ui, "Phase space", false, [&] { phase_section(ui, s); });
  ImGui::PopTextWrapPos();
}

}  // namespace stepwise
