#pragma once
// What the physics thread publishes for drawing and for the panels: a self-contained copy of the
// state at one instant, in single precision for the renderer, plus the run's settings and figures.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/energy.hpp"
#include "core/force_model.hpp"
#include "core/impulse/impulse_contact.hpp"
#include "core/params.hpp"
#include "runtime/analysis_results.hpp"
#include "runtime/commands.hpp"

namespace stepwise {

class Simulation;

using Float3 = std::array<float, 3>;
using Float4 = std::array<float, 4>;  // quaternions as w, x, y, z

struct SphereInstance {
  Float3 position;
  float radius;
  int body;
};
struct BoxInstance {
  Float3 position;
  Float4 orientation;
  Float3 half_extents;
  int body;
};
// A convex polyhedron: which of Snapshot::meshes, placed.
struct HullInstance {
  Float3 position;
  Float4 orientation;
  int mesh;
  int body;
};
struct BondLine {
  int i, j;
  float load;  // largest of |F_n|, |F_s|, |M_t|, |M_b| relative to the largest in the scene
  float twist, bend;
  bool broken;
  // The rest of the bond's report (the Bonds table): stretch and shear (length), the rotation
  // about the plane's normal, and the forces and torques.
  float stretch = 0, shear = 0, plane = 0;
  float normal_force = 0, shear_force = 0, twist_torque = 0, bend_torque = 0;
};
// A wall as drawn. (Not WallPlane: that name is the contact models' wall, and two types of one
// name broke the one-definition rule: a build could take one's std::vector code for the other's,
// as the clang fuzz build did, corrupting the snapshot's walls.)
struct ShownWall {
  Float3 point, normal;
};
// One body in full: the Inspector's rows and the phase portrait's point.
struct BodyDetail {
  int body = -1;  // -1: none
  Float3 velocity{}, angular_velocity{}, force{}, torque{};
  float mass = 0, kinetic_energy = 0;
};
struct ModelTunables {
  std::string kind;
  std::vector<Tunable> tunables;
  std::vector<ForceModel::Figure> figures;  // what the model reports of itself (Stats panel)
};

struct Snapshot {
  std::uint64_t revision = 0;          // changes with every publish
  std::uint64_t scene_generation = 0;  // changes when a scene is (re)loaded
  std::string label, source;
  std::string integrator, rotation;
  double dt = 0;
  double lesson_progress = -1;  // a lesson's clock over its duration, 0..1 (-1: no lesson)
  // Stability: the stiffest frequency now and the worst over the last kRecentSteps steps (0: no
  // stiffness), and the method's largest stable omega dt (0: grows at any dt; inf: never grows).
  double omega_now = 0, omega_worst = 0, stability_limit = 2;
  double blowup_limit = 0;               // the run pauses when |energy error| passes it (0: never)
  int stiffest_i = -1, stiffest_j = -1;  // the bodies that set omega_now
  double time = 0;
  long step = 0;
  bool running = false;
  Pacing pacing = Pacing::RealTime;
  double slow_motion = 1;
  double steps_per_second = 0, realtime_factor = 0;
  int threads = 1;     // the main run's per-step loops run on these
  std::string error;   // non-finite state or a rejected command, shown in the window
  std::string notice;  // the last thing the worker did on request (a saved file)
  bool capturing = false;
  bool writing_vtk = false;
  std::string lesson_title, caption;  // a lesson being played
  long error_step = -1;
  int error_body = -1;
  EnergyReport energy;

  // Bodies.
  int bodies = 0;
  std::vector<SphereInstance> spheres;  // spheres and clump members
  std::vector<BoxInstance> boxes;
  std::vector<HullInstance> hulls;
  std::vector<std::vector<Float3>> meshes;  // triangles, body frame, three corners each
  // 2-D scenes (World::dimensions): drawn from above with an orthographic camera; each disk's
  // spoke (centre to rim along its body x axis) shows it turning.
  int dimensions = 3;
  std::vector<std::array<Float3, 2>> spokes;
  Float3 down{};  // 2-D: the direction of the scene's uniform gravity (unit; zero without one)
  std::vector<Float3> position;
  BodyFigure figure = BodyFigure::None;  // what `figures` hold (asked for by SnapshotDetail)
  std::vector<float> figures;            // per body when figure is not None
  BodyDetail detail;                     // SnapshotDetail::detailed's body
  std::vector<std::uint8_t> fixed;
  std::vector<std::uint16_t> material;  // per body: a materials id (names in `materials`), 0: none
  // Each body's id where the World stores them in another order (World::ids; empty: its place).
  // Bodies are indexed as stored everywhere here; labels and id colours show ids.
  std::vector<int> ids;
  int id(int i) const { return i >= 0 && i < int(ids.size()) ? ids[size_t(i)] : i; }
  int slot(int id) const {  // where the body of this id is stored (a search: for one body)
    for (size_t i = 0; i < ids.size(); ++i)
      if (ids[i] == id) return int(i);
    return id;
  }
  std::vector<BondLine> bonds;
  std::vector<ShownWall> walls;
  struct ContactLine {
    int i, j;
    float force;  // normal force (elastic part)
  };
  std::vector<ContactLine> contacts;           // body-body contacts, for the force network
  struct ContactMark {
    int other;  // a body, or -1 - w for wall w
    Float3 position, normal;  // the normal pushes the inspected body out
    float depth, force;       // overlap, elastic normal force
  };
  int inspected = -1;                       // the body whose contact points these are
  std::vector<ContactMark> inspected_contacts;
  std::vector<std::array<Float3, 2>> springs;  // segments models draw: springs, rods, a hoop
  std::vector<Float3> centres;                 // centres of central force fields
  int dragged_body = -1;
  Float3 drag_target{};

  // Settings the panels show and edit.
  std::vector<ModelTunables> models;
  std::vector<ModelTunables> materials;  // kind: the material's name
  std::vector<Tunable> integrator_options;
  ContactTreatment contact;          // penalty or impulse, and the impulses' options
  bool lists_contacts = false;       // whether the scene can have impulse (World::lists_contacts)
  ImpulseContact::Figures impulse;   // what the impulses found and did at the last step
  bool impulses_in_drift = false;    // on the drift velocity (kick-drift methods) or after
  ParamTable scene_parameters;
  std::string builtin;  // the built-in scene the loaded one comes from, if any

  // Comparison runs in lockstep with this one (each a full snapshot of its own run).
  std::vector<Snapshot> comparisons;
  std::string run_label;              // "rk4 + buss2, dt 0.01"
  double cost_per_sim_second = 0;     // wall seconds spent per simulated second
  std::vector<double> history_times;  // checkpoints the scrubber can go back to
  int history_position = -1;          // the checkpoint restored last, while in the past
  bool history_kept = true;           // false: the scene is too large for one checkpoint
  bool reference_on = false;
  bool reference_waiting = false;  // the live run's next step waits for the shadow run to get there
  double reference_time = 0;       // where the shadow run is
  ConvergenceView convergence;
  ReversibilityView reversibility;
  StabilityView stability;
};

// Copies the simulation's state and settings into `out`, reusing its storage, with what `detail`
// asks for beyond positions and instances.
void fill_snapshot(Simulation& sim, Snapshot& out, const SnapshotDetail& detail = {});

}  // namespace stepwise
