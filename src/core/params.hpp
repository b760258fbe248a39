#pragma once
// Named parameters: scene parameters, integrator options and force-model settings all use this,
// so the CLI (--set), scene files and the GUI address them the same way.
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/types.hpp"

namespace stepwise {

constexpr double kTunableMax = 1e15;  // the default bound of a live edit's magnitude

// A live-tunable number (model parameter or integrator option) shown in the GUI and set by --set.
// [low, high] is the range a live edit may take (the window's field, a lesson's `set`), stated
// here once and checked by ForceModel::tune.
struct Tunable {
  std::string name;
  double value;
  std::string description;
  double low = 0, high = kTunableMax;
  // A choice among names (drift control): the value is the chosen one's index, shown as a combo.
  std::vector<std::string> choices = {};
};

class ParamTable;
using ParamValue =
    std::variant<double, bool, std::string, std::vector<double>, std::vector<ParamTable>>;
// A table's keys and values, in the order of the keys (a sorted list, not a map: a table of ten
// keys is searched in a few comparisons without a node per key to allocate and follow, and a
// saved state reads a million of them).
using ParamValues = std::vector<std::pair<std::string, ParamValue>>;

class ParamTable {
 public:
  explicit ParamTable(std::string where = {}) : where_(std::move(where)) {}

  void set(std::string_view key, ParamValue value);
  bool has(std::string_view key) const { return slot(key) >= 0; }
  // Room for `keys` keys, for a reader that knows how many it sets (for speed only).
  void reserve(size_t keys) { values_.reserve(keys), marks_.reserve(keys); }
  const ParamValues& values() const { return values_; }
  const std::string& where() const { return where_; }
  void set_where(std::string where) { where_ = std::move(where); }
  // Where one key was written (a file's line of that key, not its table's), for messages about
  // its value; the table's place when not known.
  const std::string& where(std::string_view key) const;
  void set_where(const std::string& key, std::string where) { key_where_[key] = std::move(where); }
  // The same given as a line: key's where is the table's own with its line number (the digits
  // after its last ':') replaced by `line`. For tables read by the million (a saved state's
  // bodies, io/body_lines.hpp; for speed only): the string is made only when asked for.
  void set_where_line(std::string_view key, int line);
  // set() and set_where_line() in one.
  void set(std::string_view key, ParamValue value, int line);

  // Typed reads; each marks the key used so leftovers can be reported as unknown. (Keys are
  // taken as views: a literal longer than a short string's room would be copied to the heap at
  // every call.)
  double number(std::string_view key) const;
  double number(std::string_view key, double fallback) const;
  // A body index: a whole number from -1 (none) up, checked before it becomes an int; whether
  // that body exists is the model's validate().
  int index(std::string_view key) const;
  int index(std::string_view key, int fallback) const;
  bool flag(std::string_view key, bool fallback) const;
  std::string text(std::string_view key, const std::string& fallback) const;
  // Text that must be one of `options`, the first being the default; else InputError ("'key'
  // must be a, b or c (got 'd')").
  std::string choice(std::string_view key, const std::vector<std::string>& options) const;
  std::vector<double> numbers(std::string_view key) const;
  std::vector<double> numbers(std::string_view key, std::vector<double> fallback) const;
  // Three numbers; or, in a table of a 2-D scene, two: [x, y] is [x, y, 0].
  Vec3 vec3(std::string_view key, const Vec3& fallback) const;
  // (By reference: a saved state's lists run to millions of numbers, copied only where kept.)
  const std::vector<ParamTable>& tables(std::string_view key) const;
  // A list of numbers, not a lone number (as numbers() also takes); absent and not required,
  // an empty list.
  const std::vector<double>& number_list(std::string_view key, bool required = true) const;
  // The value of key to change in place, or null; marks nothing used. (For a reader that fills
  // in values after the tables are read: io/body_lines.hpp.)
  ParamValue* value_at(std::string_view key) {
    const std::ptrdiff_t k = slot(key);
    return k < 0 ? nullptr : &values_[size_t(k)].second;
  }
  // The same to read (null if absent), marking nothing used.
  const ParamValue* value_of(std::string_view key) const {
    const std::ptrdiff_t k = slot(key);
    return k < 0 ? nullptr : &values_[size_t(k)].second;
  }
  // This table and every table in it (a body's, a force's walls) are of a 2-D scene.
  void set_planar();

  // Throws InputError naming the first key no reader asked for.
  void reject_unused() const;

 private:
  // Where key is in values_, or -1.
  std::ptrdiff_t slot(std::string_view key) const;
  // Sets key's value; where it is in values_.
  size_t put(std::string_view key, ParamValue&& value);
  // The line of the key at `at` (its where string made again when next asked for).
  void set_line(size_t at, std::string_view key, int line);
  const ParamValue* find(std::string_view key) const;
  [[noreturn]] void type_error(std::string_view key, const char* wanted) const;
  [[noreturn]] void missing(std::string_view key) const;
  // The number at key (null: absent); key's value as numbers (one number: a list of one).
  const double* number_at(std::string_view key) const;
  std::span<const double> numbers_of(std::string_view key, const ParamValue& value) const;
  ParamValues values_;
  std::string where_;
  // Where keys were written: as strings (made from a key's line when first asked for), and as
  // lines (0: none given).
  mutable std::map<std::string, std::string, std::less<>> key_where_;
  // Per key in values_'s order: its line, and whether a reader asked for it (a flag, not a map
  // of the keys' names: for speed only, as above). set() keeps the two lists in step.
  struct KeyMark {
    int line = 0;
    bool used = false;
  };
  mutable std::vector<KeyMark> marks_;
  bool planar_ = false;
};

// Body arrays as flat number lists (saved run state) and back; InputError if the size is wrong.
std::vector<double> flatten(const Positions& m);
// A list of one table, moved in (a braced list would copy it: a saved state's cached loads are
// 96 MB at 1,000,000 bodies).
std::vector<ParamTable> table_list(ParamTable table);
Positions unflatten(const std::vector<double>& values, int rows, int cols, const std::string& what);

// Parses a command-line value: a number, true/false, a comma list of numbers, or text.
ParamValue parse_param_value(const std::string& text);
std::string format_param_value(const ParamValue& value);
// Shortest text that reads back to the same double (round trip, used by scene saves).
std::string format_double(double value);
// The same appended to `out` (no string of its own: a saved state writes millions).
void append_double(std::string& out, double value);

}  // namespace stepwise
