#pragma once
// A scene file's [[body]] tables read line by line, one body at a time, where they are written as
// stepwise saves them: one `key = value` per line (numbers, true/false, strings without escapes,
// one-line lists of numbers; comments and blank lines between). Read whole, a saved state of N
// bodies held the file's TOML tree, its tables and their copies at once, about 10 kB a body
// beside the World being built (and toml++ reads numbers slowly). A file with anything else in
// its body tables (sub-tables, escapes, lists over several lines, ...) is read whole, as before;
// both readings give the same tables, down to where each key was written. Long one-line lists
// of numbers elsewhere (a saved state's forces, springs) are read here too and handed to the
// tables toml++ reads from the rest (put_lists), for the same reasons.
#include <optional>
#include <string>
#include <vector>

#include "core/params.hpp"

namespace stepwise {

class BodyLines {
 public:
  // The body tables of `text`, or nullopt if some line of them is not of the simple kind above.
  static std::optional<BodyLines> split(const std::string& text);

  // The text with its body tables' lines left empty (so every other line keeps its number), to
  // be read as TOML; if that reading has a `body` key, the file must be read whole instead.
  const std::string& rest() const { return rest_; }
  int size() const { return int(bodies_.size()); }
  // Body i's table as the TOML reading of the whole file gives it; `text` is the one split.
  ParamTable table(const std::string& text, int i, const std::string& source) const;
  // Where body i's table starts ("file:line [[body]]"), as that table's where().
  std::string where(int i, const std::string& source) const;
  // Puts the long lists of numbers read from the rest's lines (left there as `key = []`) into
  // the tables read from it; false if some table is not where its header said (then the file
  // must be read whole).
  bool put_lists(ParamTable& root);

 private:
  // A list of numbers taken out of the rest: the tables leading to it from the root (name, and
  // index among the tables of that name), its key, its numbers.
  struct List {
    std::vector<std::pair<std::string, int>> path;
    std::string key;
    std::vector<double> numbers;
  };
  std::vector<List> lists_;
  struct Body {
    size_t begin = 0, end = 0;  // its lines after the header: text[begin, end)
    int header_line = 0;        // 1-based
  };
  std::vector<Body> bodies_;
  std::string rest_;
};

}  // namespace stepwise
