#include "ui/plot_widget.hpp"

#include "ui/layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace stepwise {
namespace {

constexpr float kLeft = 62, kBottom = 34, kTop = 4, kRight = 12;
constexpr int kMarkerRows = 3;  // marker labels stack in this many rows, then only lines show

struct Axis {
  double low = 0, high = 1;
  bool log = false;
  double map(double v) const { return log ? std::log10(v) : v; }
  double unmap(double m) const { return log ? std::pow(10.0, m) : m; }
  bool valid(double v) const { return std::isfinite(v) && (!log || v > 0); }
};

double display_y(double y, const PlotOptions& o) { return o.symmetric_log ? std::abs(y) : y; }

void find_range(const std::vector<PlotSeries>& series, const PlotOptions& o, Axis& xa, Axis& ya) {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const PlotSeries& s : series) {
    const size_t n = std::min(s.x->size(), s.y->size());
    for (size_t i = 0; i < n; ++i) {
      const double x = (*s.x)[i];
      if (!xa.valid(x)) continue;
      bool shown = false;  // the x range covers samples that have a y to draw, no others
      for (const std::vector<double>* source : {s.y, s.band_low, s.band_high}) {
        if (!source || i >= source->size()) continue;
        const double y = display_y((*source)[i], o);
        if (!ya.valid(y)) continue;
        y0 = std::min(y0, ya.map(y));
        y1 = std::max(y1, ya.map(y));
        shown = true;
      }
      if (shown) x0 = std::min(x0, xa.map(x)), x1 = std::max(x1, xa.map(x));
    }
  }
  if (o.fixed_x_range) x0 = xa.map(o.x_min), x1 = xa.map(o.x_max);
  if (!(x1 > x0)) x0 = std::isfinite(x0) ? x0 - 0.5 : 0, x1 = x0 + 1;
  if (!std::isfinite(y0)) y0 = 0, y1 = 1;
  if (!(y1 > y0)) {
    const double pad = std::max(std::abs(y0) * 0.1, ya.log ? 0.5 : 1e-12);
    y0 -= pad, y1 += pad;
  }
  const double margin = 0.06 * (y1 - y0);
  xa.low = x0, xa.high = x1, ya.low = y0 - margin, ya.high = y1 + margin;
}


}  // namespace

std::vector<double> nice_ticks(double low, double high, int target_count) {
  std::vector<double> ticks;
  if (!(high > low) || !std::isfinite(low) || !std::isfinite(high)) return ticks;
  const double raw = (high - low) / std::max(target_count, 1);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = decade;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= raw) {
      step = m * decade;
      break;
    }
  for (double t = std::ceil(low / step) * step; t <= high + 1e-9 * step; t += step)
    ticks.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  return ticks;
}

std::string format_tick(double value) {
  char text[32];
  const double a = std::abs(value);
  if (a != 0 && (a < 1e-3 || a >= 1e5)) std::snprintf(text, sizeof text, "%.0e", value);
  else std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

namespace {

// Title and legend above the frame, as ordinary items: the title wraps, the legend flows over as
// many lines as it needs, and neither covers the data.
void title_and_legend(const std::vector<PlotSeries>& series, const PlotOptions& o) {
  if (!o.y_label.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(o.y_label.c_str());
    ImGui::PopTextWrapPos();
  }
  if (series.size() < 2) return;
  const float swatch = 14, gap = ImGui::GetStyle().ItemInnerSpacing.x;
  for (size_t k = 0; k < series.size(); ++k) {
    const float label = ImGui::CalcTextSize(series[k].label.c_str()).x;
    if (k > 0) same_line_if_fits(swatch + gap + label);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float mid = at.y + 0.5f * ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, mid - 2), ImVec2(at.x + swatch, mid + 2),
                                              series[k].colour);
    ImGui::Dummy(ImVec2(swatch, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, gap);
    ImGui::TextUnformatted(series[k].label.c_str());
  }
}

}  // namespace

