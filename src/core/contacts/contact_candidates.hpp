#pragma once
// Which neighbour-list pairs are worth a distance test. Each list slot keeps its pair's gap at the
// list's build; bodies are grouped in blocks of kBlock by index, and each block keeps the most any
// of its bodies has been displaced at an evaluation since the build (it only grows), measured from
// its build position plus the list's common drift (list_drift.hpp). A pair whose gap exceeds the
// sum of its two blocks' values cannot have touched since the build. (Per block,
// not globally: a few rattlers would loosen the bound for every pair; per body costs more in the
// scan than it saves.) The candidates are found with each block's limit a small margin beyond
// its value, and kept until some block outgrows its limit or the list is rebuilt, so a settled
// packing scans the list only now and then.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/contacts/neighbor_list.hpp"
#include "core/zeroed_array.hpp"

namespace stepwise {

class ContactCandidates {
 public:
  void resize(int n) {
    most2_.resize(block_count(n));
    bound_.resize(block_count(n));
  }
  // Per block: its bodies' largest squared displacement since the build, written by the
  // packing pass (NeighborList::displacements2 with runs of kBlock), or by the sweep.
  double* most2() { return most2_.data(); }
  // Per block, for the sweep (SweepShare::bound, limit): a bound on that displacement, zero
  // again at a rebuild; and the limits beyond which the candidates are found again (null
  // while they are to be set).
  double* bounds() { return bound_.data(); }
  const double* limits() const { return limit_.size() == moved_.size() ? limit_.data() : nullptr; }

  // Folds this evaluation's displacements into the blocks' running maxima; false if some body
  // moved beyond rebuild_at (squared) or the blocks do not fit n bodies: the list must be rebuilt.
  bool track(int n, double rebuild_at) {
    const int blocks = block_count(n);
    if (int(moved_.size()) != blocks || int(most2_.size()) != blocks) return false;
    double overall = 0;
    for (int b = 0; b < blocks; ++b) overall = std::max(overall, most2_[b]);
    if (overall > rebuild_at) return false;
    for (int b = 0; b < blocks; ++b) moved_[b] = std::max(moved_[b], std::sqrt(most2_[b]));
    return true;
  }
  // After a rebuild: nothing has moved, and the candidates must be found again. The blocks'
  // margins are halved: a block that kept moving keeps some of its room.
  void restart(int n) {
    moved_.assign(block_count(n), 0.0);
    bound_.assign(moved_.size(), 0.0);
    margin_.resize(moved_.size(), 0.0);
    for (double& m : margin_) m *= 0.5;
    limit_.clear();
  }
  // Stale if some block outgrew its limit; then every block's limit is set its margin beyond
  // where it is now. A block's margin starts at a small share of the list's skin and doubles
  // each time that block is the one that outgrew its limit (up to a quarter of the skin), so the
  // few blocks that keep moving (rattlers, bodies in flight) do not make every block's
  // candidates be found again at every step.
  void update_limits(double skin) {
    stale_ = limit_.size() != moved_.size();
    for (size_t b = 0; b < limit_.size(); ++b)
      if (moved_[b] > limit_[b]) {
        stale_ = true;
        margin_[b] = std::min(2 * margin_[b], kMostMargin * skin);
      }
    if (!stale_) return;
    limit_.resize(moved_.size());
    for (size_t b = 0; b < limit_.size(); ++b) {
      margin_[b] = std::max(margin_[b], kMargin * skin);
      limit_[b] = moved_[b] + margin_[b];
    }
  }
  // Whether the candidates found before are out of date.
  bool stale() const { return stale_; }
  // The most any body of block b (bodies b kBlock to b kBlock + kBlock - 1) has been displaced
  // at an evaluation since the build, as last tracked; blocks() of them.
  double moved(int b) const { return moved_[b]; }
  int blocks() const { return int(moved_.size()); }
  static constexpr int kBlock = 16;  // bodies per block

  // The slots of bodies [begin, end) whose gap at the build is within their two blocks' limits,
  // as (body, slot), padded to a multiple of four by repeating the last; returns how many. While
  // no block outgrows its limit, every pair that can touch is among them. (A pair holding a
  // spring has touched since the build, so its gap is within the limits too.) Listed from the
  // last body down, for speed only: a partner's index is the later one, so a pass down the list
  // meets a partner's rows soon after it read them for the partner's own pairs, still in the
  // cache (past it, going up met each partner first from the memory: 1M landing grains took
  // 0.95 of the time going down).
  int find(const NeighborList& list, const double* gaps, int begin, int end, ZeroedArray<int>& body,
           ZeroedArray<int>& slot) const {
    const int* offsets = list.offsets().data();
    const int* neighbors = list.neighbors().data();
    const double* limit = limit_.data();
    const int most = offsets[end] - offsets[begin];
    if (body.size() < size_t(most) + 4) {  // (what they held is not read again)
      body.assign_zero(size_t(most) + 4);
      slot.assign_zero(size_t(most) + 4);
    }
    int* out_body = body.data();
    int* out_slot = slot.data();
    int count = 0;
    for (int i = end - 1; i >= begin; --i) {  // branch-free: both written, kept if it passes
      const double own = limit[unsigned(i) / kBlock];
      for (int k = offsets[i + 1] - 1; k >= offsets[i]; --k) {
        out_body[count] = i;
        out_slot[count] = k;
        count += gaps[k] <= own + limit[unsigned(neighbors[k]) / kBlock];
      }
    }
    for (int p = count; count > 0 && p % 4 != 0; ++p)
      out_body[p] = out_body[count - 1], out_slot[p] = out_slot[count - 1];
    return count;
  }

 private:
  static constexpr double kMargin = 0.01;      // of the skin: a block's first margin
  static constexpr double kMostMargin = 0.25;  // of the skin: the most a margin grows to
  static int block_count(int n) { return (n + kBlock - 1) / kBlock; }
  std::vector<double> moved_;   // per block: the running maximum displacement
  std::vector<double> most2_;   // per block: this evaluation's largest squared displacement
  std::vector<double> limit_;   // per block: beyond it, the candidates are found again
  std::vector<double> margin_;  // per block: how far beyond its displacement its limit is set
  std::vector<double> bound_;   // per block: at least its bodies' largest displacement
  bool stale_ = true;
};

}  // namespace stepwise
