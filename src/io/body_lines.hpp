#pragma once
// A scene file's [[body]] tables read line by line, one body at a time, where they are written as
// stepwise saves them: one `key = value` per line (numbers, true/false, strings without escapes,
// one-line lists of numbers; comments and blank lines between). Read whole, a saved state of N
// bodies held the file's TOML tree, its tables and their copies at once, about 10 kB a body
// beside the World being built (and toml++ reads numbers slowly). A file with anything else in
// its body tables (sub-tables, escapes, lists over several lines, ...) is read whole, as before;
// both readings give the same tables, down to where each key was written. Long one-line lists
// of numbers elsewhere (a saved state's forces, springs) are read here too and handed to the
// tables toml++ reads from the rest (put_lists), for the same reasons. A file is read as a stream
// of lines, its bodies kept as the values read (about 220 bytes a sphere, not its 470 bytes of
// text): a saved state of N bodies is never held whole.
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/params.hpp"
#include "io/growing_array.hpp"

namespace stepwise {

class BodyLines {
 public:
  // The body tables of `text`, or nullopt if some line of them is not of the simple kind above.
  static std::optional<BodyLines> split(const std::string& text);
  // The same read from a stream (a file) one line at a time.
  static std::optional<BodyLines> split(std::istream& in);

  // The text with its body tables' lines left empty (so every other line keeps its number), to
  // be read as TOML; if that reading has a `body` key, the file must be read whole instead.
  const std::string& rest() const { return rest_; }
  int size() const { return int(bodies_.size()); }
  // Body i's table as the TOML reading of the whole file gives it.
  ParamTable table(int i, const std::string& source) const;
  // Where body i's table starts ("file:line [[body]]"), as that table's where().
  std::string where(int i, const std::string& source) const;
  // Puts the long lists of numbers read from the rest's lines (left there as `key = []`) into
  // the tables read from it; false if some table is not where its header said (then the file
  // must be read whole).
  bool put_lists(ParamTable& root);

  // Where split reads its lines from (a text or a stream: body_lines.cpp).
  class Reader;

 private:
  static std::optional<BodyLines> split(Reader& reader);
  // A list of numbers taken out of the rest: the tables leading to it from the root (name, and
  // index among the tables of that name), its key, its numbers.
  struct List {
    std::vector<std::pair<std::string, int>> path;
    std::string key;
    std::vector<double> numbers;
  };
  std::vector<List> lists_;
  // The bodies' values as read: each entry a key (index into keys_), its line and its value
  // (a number or a list: `count` numbers from the body's next unread one; true/false; a string
  // of `count` characters from the body's next unread one).
  enum class Kind : std::uint8_t { Number, List, True, False, Text };
  struct Entry {
    std::uint16_t key;
    Kind kind;
    std::uint32_t line;  // lines after the body's header (1: the next)
    std::uint32_t count;
  };
  struct Body {
    size_t first_entry = 0, first_number = 0, first_char = 0;
    int header_line = 0;  // 1-based
  };
  // (Grown by realloc: a saved state's bodies run to hundreds of MB; growing_array.hpp.)
  GrowingArray<Body> bodies_;
  GrowingArray<Entry> entries_;
  GrowingArray<double> numbers_;
  std::string chars_;
  std::vector<std::string> keys_;  // the bodies' distinct keys
  // Each key's place among keys_ in their order (ParamTable's), to set a table's keys in it.
  std::vector<std::uint16_t> rank_;
  std::string rest_;
};

}  // namespace stepwise
