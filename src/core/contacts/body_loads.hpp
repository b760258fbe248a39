#pragma once
// One contact task's loads on the bodies, kept apart from the evaluation's sums so tasks never
// write the same body, then added to the sums body by body in task order. Sparse for speed: only
// the bodies a contact marked are added and zeroed again, so a step with few contacts (grains
// falling) neither clears nor adds the loads of the bodies nothing touched. Adding an untouched
// body's zero load changed nothing, so the sums are those of adding every body.
#include <cstdint>
#include <vector>

#include "core/contacts/granular_pairs.hpp"
#include "core/force_model.hpp"
#include "core/zeroed_array.hpp"

namespace stepwise {

class BodyLoads {
 public:
  struct Sums {  // the evaluation's per-body arrays, three numbers per body each
    double *force, *torque, *drag_force, *drag_torque;
    std::uint8_t* drag_marks;  // a byte per body (DragMarks)
  };

  // For n bodies, every load zero and unmarked: as the last add_to left them, or cleared here
  // when it did not run (an evaluation that threw) or the bodies changed.
  void prepare(int n) {
    if (!clean_ || int(load_.size()) != n) {
      load_.assign_zero(n);
      marked_.assign(n, 0);
    }
    clean_ = false;
  }
  BodyLoad* data() { return load_.data(); }
  // Body i may have a load (marking a body whose load stays zero is harmless). Always 1:
  // add_to reads the marks with DragMarks::each, which takes them as 0 or 1.
  void mark(int i) { marked_[i] = 1; }

  // Adds the marked bodies' loads in [begin, end) to the sums and zeroes them again. ask_ahead:
  // as PackedBodies::ask_ahead says.
  void add_to(const Sums& out, int begin, int end, bool ask_ahead) {
    if (begin >= end) return;  // a task's window that misses the block: empty, or inverted
    // Few marked rows are scattered (a miss each past the cache): asked for all first, with the
    // sums' rows they add to, so the misses overlap instead of coming one body at a time. Where
    // most are marked (a packing) the rows come in order and the memory's own prefetcher
    // follows them: asking costs a loop. (For speed only.)
    BodyLoad* rows = load_.data();
    std::uint8_t* marked = marked_.data();
    if (ask_ahead && DragMarks::few(marked, begin, end))
      DragMarks::each(marked, begin, end, [rows, &out](int i) {
        const char* row = reinterpret_cast<const char*>(rows + i);
        lanes::prefetch(row);
        lanes::prefetch(row + sizeof(BodyLoad) - 1);
        for (const double* sum : {out.force, out.torque, out.drag_force, out.drag_torque}) {
          lanes::prefetch(sum + 3 * i);
          lanes::prefetch(sum + 3 * i + 2);
        }
      });
    // A step with few contacts marks few bodies: skip the others a word of marks at a time.
    DragMarks::each(marked, begin, end, [=](int i) { add_one(out, rows, marked, i); });
  }
  // Every range has been added: the loads are all zero again.
  void taken() { clean_ = true; }

 private:
  // The row is read whole into registers and zeroed by three stores of four (assigning
  // BodyLoad{} compiled to a string store, slow to start for 96 bytes; the sums' pointers, read
  // through a reference, were read again after every addition). For speed only: each number
  // takes the same one addition.
  static void add_one(const Sums out, BodyLoad* rows, std::uint8_t* marked, int i) {
    double* row = rows[i].row();
    const lanes::D4 a = lanes::load(row), b = lanes::load(row + 4), c = lanes::load(row + 8);
    const lanes::D4 zero = lanes::splat(0.0);
    lanes::store(row, zero), lanes::store(row + 4, zero), lanes::store(row + 8, zero);
    double *f = out.force + 3 * i, *t = out.torque + 3 * i;
    double *df = out.drag_force + 3 * i, *dt = out.drag_torque + 3 * i;
    f[0] += a[0], f[1] += a[1], f[2] += a[2];
    t[0] += a[3], t[1] += b[0], t[2] += b[1];
    df[0] += b[2], df[1] += b[3], df[2] += c[0];
    dt[0] += c[1], dt[1] += c[2], dt[2] += c[3];
    out.drag_marks[i] = 1;
    marked[i] = 0;
  }

  ZeroedArray<BodyLoad> load_;  // (rows no contact reaches take no memory)
  std::vector<std::uint8_t> marked_;
  bool clean_ = false;
};

}  // namespace stepwise