void plot(const char* id, const std::vector<PlotSeries>& series, const PlotOptions& o) {
  ImGui::PushID(id);
  title_and_legend(series, o);
  const float width = std::max(ImGui::GetContentRegionAvail().x, 120.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(width, o.height);
  ImGui::InvisibleButton("plot", size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p0(origin.x + kLeft, origin.y + kTop);
  const ImVec2 p1(origin.x + size.x - kRight, origin.y + size.y - kBottom);
  draw->AddRectFilled(p0, p1, IM_COL32(24, 26, 32, 255));

  Axis xa{0, 1, o.log_x}, ya{0, 1, o.log_y || o.symmetric_log};
  find_range(series, o, xa, ya);
  auto sx = [&](double m) { return float(p0.x + (m - xa.low) / (xa.high - xa.low) * (p1.x - p0.x)); };
  auto sy = [&](double m) { return float(p1.y - (m - ya.low) / (ya.high - ya.low) * (p1.y - p0.y)); };

  // Grid and tick labels.
  const ImU32 grid = IM_COL32(60, 64, 74, 255), text = IM_COL32(190, 194, 204, 255);
  auto ticks_for = [](const Axis& a, int count) {
    if (!a.log) return nice_ticks(a.low, a.high, count);
    std::vector<double> t;
    const int step = std::max(1, int(std::ceil((a.high - a.low) / count)));
    for (double d = std::ceil(a.low); d <= a.high; d += step) t.push_back(d);
    return t;
  };
  for (double t : ticks_for(xa, std::max(2, int((p1.x - p0.x) / 90)))) {
    const float x = sx(t);
    draw->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), grid);
    const std::string label = format_tick(xa.unmap(t));
    draw->AddText(ImVec2(x - 3.0f * label.size(), p1.y + 3), text, label.c_str());
  }
  for (double t : ticks_for(ya, std::max(2, int((p1.y - p0.y) / 36)))) {
    const float y = sy(t);
    draw->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), grid);
    const std::string label = format_tick(ya.unmap(t));
    draw->AddText(ImVec2(p0.x - 7.0f * label.size() - 4, y - 7), text, label.c_str());
  }
  if (!o.x_label.empty())
    draw->AddText(ImVec2(0.5f * (p0.x + p1.x) - 3.5f * o.x_label.size(), p1.y + 17), text, o.x_label.c_str());

  draw->PushClipRect(p0, p1, true);
  // Event markers: labels stack in rows from the bottom; one that would overprint in every row
  // keeps only its line (the hover read-out names it).
  float row_end[kMarkerRows];
  std::fill(row_end, row_end + kMarkerRows, -1e30f);
  for (const PlotMarker& m : o.markers) {
    if (!xa.valid(m.x)) continue;
    const float x = sx(xa.map(m.x));
    draw->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(250, 200, 70, 160), 1.5f);
    const float label = ImGui::CalcTextSize(m.label.c_str()).x;
    for (int r = 0; r < kMarkerRows; ++r) {
      if (x < row_end[r] + 6 || p1.y - 16 - 14.0f * r < p0.y) continue;
      draw->AddText(ImVec2(x + 3, p1.y - 16 - 14.0f * r), IM_COL32(250, 200, 70, 230),
                    m.label.c_str());
      row_end[r] = x + 3 + label;
      break;
    }
  }
  // Series: at most one vertex per pixel column (min/max kept) so long histories stay cheap.
  for (const PlotSeries& s : series) {
    const size_t n = std::min(s.x->size(), s.y->size());
    if (s.band_low && s.band_high) {
      const ImU32 band = (s.colour & 0x00FFFFFF) | 0x40000000;
      for (size_t i = 0; i < n && i < s.band_low->size() && i < s.band_high->size(); ++i) {
        const double x = (*s.x)[i], a = display_y((*s.band_low)[i], o), b = display_y((*s.band_high)[i], o);
        if (!xa.valid(x) || !ya.valid(a) || !ya.valid(b)) continue;
        const float px = sx(xa.map(x));
        draw->AddLine(ImVec2(px, sy(ya.map(a))), ImVec2(px, sy(ya.map(b))), band);
      }
    }
    std::vector<ImVec2> line;
    line.reserve(std::min<size_t>(n, 4096));
    float column = -1e9f, column_low = 0, column_high = 0;
    for (size_t i = 0; i < n; ++i) {
      const double x = (*s.x)[i], y = display_y((*s.y)[i], o);
      if (!xa.valid(x) || !ya.valid(y)) continue;
      const float px = sx(xa.map(x)), py = sy(ya.map(y));
      if (s.points) draw->AddCircleFilled(ImVec2(px, py), 3.5f, s.colour);
      if (px - column < 1.0f && !line.empty()) {
        column_low = std::min(column_low, py), column_high = std::max(column_high, py);
        line.back().y = py;
        continue;
      }
      if (!line.empty() && column_high > column_low)
        draw->AddLine(ImVec2(column, column_low), ImVec2(column, column_high), s.colour);
      column = px, column_low = column_high = py;
      line.emplace_back(px, py);
    }
    if (line.size() >= 2) draw->AddPolyline(line.data(), int(line.size()), s.colour, 0, 1.6f);
  }
  draw->PopClipRect();
  draw->AddRect(p0, p1, IM_COL32(90, 94, 106, 255));

  // Hover read-out: the sample of each series nearest the mouse's x.
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x;
    const double xm = xa.unmap(xa.low + (mx - p0.x) / (p1.x - p0.x) * (xa.high - xa.low));
    draw->AddLine(ImVec2(mx, p0.y), ImVec2(mx, p1.y), IM_COL32(220, 220, 220, 90));
    ImGui::BeginTooltip();
    ImGui::Text("%s = %.6g", o.x_label.empty() ? "x" : o.x_label.c_str(), xm);
    for (const PlotSeries& s : series) {
      const auto it = std::lower_bound(s.x->begin(), s.x->end(), xm);
      if (it == s.x->end() && s.x->empty()) continue;
      const size_t i = std::min<size_t>(size_t(it - s.x->begin()), s.x->size() - 1);
      if (i < s.y->size()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.colour), "%s: %.6g",
                                              s.label.c_str(), (*s.y)[i]);
    }
    for (const PlotMarker& m : o.markers)  // the full text of markers under the mouse
      if (xa.valid(m.x) && std::abs(sx(xa.map(m.x)) - mx) <= 4)
        ImGui::TextColored(ImVec4(0.98f, 0.78f, 0.27f, 1), "| %s (at %.6g)", m.label.c_str(), m.x);
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

}  // namespace stepwise
