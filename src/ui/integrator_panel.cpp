// Translational and rotational method, their metadata and update equations, dt against the
// critical step, and the method's own options (Newmark beta/gamma, Langevin T, tolerance, ...).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/impulse/contact_solver.hpp"
#include "core/integrator.hpp"
#include "core/limits.hpp"
#include "core/rotation_scheme.hpp"
#include "ui/ui_state.hpp"

namespace stepwise {
namespace {

template <class Registry>
const std::map<std::string, MethodInfo>& method_infos() {
  static const std::map<std::string, MethodInfo> infos = [] {
    std::map<std::string, MethodInfo> out;
    for (const std::string& name : Registry::instance().names())
      out[name] = Registry::instance().make(name)->info();
    return out;
  }();
  return infos;
}

// A combo over a registry; returns the newly chosen name or empty.
template <class Registry>
std::string method_combo(const char* label, const std::string& current) {
  std::string chosen;
  if (ImGui::BeginCombo(label, current.c_str())) {
    for (const auto& [name, info] : method_infos<Registry>()) {
      if (ImGui::Selectable(name.c_str(), name == current) && name != current) chosen = name;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.summary.c_str());
    }
    ImGui::EndCombo();
  }
  return chosen;
}

void describe(const MethodInfo& info) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("order %d  |  %s  |  %s  |  %d force eval%s/step", info.order,
                      info.implicit ? "implicit" : "explicit",
                      info.symplectic ? "symplectic" : "not symplectic", info.force_evals,
                      info.force_evals == 1 ? "" : "s");
  ImGui::TextUnformatted(info.summary.c_str());
  // Equations line by line, a long one wrapping under itself rather than running off the edge.
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.8f, 0.9f, 0.75f, 1.0f));
  size_t begin = 0;
  while (begin < info.equations.size()) {
    size_t end = info.equations.find('\n', begin);
    if (end == std::string::npos) end = info.equations.size();
    ImGui::TextUnformatted(info.equations.data() + begin, info.equations.data() + end);
    begin = end + 1;
  }
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
}

// The stability gauge: the worst omega dt over recent steps against the method's own limit on
// an undamped oscillator (explicit Euler has none below which it is stable; implicit methods
// have no upper one).
void draw_stability_gauge(const Snapshot& s) {
  const ImVec4 red(1.0f, 0.3f, 0.25f, 1), amber(1.0f, 0.72f, 0.2f, 1), green(0.55f, 0.85f, 0.55f, 1);
  const double omega = s.omega_worst, omega_dt = omega * s.dt, limit = s.stability_limit;
  ImGui::PushTextWrapPos(0);
  if (!(omega > 0)) {
    ImGui::TextDisabled("no stiffness: no stability limit on dt");
  } else if (limit == 0) {
    ImGui::TextColored(red, "%s grows on any oscillation, at any dt (omega dt = %.3g)",
                       s.integrator.c_str(), omega_dt);
  } else if (std::isinf(limit)) {
    ImGui::TextColored(green, "%s is stable at any dt (omega dt = %.3g; accuracy wants it << 1)",
                       s.integrator.c_str(), omega_dt);
  } else {
    const double ratio = omega_dt / limit;
    ImGui::TextColored(ratio > 1 ? red : ratio > 0.5 ? amber : green,
                       "omega dt = %.3g of %.3g: %.0f%% of %s's limit", omega_dt, limit,
                       100 * ratio, s.integrator.c_str());
    ImGui::TextDisabled("largest stable dt = %.4g", limit / omega);
  }
  if (omega > 0 && ImGui::IsItemHovered())
    ImGui::SetTooltip("omega: the stiffest frequency, worst over the last 1000 steps\n"
                      "(now %.4g, worst %.4g). Amber above half the limit, red above it.",
                      s.omega_now, s.omega_worst);
  ImGui::PopTextWrapPos();
}

// Combo width leaving room for its label on the same line.
void fit_combo(const char* label);

