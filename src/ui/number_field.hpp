#pragma once
// A live number field: what is typed applies once, on Enter or when the field loses focus, and
// only if it is a finite number within the field's range; otherwise a message says why. Typing
// 5000 is one edit, not four (5, 50, 500, 5000), and a refused value is never sent.
#include <map>
#include <string>

namespace stepwise {

struct FieldEdits {
  std::map<unsigned, double> typed;  // by ImGui id: the number in a field being edited
};

// Draws the field; returns true when `out` holds a value to apply. `message` is set when a typed
// value is refused (it names the field and the range).
bool number_field(const char* label, double current, double low, double high, FieldEdits& edits,
                  double& out, std::string& message);

}  // namespace stepwise
