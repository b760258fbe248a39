#pragma once
// A small line-plot widget on ImGui's draw list (Debian ships no ImPlot): axes with nice ticks,
// several series, optional min/max bands, a legend, vertical event markers and a hover read-out.
#include <imgui.h>

#include <string>
#include <vector>

namespace stepwise {

struct PlotSeries {
  std::string label;
  ImU32 colour;
  const std::vector<double>* x;
  const std::vector<double>* y;
  const std::vector<double>* band_low = nullptr;  // optional envelope drawn behind the line
  const std::vector<double>* band_high = nullptr;
  bool points = false;  // draw markers at the samples (convergence plots)
};

struct PlotMarker {
  double x;
  std::string label;
};

struct PlotOptions {
  float height = 220;
  bool log_x = false, log_y = false;
  bool symmetric_log = false;  // log of |y| (energy error of either sign)
  std::string x_label, y_label;
  std::vector<PlotMarker> markers;
  // Extra reference lines y = a x^slope through a point, for convergence plots.
  bool fixed_x_range = false;
  double x_min = 0, x_max = 1;
};

void plot(const char* id, const std::vector<PlotSeries>& series, const PlotOptions& options);

// Tick positions for [low, high]: 1-2-5 steps on linear axes, decades on log axes.
std::vector<double> nice_ticks(double low, double high, int target_count);
std::string format_tick(double value);

}  // namespace stepwise