// Penalty springs or rigid contact by impulses, live; what the impulses act on with this method.
void draw_contact_treatment(UiState& ui, const Snapshot& s, const SendCommand& send) {
  const ContactTreatment& c = s.contact;
  const std::string solver = ContactTreatment::solver_names()[int(c.solver)];
  auto set = [&](const std::string& mode, double restitution, double iterations,
                 const std::string& solver, double facets) {
    send(cmd::SetContact{mode, restitution, iterations, solver, facets});
  };
  // A scene with no contact model has nothing for impulses to act on: shown, not offered (a
  // disabled combo does not open, so its popup is never inside the disabled block).
  const bool offered = s.lists_contacts || c.impulse();
  if (!offered) ImGui::BeginDisabled();
  fit_combo("contact");
  const bool open = ImGui::BeginCombo("contact", c.mode_name().c_str());
  if (!offered) {
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("This scene has no contact model (hooke or hertz): nothing touches.");
  }
  if (open) {
    const char* tips[] = {
        "penalty: the scene's contact laws, springs and dashpots (DEM): small steps, bodies "
        "overlap a little",
        "impulse: rigid contact (seed 004): Newton's restitution at impacts, resting contacts "
        "held exactly with Coulomb friction, no springs: big steps, no overlap beyond a slop"};
    for (size_t m = 0; m < ContactTreatment::mode_names().size(); ++m) {
      const std::string& name = ContactTreatment::mode_names()[m];
      if (ImGui::Selectable(name.c_str(), name == c.mode_name()) && name != c.mode_name())
        set(name, c.restitution, c.iterations, solver, c.facets);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tips[m]);
    }
    ImGui::EndCombo();
  }
  if (!c.impulse()) return;
  double value = 0;
  ImGui::SetNextItemWidth(std::min(140.0f, ImGui::GetContentRegionAvail().x * 0.45f));
  if (number_field("restitution e", c.restitution, 0, 1, ui.field_edits, value, ui.notice))
    set(c.mode_name(), value, c.iterations, solver, c.facets);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Normal speed after an impact over the speed before (0: no bounce, 1: "
                      "elastic)");
  ImGui::SetNextItemWidth(std::min(140.0f, ImGui::GetContentRegionAvail().x * 0.45f));
  if (number_field("sweeps at most", c.iterations, 1, 1e5, ui.field_edits, value, ui.notice))
    set(c.mode_name(), c.restitution, std::round(value), solver, c.facets);
  fit_combo("solver");
  if (ImGui::BeginCombo("solver", solver.c_str())) {
    for (const std::string& name : ContactTreatment::solver_names())
      if (ImGui::Selectable(name.c_str(), name == solver) && name != solver)
        set(c.mode_name(), c.restitution, c.iterations, name, c.facets);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("auto: Gauss-Seidel, and for small islands an exact solve of the touching\n"
                      "and sticking points between sweeps (stacks rest without creeping)\n"
                      "pgs: Gauss-Seidel alone, as Bullet and Box2D (cheaper; stacks creep)\n"
                      "lemke: Lemke's pivoting method, exact, for islands of up to %d points,\n"
                      "the friction cone as a pyramid (its first edge against the sliding)",
                      kPivotRows);
  if (c.solver == ContactTreatment::Solver::lemke) {
    ImGui::SetNextItemWidth(std::min(140.0f, ImGui::GetContentRegionAvail().x * 0.45f));
    if (number_field("pyramid sides", c.facets, 3, 64, ui.field_edits, value, ui.notice))
      set(c.mode_name(), c.restitution, c.iterations, solver, std::round(value));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Sides of the pyramid that stands in for the friction cone: a sticking\n"
                        "point holds at least cos(pi / sides) of mu times its normal impulse\n"
                        "in any direction");
  }
  ImGui::PushTextWrapPos(0);
  if (s.impulses_in_drift)
    ImGui::TextDisabled("%s: the impulses act on the velocity the positions move with (a "
                        "kick-drift method): resting bodies stay put.",
                        s.integrator.c_str());
  else
    ImGui::TextColored(ImVec4(1.0f, 0.72f, 0.2f, 1),
                       "%s has no drift step: the impulses act after the step, first order; a "
                       "resting body dips by about dt^2 g / 2 each step and is lifted back. "
                       "velocity-verlet or symplectic-euler rest exactly.",
                       s.integrator.c_str());
  ImGui::TextDisabled("%d touching pairs, %d impacts, %d sweeps; overlap correction %.3g J",
                      s.impulse.contacts, s.impulse.impacts, s.impulse.sweeps, s.energy.corrected);
  ImGui::PopTextWrapPos();
}

