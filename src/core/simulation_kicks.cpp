// Simulation's kicks and rotation halves with the exact booking of their work: each kick's
// work h F.(v_before + v_after)/2 per body, queued to run fused with the step's other passes.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/lanes.hpp"
#include "core/simulation.hpp"
#include "core/velocity_kick.hpp"

namespace stepwise {

// Adds h F.mean over bodies [begin, end) to work and loss, for the per-body external and drag
// arrays given (nullptr: not tracked). mean(i) is body i's mean velocity (or spin) over the kick;
// mean4(i) (or nullptr) the same for bodies i..i+3 as stored (lanes::Stored: element by element,
// no shuffles), computed the same way. Either may apply the kick itself. The sums add body by
// body, in order. Drag loads the marks (DragMarks, or nullptr) say are zero are not read: adding
// their zero work would change no sum.
template <class Mean4, class Mean>
static void add_body_work(const double* external, const double* drag, const std::uint8_t* marks,
                          double h, Mean4 mean4, Mean mean, int begin, int end, double& work_sum,
                          double& loss_sum) {
  using namespace lanes;
  double work = work_sum, loss = loss_sum;  // (locals: no store at every body)
  int i = begin;
  if constexpr (!std::is_same_v<Mean4, std::nullptr_t>)
    for (; i + 4 <= end; i += 4) {
      const Stored m = mean4(i);
      if (external) {
        const D4 w = splat(h) * dot(load_stored(external + 3 * i), m);
        work += w[0], work += w[1], work += w[2], work += w[3];
      }
      std::uint32_t marked = 1;
      if (marks) std::memcpy(&marked, marks + i, 4);
      if (drag && marked) {
        const D4 d = splat(h) * dot(load_stored(drag + 3 * i), m);
        loss -= d[0], loss -= d[1], loss -= d[2], loss -= d[3];
      }
    }
  for (; i < end; ++i) {
    const Vec3 m = mean(i);
    if (external) work += h * Eigen::Map<const Vec3>(external + 3 * i).dot(m);
    if (drag && (!marks || marks[i])) loss -= h * Eigen::Map<const Vec3>(drag + 3 * i).dot(m);
  }
  work_sum = work, loss_sum = loss;
}

static const double* tracked_data(const Positions& p) {
  return p.cols() > 0 ? p.data() : nullptr;
}

// What a queued booking summed per range, added to the ledger in range order after `first`.
std::function<void()> Simulation::book_sums(const double* sums, Powers first) {
  return [this, sums, first] {
    dissipated_ += first.dissipation;
    external_work_ += first.external;
    for (int t = 0; t < range_count(parallel_, world_.size()); ++t)
      external_work_ += sums[t], dissipated_ += sums[kMaxTasks + t];
  };
}

// Queues the booking of h F.mean (see add_body_work) for the tracked arrays (empty: not).
template <class Mean4, class Mean>
void Simulation::queue_body_work(const Positions& external, const Positions& drag,
                                 const std::uint8_t* marks, double h, Mean4 mean4, Mean mean,
                                 Powers first) {
  const double* external_data = tracked_data(external);
  const double* drag_data = tracked_data(drag);
  double* sums = passes_.slots(2);
  passes_.add(
      [external_data, drag_data, marks, h, mean4, mean, sums](int task, int begin, int end) {
        add_body_work(external_data, drag_data, marks, h, mean4, mean, begin, end, sums[task],
                      sums[kMaxTasks + task]);
      },
      book_sums(sums, first));
}

// Mean of two per-body vectors (before and after a kick). (In lanes, the shuffles into and out of
// them would cost more than the few additions they save.)
static auto mean_of(const double* before, const double* after) {
  return [before, after](int i) -> Vec3 {
    return 0.5 * (Eigen::Map<const Vec3>(before + 3 * i) + Eigen::Map<const Vec3>(after + 3 * i));
  };
}

void Simulation::book_kick(const Evaluation& e, const Positions& v_before, const Positions& v_after,
                           double h) {
  const Powers pairs{e.pair_powers.dissipation * h, e.pair_powers.external * h};
  if (e.external_force.cols() == 0 && e.drag_force.cols() == 0) {
    dissipated_ += pairs.dissipation;
    external_work_ += pairs.external;
    return;
  }
  queue_body_work(e.external_force, e.drag_force, e.drag_marks.known(), h, nullptr,
                  mean_of(v_before.data(), v_after.data()), pairs);
  flush();  // the velocities are the integrator's, which it may change next
}

void Simulation::kick_and_book(const Evaluation& e, double h) {
  // The kick (v += h a, a = F/m) and its booking in one pass.
  double* v = world_.v.data();
  const double* force = e.force.data();
  const double* inv_mass = world_.inv_mass.data();
  auto kick4 = [v, force, inv_mass, h](int i) {
    return velocity_kick::four(v, force, inv_mass, h, i);
  };
  auto kick = [v, force, inv_mass, h](int i) {
    return velocity_kick::one(v, force, inv_mass, h, i);
  };
  queue_body_work(e.external_force, e.drag_force, e.drag_marks.known(), h, kick4, kick,
                  {e.pair_powers.dissipation * h, e.pair_powers.external * h});
}

// The rotation's first or closing half with the cached torques, and when work_h > 0 the work of
// the tracked external and drag torques over its kick (h F.mean, as for the kicks). Queued by
// ranges where the scheme offers them, each range keeping its spins from before the kick at
// hand; else run at once over all bodies.
void Simulation::rotation_half(bool first, double work_h) {
  rotation_->set_parallel(parallel_);
  const Evaluation& e = cached_;
  const double* external = tracked_data(e.external_torque);
  const double* drag = tracked_data(e.drag_torque);
  const std::uint8_t* marks = e.drag_marks.known();
  const bool book = work_h > 0 && (external || drag);
  auto turn = [this, first, h = dt_](int begin, int end) {
    if (first)
      rotation_->begin_range(world_, committed_torque(), h, begin, end);
    else
      rotation_->end_range(world_, committed_torque(), h, begin, end);
  };
  if (rotation_->by_ranges() && !book) {
    passes_.add([turn](int, int begin, int end) { turn(begin, end); });
    return;
  }
  if (rotation_->by_ranges()) {
    double* sums = passes_.slots(2);
    passes_.add(
        [this, turn, external, drag, marks, work_h, sums](int task, int begin, int end) {
          std::vector<double>& before = spins_before_[task];  // each task its own
          if (int(before.size()) < 3 * (end - begin)) before.resize(3 * (end - begin));
          const double* w = world_.w.data();
          // Only the marked bodies' drag torques can do work: when few are, only they are booked.
          if (!external && DragMarks::few(marks, begin, end)) {
            std::vector<int>& marked = marked_bodies_[task];
            if (int(marked.size()) < end - begin) marked.resize(end - begin);
            int kept = 0;
            DragMarks::each(marks, begin, end, [&marked, &kept](int i) { marked[kept++] = i; });
            double* b = before.data();
            for (int k = 0; k < kept; ++k)
              Eigen::Map<Vec3>(b + 3 * k) = Eigen::Map<const Vec3>(w + 3 * marked[k]);
            turn(begin, end);
            double& loss = sums[kMaxTasks + task];
            for (int k = 0; k < kept; ++k) {
              const int i = marked[k];
              const Vec3 mean =
                  0.5 * (Eigen::Map<const Vec3>(b + 3 * k) + Eigen::Map<const Vec3>(w + 3 * i));
              loss -= work_h * Eigen::Map<const Vec3>(drag + 3 * i).dot(mean);  // as below
            }
            return;
          }
          std::copy(w + 3 * begin, w + 3 * end, before.data());
          turn(begin, end);
          const double* b = before.data();
          auto mean = [b, w, begin](int i) -> Vec3 {
            return 0.5 * (Eigen::Map<const Vec3>(b + 3 * (i - begin)) +
                          Eigen::Map<const Vec3>(w + 3 * i));
          };
          auto mean4 = [b, w, begin](int i) {  // four at a time, as stored
            using namespace lanes;
            return splat(0.5) * (load_stored(b + 3 * (i - begin)) + load_stored(w + 3 * i));
          };
          add_body_work(external, drag, marks, work_h, mean4, mean, begin, end, sums[task],
                        sums[kMaxTasks + task]);
        },
        book_sums(sums, {}));
    return;
  }
  flush();
  if (book) w_before_ = world_.w;
  if (first)
    rotation_->begin_step(world_, cached_.torque, dt_);
  else
    rotation_->end_step(world_, cached_.torque, dt_);
  if (book)
    queue_body_work(e.external_torque, e.drag_torque, e.drag_marks.known(), work_h, nullptr,
                    mean_of(w_before_.data(), world_.w.data()));
}

}  // namespace stepwise
