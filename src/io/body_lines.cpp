#include "io/body_lines.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <string_view>

namespace stepwise {
namespace {

// One line's characters, read from the front. Every scan_* returns false where the line is not
// of the simple kind; it then stays unread (the file is read whole by toml++, which says why).
struct Line {
  const char* p;
  const char* end;
  void skip_blanks() {
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
  }
  bool at(char c) const { return p < end && *p == c; }
  bool digit() const { return p < end && *p >= '0' && *p <= '9'; }
  void digits() {
    while (digit()) ++p;
  }
  // The end of a line: blanks, then nothing or a comment of printable ASCII.
  bool done() {
    skip_blanks();
    if (at('#'))
      for (++p; p < end; ++p)
        if ((*p < 0x20 && *p != '\t') || *p >= 0x7f) return false;
    return p == end;
  }
};

bool bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// A TOML number without underscores, inf or nan, or a leading zero; after it a blank, a comma, a
// bracket, a comment or the line's end. Integers are read as toml++ reads them (a 64-bit
// integer, then a double); floats by the correctly rounded std::from_chars, as toml++'s strtod
// rounds them. Where the two readings could differ (out of range, subnormal) it is not simple.
bool scan_number(Line& line, double* out) {
  const char* start = line.p;
  if (line.at('+') || line.at('-')) ++line.p;
  const char* first_digit = line.p;
  if (line.at('0')) {
    ++line.p;
    if (line.digit()) return false;
  } else if (line.digit()) {
    line.digits();
  } else {
    return false;
  }
  bool is_float = false;
  if (line.at('.')) {
    ++line.p;
    if (!line.digit()) return false;
    line.digits();
    is_float = true;
  }
  if (line.at('e') || line.at('E')) {
    ++line.p;
    if (line.at('+') || line.at('-')) ++line.p;
    if (!line.digit()) return false;
    line.digits();
    is_float = true;
  }
  if (line.p < line.end && !std::strchr(" \t,]#", *line.p)) return false;
  const char* from = *start == '+' ? start + 1 : start;
  if (!is_float) {
    long long whole = 0;
    const auto [ptr, ec] = std::from_chars(from, line.p, whole);
    if (ec != std::errc() || ptr != line.p) return false;
    if (out) *out = static_cast<double>(whole);
    return true;
  }
  double value = 0;
  const auto [ptr, ec] = std::from_chars(from, line.p, value);
  if (ec != std::errc() || ptr != line.p) return false;
  if (value != 0 && !std::isnormal(value)) return false;
  if (value == 0)  // a zero only from zero digits (not an underflow)
    for (const char* c = first_digit; c < line.p && *c != 'e' && *c != 'E'; ++c)
      if (*c >= '1' && *c <= '9') return false;
  if (out) *out = value;
  return true;
}

// A value: a number, true or false, a string without escapes, or a one-line list of numbers.
// Converted into *out unless out is null (only checked).
bool scan_value(Line& line, ParamValue* out) {
  if (line.at('"')) {
    const char* first = ++line.p;
    while (line.p < line.end && *line.p != '"') {
      const char c = *line.p;
      if (c == '\\' || c < 0x20 || c >= 0x7f) return false;
      ++line.p;
    }
    if (!line.at('"')) return false;
    if (out) *out = std::string(first, line.p);
    ++line.p;
    return true;
  }
  for (const bool flag : {true, false}) {
    const std::string_view word = flag ? "true" : "false";
    if (size_t(line.end - line.p) >= word.size() && std::string_view(line.p, word.size()) == word &&
        (line.p + word.size() == line.end || std::strchr(" \t#", line.p[word.size()]))) {
      line.p += word.size();
      if (out) *out = flag;
      return true;
    }
  }
  if (line.at('[')) {
    ++line.p;
    std::vector<double> numbers;
    line.skip_blanks();
    while (!line.at(']')) {
      double number = 0;
      if (!scan_number(line, out ? &number : nullptr)) return false;
      if (out) numbers.push_back(number);
      line.skip_blanks();
      if (line.at(',')) {
        ++line.p;
        line.skip_blanks();
      } else if (!line.at(']')) {
        return false;
      }
    }
    ++line.p;
    if (out) *out = std::move(numbers);
    return true;
  }
  double number = 0;
  if (!scan_number(line, out ? &number : nullptr)) return false;
  if (out) *out = number;
  return true;
}

// `key = value` with a bare key; the key into *key.
bool scan_entry(Line& line, std::string_view* key, ParamValue* out) {
  line.skip_blanks();
  const char* first = line.p;
  while (line.p < line.end && bare_key_char(*line.p)) ++line.p;
  if (line.p == first) return false;
  *key = std::string_view(first, size_t(line.p - first));
  line.skip_blanks();
  if (!line.at('=')) return false;
  ++line.p;
  line.skip_blanks();
  return scan_value(line, out) && line.done();
}

// A line of blanks and at most a comment.
bool empty_line(Line line) {
  return line.done();
}

// A table's header of bare keys, [a.b] or [[a.b]]: its names, and whether it is an array's.
bool table_header(Line line, std::vector<std::string>& names, bool& array) {
  line.skip_blanks();
  if (!line.at('[')) return false;
  ++line.p;
  array = line.at('[');
  if (array) ++line.p;
  names.clear();
  for (;;) {
    const char* first = line.p;
    while (line.p < line.end && bare_key_char(*line.p)) ++line.p;
    if (line.p == first) return false;
    names.emplace_back(first, line.p);
    if (!line.at('.')) break;
    ++line.p;
  }
  for (int closing = array ? 2 : 1; closing > 0; --closing, ++line.p)
    if (!line.at(']')) return false;
  return line.done();
}

// Lines at least this long holding `key = [numbers]` are read here (short ones are not worth it).
constexpr size_t kLongLine = 2048;

bool starts_table(Line line) {
  line.skip_blanks();
  return line.at('[');
}

}  // namespace

std::optional<BodyLines> BodyLines::split(const std::string& text) {
  // Multi-line strings could hold a line that looks like a header; carriage returns and NULs are
  // left to toml++ too.
  if (text.find("\"\"\"") != std::string::npos || text.find("'''") != std::string::npos ||
      text.find('\r') != std::string::npos || text.find('\0') != std::string::npos)
    return std::nullopt;
  BodyLines out;
  out.rest_.reserve(text.size() / 8);
  bool in_body = false;
  std::vector<std::string_view> keys;  // the current body's, for duplicates
  int number = 0;
  // Where the lines outside the bodies are: the tables from the root to the current one, each
  // with its index among those of its name (seen: how many so far, under their parent's last).
  std::vector<std::pair<std::string, int>> path;
  std::map<std::string, int> seen;
  bool follow = true;  // false after a header not followed here: no more lists are taken out
  std::vector<std::string> names;
  auto enter = [&](bool array) {
    std::string full;
    for (size_t k = 0; k < names.size(); ++k) full += (k ? "." : "") + names[k];
    const std::string under = full + ".";
    for (auto it = seen.lower_bound(under); it != seen.end() && it->first.rfind(under, 0) == 0;)
      it = seen.erase(it);
    seen[full] = array ? seen[full] + 1 : 1;
    path.clear();
    std::string prefix;
    for (size_t k = 0; k < names.size(); ++k) {
      prefix += (k ? "." : "") + names[k];
      const auto it = seen.find(prefix);  // (a table only implied by its child's header: one)
      path.emplace_back(names[k], it == seen.end() ? 0 : it->second - 1);
    }
  };
  for (size_t at = 0; at < text.size();) {
    const size_t stop = std::min(text.find('\n', at), text.size());
    ++number;
    const Line line{text.data() + at, text.data() + stop};
    const size_t next = stop + 1;
    if (starts_table(line)) {
      if (in_body) out.bodies_.back().end = at;  // another table: the body ends
      bool array = false;
      const bool known = table_header(line, names, array);
      in_body = known && array && names.size() == 1 && names[0] == "body";
      if (in_body) {  // [[body]]: its lines are read here
        out.bodies_.push_back({std::min(next, text.size()), text.size(), number});
        keys.clear();
        out.rest_ += '\n';
      } else {
        if (known)
          enter(array);
        else
          follow = false;  // (the lists taken out before it stay: their tables are known)
        out.rest_.append(text, at, stop - at).push_back('\n');
      }
    } else if (in_body) {
      if (!empty_line(line)) {
        Line entry = line;
        std::string_view key;
        if (!scan_entry(entry, &key, nullptr)) return std::nullopt;
        for (std::string_view earlier : keys)
          if (earlier == key) return std::nullopt;  // toml++ names the redefinition
        keys.push_back(key);
      }
      out.rest_ += '\n';
    } else {
      Line entry = line;
      std::string_view key;
      ParamValue value;
      if (follow && stop - at >= kLongLine && scan_entry(entry, &key, &value) &&
          std::holds_alternative<std::vector<double>>(value)) {
        out.lists_.push_back(
            {path, std::string(key), std::get<std::vector<double>>(std::move(value))});
        out.rest_.append(key).append(" = []\n");  // the key stays, on its line
      } else {
        out.rest_.append(text, at, stop - at).push_back('\n');
      }
    }
    at = next;
  }
  return out;
}

bool BodyLines::put_lists(ParamTable& root) {
  for (List& list : lists_) {
    ParamTable* table = &root;
    for (const auto& [name, index] : list.path) {
      ParamValue* value = table->value_at(name);
      auto* tables = value ? std::get_if<std::vector<ParamTable>>(value) : nullptr;
      if (!tables || index >= int(tables->size())) return false;
      table = &(*tables)[size_t(index)];
    }
    ParamValue* value = table->value_at(list.key);
    auto* numbers = value ? std::get_if<std::vector<double>>(value) : nullptr;
    if (!numbers || !numbers->empty()) return false;
    *numbers = std::move(list.numbers);
  }
  lists_.clear();
  return true;
}

ParamTable BodyLines::table(const std::string& text, int i, const std::string& source) const {
  const Body& body = bodies_.at(size_t(i));
  ParamTable out(where(i, source));
  int number = body.header_line;
  for (size_t at = body.begin; at < body.end;) {
    const size_t stop = std::min(text.find('\n', at), body.end);
    ++number;
    Line line{text.data() + at, text.data() + stop};
    if (!empty_line(line)) {
      std::string_view key;
      ParamValue value;
      scan_entry(line, &key, &value);  // (checked by split)
      const std::string name(key);
      out.set(name, std::move(value));
      out.set_where(name, source + ":" + std::to_string(number) + " [[body]]");
    }
    at = stop + 1;
  }
  return out;
}

std::string BodyLines::where(int i, const std::string& source) const {
  return source + ":" + std::to_string(bodies_.at(size_t(i)).header_line) + " [[body]]";
}

}  // namespace stepwise