void fit_combo(const char* label) {
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(label).x -
                          ImGui::GetStyle().ItemInnerSpacing.x);
}

}  // namespace

void draw_integrator_panel(UiState& ui, const Snapshot& s, const SendCommand& send) {
  // What a class changes most comes first: the methods and dt; their descriptions follow.
  fit_combo("translation");
  const std::string translational = method_combo<IntegratorRegistry>("translation", s.integrator);
  if (!translational.empty()) send(cmd::SetIntegrator{translational});
  if (s.dimensions == 2) {
    // In the plane a body turns about z only and its moment is one number: every rotation
    // scheme reduces to the same scalar update, so five identical choices are not offered.
    ImGui::TextWrapped("rotation: 2-D, theta += h w, w += h tau / I (every scheme is this)");
  } else {
    fit_combo("rotation");
    const std::string rotational = method_combo<RotationRegistry>("rotation", s.rotation);
    if (!rotational.empty()) send(cmd::SetRotation{rotational});
  }

  // dt: sent once, on Enter or when the field loses focus, within the range every dt has.
  double dt_edit = 0;
  ImGui::SetNextItemWidth(std::min(140.0f, ImGui::GetContentRegionAvail().x * 0.45f));
  if (number_field("dt", s.dt, limits::kMinDt, limits::kMaxDt, ui.field_edits, dt_edit, ui.notice))
    send(cmd::SetDt{dt_edit});
  report_item("dt field", ui.layout_report);
  ImGui::SameLine();
  if (ImGui::SmallButton("/2")) send(cmd::SetDt{s.dt / 2});
  ImGui::SameLine();
  if (ImGui::SmallButton("x2")) send(cmd::SetDt{s.dt * 2});
  draw_stability_gauge(s);
  ImGui::SetNextItemWidth(std::min(140.0f, ImGui::GetContentRegionAvail().x * 0.45f));
  double limit = 0;
  if (number_field("pause if |error| >", s.blowup_limit, 0, 1e300, ui.field_edits, limit,
                   ui.notice))
    send(cmd::SetBlowupLimit{limit});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The run pauses when the relative energy error passes this (0: never),\n"
                      "as it does when the state goes non-finite. Run again to go on.");

  if (!s.integrator_options.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("options of %s", s.integrator.c_str());
    for (const Tunable& option : s.integrator_options) {
      double value = 0;
      ImGui::SetNextItemWidth(std::min(140.0f, ImGui::GetContentRegionAvail().x * 0.45f));
      if (number_field(option.name.c_str(), option.value, option.low, option.high, ui.field_edits,
                       value, ui.notice))
        send(cmd::SetIntegratorOption{option.name, value});
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", option.description.c_str());
    }
  }
  ImGui::Separator();
  draw_contact_treatment(ui, s, send);
  ImGui::Separator();
  if (auto it = method_infos<IntegratorRegistry>().find(s.integrator);
      it != method_infos<IntegratorRegistry>().end())
    describe(it->second);
  if (s.dimensions == 2) return;
  ImGui::Separator();
  if (auto it = method_infos<RotationRegistry>().find(s.rotation);
      it != method_infos<RotationRegistry>().end())
    describe(it->second);
}

}  // namespace stepwise
