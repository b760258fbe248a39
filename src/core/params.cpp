#include "core/params.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace stepwise {

// a < b as std::string_view's operator< orders them (characters as unsigned char), the first
// characters compared here: most keys differ there, and the full comparison is a call to memcmp
// (a saved state looks up some 25 keys a body; for speed only).
static bool key_before(std::string_view a, std::string_view b) {
  if (!a.empty() && !b.empty() && a[0] != b[0])
    return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
  return a < b;
}

// The first entry whose key is not before `key`.
static auto first_not_before(const ParamValues& values, std::string_view key) {
  return std::lower_bound(values.begin(), values.end(), key,
                          [](const auto& entry, auto k) { return key_before(entry.first, k); });
}

size_t ParamTable::put(std::string_view key, ParamValue&& value) {
  // A key after every other (a reader setting them in order) goes on the end unsearched.
  const size_t at = !values_.empty() && key_before(values_.back().first, key)
                        ? values_.size()
                        : size_t(first_not_before(values_, key) - values_.begin());
  if (at < values_.size() && values_[at].first == key) {
    values_[at].second = std::move(value);
    return at;
  }
  values_.emplace(values_.begin() + std::ptrdiff_t(at), key, std::move(value));
  marks_.insert(marks_.begin() + std::ptrdiff_t(at), KeyMark{});
  return at;
}

void ParamTable::set(std::string_view key, ParamValue value) {
  put(key, std::move(value));
}

void ParamTable::set(std::string_view key, ParamValue value, int line) {
  set_line(put(key, std::move(value)), key, line);
}

void ParamTable::set_line(size_t at, std::string_view key, int line) {
  marks_[at].line = line;
  if (const auto it = key_where_.find(key); it != key_where_.end()) key_where_.erase(it);
}

std::ptrdiff_t ParamTable::slot(std::string_view key) const {
  const auto it = first_not_before(values_, key);
  return it != values_.end() && it->first == key ? it - values_.begin() : -1;
}

const ParamValue* ParamTable::find(std::string_view key) const {
  const std::ptrdiff_t k = slot(key);
  if (k < 0) return nullptr;
  marks_[size_t(k)].used = true;
  return &values_[size_t(k)].second;
}

void ParamTable::set_where_line(std::string_view key, int line) {
  if (const std::ptrdiff_t k = slot(key); k >= 0) set_line(size_t(k), key, line);
}

const std::string& ParamTable::where(std::string_view key) const {
  const auto it = key_where_.find(key);
  if (it != key_where_.end()) return it->second;
  const std::ptrdiff_t k = slot(key);
  const int line = k < 0 ? 0 : marks_[size_t(k)].line;
  const size_t colon = where_.rfind(':');
  if (line <= 0 || colon == std::string::npos) return where_;
  size_t digits = colon + 1;
  while (digits < where_.size() && where_[digits] >= '0' && where_[digits] <= '9') ++digits;
  return key_where_[std::string(key)] =
             where_.substr(0, colon + 1) + std::to_string(line) + where_.substr(digits);
}

void ParamTable::missing(std::string_view key) const {
  throw InputError(where_ + (where_.empty() ? "" : ": ") + "missing '" + std::string(key) + "'");
}

void ParamTable::type_error(std::string_view key, const char* wanted) const {
  const std::string& at = where(key);
  throw InputError(at + (at.empty() ? "" : ": ") + "'" + std::string(key) + "' must be " + wanted);
}

const double* ParamTable::number_at(std::string_view key) const {
  const ParamValue* v = find(key);
  if (!v) return nullptr;
  if (auto d = std::get_if<double>(v)) return d;
  type_error(key, "a number");
}

double ParamTable::number(std::string_view key) const {
  const double* d = number_at(key);
  if (!d) missing(key);
  return *d;
}

double ParamTable::number(std::string_view key, double fallback) const {
  const double* d = number_at(key);
  return d ? *d : fallback;
}

int ParamTable::index(std::string_view key) const {
  const double v = number(key);
  if (!(v >= -1 && v <= 2147483647.0) || v != std::floor(v))
    throw InputError(where(key) + (where(key).empty() ? "" : ": ") + std::string(key) +
                     ": must be a body index, a whole number from 0 (got " + format_double(v) +
                     ")");
  return static_cast<int>(v);
}

int ParamTable::index(std::string_view key, int fallback) const {
  return has(key) ? index(key) : fallback;
}

bool ParamTable::flag(std::string_view key, bool fallback) const {
  const ParamValue* v = find(key);
  if (!v) return fallback;
  if (auto b = std::get_if<bool>(v)) return *b;
  if (auto d = std::get_if<double>(v)) return *d != 0.0;
  type_error(key, "true or false");
}

std::string ParamTable::text(std::string_view key, const std::string& fallback) const {
  const ParamValue* v = find(key);
  if (!v) return fallback;
  if (auto s = std::get_if<std::string>(v)) return *s;
  type_error(key, "text");
}

