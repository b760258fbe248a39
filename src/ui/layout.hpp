#pragma once
// Where the panels go: a run bar along the top and two docked columns that scroll (controls on
// the left, analysis on the right), laid out from the window's size every frame, never at fixed
// pixels; the 3-D view takes the rest. Sections inside a column fold. Every window and section
// records its rectangle and any text that spilled past its right edge, for the layout tests.
#include <string>
#include <vector>

namespace stepwise {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
};

struct Layout {
  Rect run_bar, left, right, view;  // view: the 3-D view's part of the window
};

// Column widths follow the window: a 1024-pixel projector keeps 40% of it for the 3-D view.
// run_bar_height is the last frame's (the bar wraps its text on narrow windows); 0 hides the bar
// (Tab). A column whose sections are all closed gives its width to the view.
Layout compute_layout(float width, float height, float run_bar_height, bool left, bool right);

// What the last frame drew where; `overflow` is how far content ran past the right edge.
struct LayoutEntry {
  std::string name;
  Rect rect;
  float overflow = 0;
};
struct LayoutReport {
  std::vector<LayoutEntry> entries;
  void clear() { entries.clear(); }
};

// A column: a window without decoration at `r`, scrolling vertically. Returns false (nothing to
// draw) when hidden. end_column() records it in the report.
bool begin_column(const char* id, const Rect& r);
void end_column(const char* name, LayoutReport& report);

// A folding section of a column with a close button (the Windows menu brings it back).
// `open_now` unfolds it this frame (a body was picked, a comparison started, a test asked).
bool begin_section(const char* title, bool& shown, bool open_now, bool default_open);
void end_section(const char* title, LayoutReport& report);

// Measures what is drawn between the two on its own (from the last item, e.g. a tree node).
void begin_measured();
void end_measured(const char* name, LayoutReport& report);

// Records the last item (e.g. the dt field) under a name.
void report_item(const char* name, LayoutReport& report);
// A floating window's rectangle and overflow, called before its End().
void report_window(const char* name, LayoutReport& report);

// Puts the next item on the current line if `width` more pixels fit there, else on a new line.
void same_line_if_fits(float width);
float checkbox_width(const char* label);
float button_width(const char* label);

}  // namespace stepwise
