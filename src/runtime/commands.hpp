#pragma once
// What the window asks of the physics thread. Every change to a running simulation travels as one
// of these; the worker applies them between steps, in order.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/params.hpp"
#include "core/types.hpp"

namespace stepwise {

struct RunSpec;  // io/scene_file.hpp

enum class Pacing { RealTime, Fastest };

// A figure of every body that colour modes show. The window asks for the one it draws: a snapshot
// carries one of them, not every body's full state (at 1,000,000 bodies each would take 4-12 MB
// in each of the three snapshots in flight, copied at every publish).
enum class BodyFigure : std::uint8_t { None, Speed, AngularSpeed, KineticEnergy, Force };
// What a view asks for beyond positions and instances.
struct SnapshotDetail {
  bool contacts = false;  // the force network's pair list (a pass over every neighbour pair)
  int inspected = -1;     // the body whose contact points the Inspector lists (-1: none)
  int detailed = -1;      // the body given in full (BodyDetail; -1: none)
  BodyFigure figure = BodyFigure::None;  // every body's, for the colour mode in use
  bool operator==(const SnapshotDetail&) const = default;
};

namespace cmd {
struct LoadScene {
  std::string source;  // built-in name or .toml path
  std::map<std::string, ParamValue> overrides;
  // The scene as load_scene(source, overrides) reads it, where the window has read it already
  // (its command line's scene, checked before the window opens): taken instead of reading the
  // file again (a saved state of 1,000,000 spheres takes seconds to read).
  std::shared_ptr<RunSpec> read = nullptr;
};
// Back to the scene's start. Keeps what the user chose (methods, dt, integrator options, live
// model parameters) unless scene_defaults, which rebuilds the scene exactly as it is written.
// Pause the run when |relative energy error| passes `limit` (0: never), as on a non-finite state.
struct SetBlowupLimit {
  double limit;
};
struct Reset {
  bool scene_defaults = false;
};
struct SetIntegrator { std::string name; };
struct SetRotation { std::string name; };
struct SetDt { double dt; };
struct SetTunable { int model; std::string name; double value; };  // force model index
struct SetIntegratorOption { std::string name; double value; };
// Penalty springs or rigid contact by impulses, and the impulses' options (core/impulse).
struct SetContact { std::string mode; double restitution; double iterations; std::string solver = "auto"; double facets = 8; };
struct SetMaterial { int material; std::string key; double value; };  // World::materials id
struct SetRunning { bool running; };
struct StepOnce { long steps = 1; };
struct SetPacing { Pacing pacing; double slow_motion = 1; };  // sim seconds per wall second
// zeta: the pull's damping as a fraction of critical (1: it settles without overshoot).
// stiffness 0: about 2 Hz for the body's mass.
struct DragStart { int body; Vec3 target; double stiffness; double zeta = 1; };
struct DragMove { Vec3 target; };
struct DragEnd {};
// Video frames locked to simulated time: a snapshot every `interval` simulated seconds goes to
// the capture queue; the worker waits while too many are unrendered. 0 stops capturing.
struct SetCapture { double interval; };
// The whole state as a scene file (continues bit for bit).
struct SaveState {
  std::string path;
};
struct SetVtk { std::string folder; long every; };  // a ParaView series while on; empty stops
// Lockstep comparison: another run of the same scene from the current state with other methods
// or dt (0: the same), advanced to the same simulated time as the main run.
struct AddComparison { std::string integrator, rotation; double dt = 0; };
struct RemoveComparison { int index; };  // -1: all
// A run of the same scene built with one parameter changed (formulation = penalty), from t = 0
// with the main run's integrator and rotation at the variant's own dt, caught up to its time.
struct AddVariant { std::string key; ParamValue value; };
// Background analyses from the current state (results arrive in the snapshot).
struct RunConvergence { std::vector<std::string> integrators; double horizon; };
struct RunReversibility { long steps; };
// Stops a study under way (it ends within a chunk of about a million body-steps; its status
// then reads "stopped"). convergence false: the reversibility run.
struct StopStudy {
  bool convergence;
};
struct PlayLesson { std::string path; };  // loads its scene and plays its timeline
// History: back to a checkpoint (pauses). A change made from there forks a branch: the old
// future keeps running as a comparison ghost.
struct Rewind {};  // to the last checkpoint before now
struct RestoreCheckpoint { int index; };
// A high-accuracy shadow run (rk4 at dt/8) from the current state; the samples then carry the
// live run's global position and energy error against it.
struct SetReference { bool on; };
// The stability chart's curve for one method (computed once, in the background).
struct RunStability { std::string integrator; };
// Extra snapshot content only some views need (the contact force network walks every pair).
struct SetSnapshotDetail {
  SnapshotDetail detail;
};
}  // namespace cmd

using Command =
    std::variant<cmd::LoadScene, cmd::Reset, cmd::SetIntegrator, cmd::SetRotation, cmd::SetDt,
                 cmd::SetTunable, cmd::SetMaterial, cmd::SetIntegratorOption, cmd::SetContact,
                 cmd::SetRunning, cmd::StepOnce, cmd::SetPacing, cmd::DragStart, cmd::DragMove,
                 cmd::DragEnd, cmd::SetCapture, cmd::SaveState, cmd::SetVtk, cmd::AddComparison,
                 cmd::AddVariant, cmd::RemoveComparison, cmd::RunConvergence, cmd::RunReversibility,
                 cmd::PlayLesson, cmd::Rewind, cmd::RestoreCheckpoint, cmd::SetReference,
                 cmd::SetSnapshotDetail, cmd::SetBlowupLimit, cmd::RunStability, cmd::StopStudy>;

}  // namespace stepwise