std::string ParamTable::choice(std::string_view key,
                               const std::vector<std::string>& options) const {
  const std::string value = text(key, options.at(0));
  if (std::find(options.begin(), options.end(), value) != options.end()) return value;
  std::string list;
  for (size_t k = 0; k < options.size(); ++k)
    list += (k == 0 ? "" : k + 1 == options.size() ? " or " : ", ") + options[k];
  throw InputError(where(key) + ": '" + std::string(key) + "' must be " + list + " (got '" + value +
                   "')");
}

std::span<const double> ParamTable::numbers_of(std::string_view key, const ParamValue& v) const {
  if (auto list = std::get_if<std::vector<double>>(&v)) return *list;
  if (auto d = std::get_if<double>(&v)) return {d, 1};
  type_error(key, "a list of numbers");
}

std::vector<double> ParamTable::numbers(std::string_view key) const {
  const ParamValue* v = find(key);
  if (!v) missing(key);
  const auto list = numbers_of(key, *v);
  return {list.begin(), list.end()};
}

std::vector<double> ParamTable::numbers(std::string_view key, std::vector<double> fallback) const {
  const ParamValue* v = find(key);
  if (!v) return fallback;
  const auto list = numbers_of(key, *v);
  return {list.begin(), list.end()};
}

Vec3 ParamTable::vec3(std::string_view key, const Vec3& fallback) const {
  const ParamValue* v = find(key);
  if (!v) return fallback;
  const auto list = numbers_of(key, *v);
  if (planar_ && list.size() == 2) return {list[0], list[1], 0.0};
  if (list.size() != 3)
    type_error(key, planar_ ? "a list of two or three numbers" : "a list of three numbers");
  return {list[0], list[1], list[2]};
}

void ParamTable::set_planar() {
  planar_ = true;
  for (auto& [key, value] : values_)
    if (auto* list = std::get_if<std::vector<ParamTable>>(&value))
      for (ParamTable& t : *list) t.set_planar();
}

const std::vector<ParamTable>& ParamTable::tables(std::string_view key) const {
  static const std::vector<ParamTable> none;
  const ParamValue* v = find(key);
  if (!v) return none;
  if (auto list = std::get_if<std::vector<ParamTable>>(v)) return *list;
  type_error(key, "an array of tables");
}

const std::vector<double>& ParamTable::number_list(std::string_view key, bool required) const {
  static const std::vector<double> none;
  const ParamValue* v = find(key);
  if (!v && !required) return none;
  if (!v) missing(key);
  if (auto list = std::get_if<std::vector<double>>(v)) return *list;
  type_error(key, "a list of numbers");
}

void ParamTable::reject_unused() const {
  size_t k = 0;
  for (const auto& [key, value] : values_)
    if (!marks_[k++].used)
      throw InputError(where(key) + (where(key).empty() ? "" : ": ") + "unknown key '" + key + "'");
}

std::vector<ParamTable> table_list(ParamTable table) {
  std::vector<ParamTable> list;
  list.push_back(std::move(table));
  return list;
}

std::vector<double> flatten(const Positions& m) {
  return std::vector<double>(m.data(), m.data() + m.size());
}

Positions unflatten(const std::vector<double>& values, int rows, int cols,
                    const std::string& what) {
  if (values.size() != size_t(rows) * size_t(cols))
    throw InputError(what + ": expected " + std::to_string(rows * cols) + " numbers, got " +
                     std::to_string(values.size()));
  Positions m(rows, cols);
  std::copy(values.begin(), values.end(), m.data());
  return m;
}

ParamValue parse_param_value(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  auto parse_number = [](const std::string& s, double& out) {
    const char* end = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && ptr == end;
  };
  double d = 0;
  if (parse_number(text, d)) return d;
  if (text.find(',') != std::string::npos) {
    std::vector<double> list;
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      std::string part =
          text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!parse_number(part, d)) return text;
      list.push_back(d);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return list;
  }
  return text;
}

std::string format_double(double value) {
  std::string s;
  append_double(s, value);
  return s;
}

void append_double(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "inf" : "-inf";
    return;
  }
  char buffer[64];
  char* const end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, end);
  // TOML floats need a dot or exponent to stay floats.
  static constexpr char kMarks[] = ".eE";
  if (std::find_first_of(buffer, end, kMarks, kMarks + 3) == end) out += ".0";
}

std::string format_param_value(const ParamValue& value) {
  if (auto d = std::get_if<double>(&value)) return format_double(*d);
  if (auto b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (auto s = std::get_if<std::string>(&value)) return *s;
  if (auto list = std::get_if<std::vector<double>>(&value)) {
    std::string out;
    for (size_t i = 0; i < list->size(); ++i) {
      if (i) out += ',';
      append_double(out, (*list)[i]);
    }
    return out;
  }
  return "[tables]";
}

}  // namespace stepwise
