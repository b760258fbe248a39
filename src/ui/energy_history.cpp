#include "ui/energy_history.hpp"

#include <algorithm>

namespace stepwise {

void EnergyHistory::clear() {
  for (auto* column : {&time, &kinetic, &potential, &total, &external_work, &dissipated, &corrected, &error,
                       &error_min, &error_max, &since_switch, &since_switch_min, &since_switch_max,
                       &reference_position_error, &reference_energy_error, &constraint_error,
                       &constraint_rate})
    column->clear();
  samples.clear();
  comparisons.clear();
  markers.clear();
  received_ = steps_ = 0;
  switch_base_ = 0;
}

void EnergyHistory::add(const std::vector<EnergySample>& incoming) {
  for (const EnergySample& s : incoming) {
    if (s.scene_generation != generation_) {  // a new or reset scene starts a new plot
      clear();
      generation_ = s.scene_generation;
    }
    if (s.run > 0) {
      if (int(comparisons.size()) < s.run) comparisons.resize(s.run);
      RunSeries& series = comparisons[s.run - 1];
      if (series.id != s.run_id) series = RunSeries{s.run_id, {}, {}};  // another run: no splice
      series.time.push_back(s.time);
      series.error.push_back(s.error);
      continue;
    }
    if (!time.empty() && s.time < time.back()) go_back_to(s.time);  // the run rewound
    time.push_back(s.time);
    kinetic.push_back(s.kinetic);
    potential.push_back(s.potential);
    total.push_back(s.total);
    external_work.push_back(s.external_work);
    dissipated.push_back(s.dissipated);
    corrected.push_back(s.corrected);
    error.push_back(s.error);
    error_min.push_back(s.error_min);
    error_max.push_back(s.error_max);
    // Re-based at each switch (a marker: integrator, dt, a parameter), so the next method's
    // error starts from zero instead of carrying the last one's.
    if (!s.marker.empty()) switch_base_ = s.error;
    since_switch.push_back(s.error - switch_base_);
    since_switch_min.push_back(s.error_min - switch_base_);
    since_switch_max.push_back(s.error_max - switch_base_);
    reference_position_error.push_back(s.reference_position_error);
    reference_energy_error.push_back(s.reference_energy_error);
    constraint_error.push_back(s.constraint_error);
    constraint_rate.push_back(s.constraint_rate);
    if (!s.marker.empty()) markers.push_back({s.time, s.marker});
    samples.push_back(s);
    ++received_;
    steps_ += s.steps_covered;
  }
  trim();
}

void EnergyHistory::go_back_to(double t) {
  const size_t keep = size_t(std::upper_bound(time.begin(), time.end(), t) - time.begin());
  for (auto* column : {&time, &kinetic, &potential, &total, &external_work, &dissipated, &corrected, &error,
                       &error_min, &error_max, &since_switch, &since_switch_min, &since_switch_max,
                       &reference_position_error, &reference_energy_error, &constraint_error,
                       &constraint_rate})
    column->resize(keep);
  samples.resize(keep);
  switch_base_ = keep ? error.back() - since_switch.back() : 0.0;
  std::erase_if(markers, [t](const PlotMarker& m) { return m.x > t; });
  for (RunSeries& run : comparisons) {
    const size_t k = size_t(std::upper_bound(run.time.begin(), run.time.end(), t) - run.time.begin());
    run.time.resize(k);
    run.error.resize(k);
  }
}

void EnergyHistory::trim() {
  if (time.size() <= capacity) return;
  const size_t drop = time.size() - capacity + capacity / 4;  // amortised: drop a quarter at once
  for (auto* column : {&time, &kinetic, &potential, &total, &external_work, &dissipated, &corrected, &error,
                       &error_min, &error_max, &since_switch, &since_switch_min, &since_switch_max,
                       &reference_position_error, &reference_energy_error, &constraint_error,
                       &constraint_rate})
    column->erase(column->begin(), column->begin() + long(drop));
  samples.erase(samples.begin(), samples.begin() + long(drop));
  const double first = time.front();
  std::erase_if(markers, [first](const PlotMarker& m) { return m.x < first; });
}

}  // namespace stepwise
