#pragma once
// The free-sphere sweep: the per-body work between two evaluations of a velocity-Verlet step
// with Buss2's rotation, done body by body in one loop instead of one queued pass each (for
// speed only). As passes, each array's first reader in a block waits on the memory and the later
// passes compute on what is in the cache, one after the other; in one loop the memory and the
// arithmetic overlap, and the in-cache work sheds the passes' own overheads. It computes what the
// passes compute, operation for operation (velocity_kick.hpp, rotation/sphere_lanes.hpp), and
// books the drag loads' work in their order, so the state and the ledger are bit-identical to
// theirs (tests/test_sphere_sweep.cpp).
#include <cstdint>
#include <cstring>

#include "core/types.hpp"

namespace stepwise {

class RotationScheme;
class World;
struct ForceSums;
struct SweepShare;

// Per task, what the sweep counted (for the tests): groups of four spheres left alone (neither
// spinning nor under a torque), groups only turned (spinning without a torque), and groups whose
// rotation state it asked the memory for ahead (SphereSweep::ask_ahead).
struct SweepCounts {
  long unturned = 0, coasting = 0, asked = 0;
};

struct SphereSweep {
  double dt = 0;
  double* force = nullptr;      // the committed evaluation's forces, cleared by the opening
  Positions* torque = nullptr;  // and torques (where they are when the sweep runs)
  // Drag loads whose work the kicks book (null: not tracked) and the marks of the bodies that
  // have any (null: any may), as the evaluation held them when the sweep was queued.
  const double* drag_force = nullptr;
  const double* drag_torque = nullptr;
  const std::uint8_t* marks = nullptr;
  // Those marks also cover every torque: an unmarked body's torque is +0 (Simulation's
  // torque_marked_), so neither read nor cleared where its sphere does not spin either.
  bool torque_marked = false;
  SweepCounts* counts = nullptr;  // per task (null: not counted)
  // Per group of four bodies (i / 4): 1 if it is still (sphere_lanes::unturned_four) and was left
  // alone, written by every sweep for the state it leaves (a group turned is 0, still or not);
  // still_known: the array holds that for the state this sweep starts from (nothing else has
  // changed spins or moments since the last sweep wrote it), so a group's L and w are not read
  // to find it still. Null: not kept. For speed only: a still sphere's spins are 48 bytes a
  // step that the sweep need not read. Closing and opening in one pass, still_known also says the
  // last sweep was the step's opening, which stored each free sphere's w as spread(1/I) L: a
  // group of four without torque (marks) that spins then keeps L and w and is only turned (its
  // torques, L and w neither read nor written).
  std::uint8_t* still = nullptr;
  bool still_known = false;
  ForceSums* tracked = nullptr;  // the opening: the tracked loads it clears, where they are
  // The opening: what the evaluation's models handed it (a field's loads and potential, a
  // neighbour list's displacements), done on each body once it has moved and its loads are clear.
  const SweepShare* share = nullptr;
  // The kicks' per-range sums as Simulation::book_sums reads them, two groups of kMaxTasks per
  // kick (external work, untouched here; drag work), in the order the passes book them: closing
  // kick, closing spin kick, opening spin kick, opening kick.
  double* losses = nullptr;
  // Ask the memory for the rotation state some groups ahead (sweep_prefetch.hpp; for speed
  // only: past the cache).
  bool ask_ahead = false;
  // With ask_ahead, every group's position, velocity and loads too (far past the cache).
  bool ask_streams = false;
  bool close = false;  // the closing halves of the step before
  bool open = false;   // this step's opening halves

  // Bodies first .. first + 3's drag marks as one word, as add_body_work reads them (nonzero:
  // one may have a drag load; 1 where drag is booked without marks, or not at all).
  std::uint32_t four_marks(int first) const {
    std::uint32_t marked = 1;
    if (drag_force && marks) std::memcpy(&marked, marks + first, 4);
    return marked;
  }
  // Whether the still array holds for the state this sweep starts from (still, still_known).
  bool stills_known() const { return still && still_known; }
  // With stills_known(): whether group first .. first + 3 (its four_marks `marked`) is left
  // alone, no torque (the marks cover every torque, none set) and still at the last sweep. The
  // sweep decides by this, and its asking ahead (sweep_prefetch.hpp) skips what this leaves.
  bool left_still(int first, std::uint32_t marked) const {
    return torque_marked && !marked && still[first / 4] != 0;
  }
};

// Bodies [begin, end) of a task's range, begin a multiple of four. close: the kick
// v += dt/2 F/m and the spin kick L += dt/2 tau, w = L/I that end the step before, then the
// finiteness sum of x, |v|^2 and L into *finite (as Simulation's check: false once it is not
// finite). open: Buss2's first half (turn by the mean spin, L += dt/2 tau, w = L/I), the kick
// v += dt/2 F/m, the drift x += dt v, and the loads cleared for the evaluation (the tracked ones
// by ForceSums::clear_tracked), then the share's work. Free spheres four at a time in lanes; any
// other body through the rotation scheme's own range functions; a group of four that has no
// torque (torque_marked, none marked) and does not spin (sphere_lanes::unturned_four) skips both
// rotation halves and its torques' clearing, which would change nothing; one that spins without
// a torque, closing and opening where still_known, only turns. A range begins at a multiple of the
// share's run.
void sweep_spheres(World& world, RotationScheme& rotation, const SphereSweep& sweep, int task,
                   int begin, int end, bool* finite);

}  // namespace stepwise
