#pragma once
// The energy samples the window has received for the current scene, as plot-ready columns. The
// worker's queue is lossless; this keeps the newest `capacity` samples (the plot's window).
#include <cstdint>
#include <vector>

#include "runtime/energy_sample.hpp"
#include "ui/plot_widget.hpp"

namespace stepwise {

class EnergyHistory {
 public:
  void add(const std::vector<EnergySample>& incoming);
  void clear();
  size_t size() const { return time.size(); }
  long samples_received() const { return received_; }
  long steps_covered() const { return steps_; }

  std::vector<double> time, kinetic, potential, total, external_work, dissipated, corrected;
  std::vector<double> error, error_min, error_max;  // since the start
  std::vector<double> since_switch, since_switch_min, since_switch_max;  // since the last switch
  std::vector<double> reference_position_error, reference_energy_error;
  std::vector<double> constraint_error, constraint_rate;  // NaN where the scene has none
  std::vector<PlotMarker> markers;
  std::vector<EnergySample> samples;  // as received, for the CSV export
  struct RunSeries {
    std::uint64_t id = 0;  // the comparison run these samples came from
    std::vector<double> time, error;
  };
  std::vector<RunSeries> comparisons;  // comparison run k (1-based in the samples) at k - 1
  size_t capacity = 200000;

 private:
  void trim();
  void go_back_to(double t);
  std::uint64_t generation_ = ~0ull;
  long received_ = 0, steps_ = 0;
  double switch_base_ = 0;  // the error at the last switch
};

}  // namespace stepwise
