#pragma once
// Named parameters: scene parameters, integrator options and force-model settings all use this,
// so the CLI (--set), scene files and the GUI address them the same way.
#include <iterator>
#include <map>
#include <string>
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

class ParamTable {
 public:
  explicit ParamTable(std::string where = {}) : where_(std::move(where)) {}

  void set(const std::string& key, ParamValue value);
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  const std::map<std::string, ParamValue>& values() const { return values_; }
  const std::string& where() const { return where_; }
  void set_where(std::string where) { where_ = std::move(where); }
  // Where one key was written (a file's line of that key, not its table's), for messages about
  // its value; the table's place when not known.
  const std::string& where(const std::string& key) const;
  void set_where(const std::string& key, std::string where) { key_where_[key] = std::move(where); }
  // The same given as a line: key's where is the table's own with its line number (the digits
  // after its last ':') replaced by `line`. For tables read by the million (a saved state's
  // bodies, io/body_lines.hpp; for speed only): the string is made only when asked for.
  void set_where_line(const std::string& key, int line);

  // Typed reads; each marks the key used so leftovers can be reported as unknown.
  double number(const std::string& key) const;
  double number(const std::string& key, double fallback) const;
  // A body index: a whole number from -1 (none) up, checked before it becomes an int; whether
  // that body exists is the model's validate().
  int index(const std::string& key) const;
  int index(const std::string& key, int fallback) const;
  bool flag(const std::string& key, bool fallback) const;
  std::string text(const std::string& key, const std::string& fallback) const;
  // Text that must be one of `options`, the first being the default; else InputError ("'key'
  // must be a, b or c (got 'd')").
  std::string choice(const std::string& key, const std::vector<std::string>& options) const;
  std::vector<double> numbers(const std::string& key) const;
  std::vector<double> numbers(const std::string& key, std::vector<double> fallback) const;
  // Three numbers; or, in a table of a 2-D scene, two: [x, y] is [x, y, 0].
  Vec3 vec3(const std::string& key, const Vec3& fallback) const;
  // (By reference: a saved state's lists run to millions of numbers, copied only where kept.)
  const std::vector<ParamTable>& tables(const std::string& key) const;
  // A list of numbers, not a lone number (as numbers() also takes); absent and not required,
  // an empty list.
  const std::vector<double>& number_list(const std::string& key, bool required = true) const;
  // The value of key to change in place, or null; marks nothing used. (For a reader that fills
  // in values after the tables are read: io/body_lines.hpp.)
  ParamValue* value_at(const std::string& key) {
    const auto it = values_.find(key);
    return it == values_.end() ? nullptr : &it->second;
  }
  // This table and every table in it (a body's, a force's walls) are of a 2-D scene.
  void set_planar();

  // Throws InputError naming the first key no reader asked for.
  void reject_unused() const;

 private:
  const ParamValue* find(const std::string& key) const;
  [[noreturn]] void type_error(const std::string& key, const char* wanted) const;
  std::map<std::string, ParamValue> values_;
  std::string where_;
  // Where keys were written: as strings (made from where_lines_ when first asked for), and as
  // lines, per key in values_'s order (0: none given).
  mutable std::map<std::string, std::string> key_where_;
  std::vector<int> where_lines_;
  // Per key in values_'s order, whether a reader asked for it (a flag, not a map of the keys'
  // names: for speed only, as above). set() keeps both lists in that order.
  mutable std::vector<bool> used_;
  size_t place(std::map<std::string, ParamValue>::const_iterator it) const {
    return size_t(std::distance(values_.begin(), it));
  }
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
