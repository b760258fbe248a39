#include "io/body_lines.hpp"

#include <array>
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
  // (The loops walk a local: p itself, stored through a char pointer, would be written back at
  // every character. For speed only.)
  void skip_blanks() {
    const char* q = p;
    while (q < end && (*q == ' ' || *q == '\t')) ++q;
    p = q;
  }
  bool at(char c) const { return p < end && *p == c; }
  bool digit() const { return p < end && *p >= '0' && *p <= '9'; }
  void digits() {
    const char* q = p;
    while (q < end && *q >= '0' && *q <= '9') ++q;
    p = q;
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

// What may follow a number: a blank, a comma, a bracket or a comment.
bool ends_number(char c) {
  return c == ' ' || c == '\t' || c == ',' || c == ']' || c == '#';
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
  if (line.p < line.end && !ends_number(*line.p)) return false;
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

// A value as scanned: its kind, and a number, a flag or a string's characters; a list's numbers
// are appended to *numbers.
struct Scanned {
  enum Kind { Number, List, Flag, Text } kind = Number;
  double number = 0;
  bool flag = false;
  std::string_view text;
  GrowingArray<double>* numbers = nullptr;
};

// A value: a number, true or false, a string without escapes, or a one-line list of numbers.
bool scan_value(Line& line, Scanned& out) {
  if (line.at('"')) {
    const char* first = ++line.p;
    while (line.p < line.end && *line.p != '"') {
      const char c = *line.p;
      if (c == '\\' || c < 0x20 || c >= 0x7f) return false;
      ++line.p;
    }
    if (!line.at('"')) return false;
    out.kind = Scanned::Text;
    out.text = std::string_view(first, size_t(line.p - first));
    ++line.p;
    return true;
  }
  for (const bool flag : {true, false}) {
    const std::string_view word = flag ? "true" : "false";
    if (size_t(line.end - line.p) >= word.size() && std::string_view(line.p, word.size()) == word &&
        (line.p + word.size() == line.end || std::strchr(" \t#", line.p[word.size()]))) {
      line.p += word.size();
      out.kind = Scanned::Flag;
      out.flag = flag;
      return true;
    }
  }
  if (line.at('[')) {
    ++line.p;
    out.kind = Scanned::List;
    line.skip_blanks();
    while (!line.at(']')) {
      double number = 0;
      if (!scan_number(line, &number)) return false;
      out.numbers->push_back(number);
      line.skip_blanks();
      if (line.at(',')) {
        ++line.p;
        line.skip_blanks();
      } else if (!line.at(']')) {
        return false;
      }
    }
    ++line.p;
    return true;
  }
  out.kind = Scanned::Number;
  return scan_number(line, &out.number);
}

// `key = value` with a bare key; the key into *key.
bool scan_entry(Line& line, std::string_view* key, Scanned& out) {
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

// Distinct keys the bodies' lines may use before the file is left to toml++.
constexpr size_t kMostKeys = 256;

bool starts_table(Line line) {
  line.skip_blanks();
  return line.at('[');
}

}  // namespace

// The lines of a text or a stream, one at a time, each without its '\n'.
class BodyLines::Reader {
 public:
  virtual ~Reader() = default;
  // The next line (valid until the next call), or false at the end.
  virtual bool next(std::string_view& line) = 0;
};

namespace {

class TextReader final : public BodyLines::Reader {
 public:
  explicit TextReader(const std::string& text) : text_(text) {}
  bool next(std::string_view& line) override {
    if (at_ >= text_.size()) return false;
    const size_t stop = std::min(text_.find('\n', at_), text_.size());
    line = std::string_view(text_.data() + at_, stop - at_);
    at_ = stop + 1;
    return true;
  }

 private:
  const std::string& text_;
  size_t at_ = 0;
};

class StreamReader final : public BodyLines::Reader {
 public:
  explicit StreamReader(std::istream& in) : in_(in) {}
  bool next(std::string_view& line) override {
    if (!std::getline(in_, line_)) return false;
    line = line_;
    return true;
  }

 private:
  std::istream& in_;
  std::string line_;
};

}  // namespace

std::optional<BodyLines> BodyLines::split(const std::string& text) {
  TextReader reader(text);
  return split(reader);
}

std::optional<BodyLines> BodyLines::split(std::istream& in) {
  StreamReader reader(in);
  std::optional<BodyLines> out = split(reader);
  if (in.bad()) return std::nullopt;  // (read whole, whose reading says what failed)
  return out;
}

std::optional<BodyLines> BodyLines::split(Reader& reader) {
  BodyLines out;
  bool in_body = false;
  std::vector<std::uint16_t> keys;       // the current body's, for duplicates
  std::vector<std::uint16_t> last_keys;  // the body's before it
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
  GrowingArray<double> list;
  for (std::string_view text; reader.next(text);) {
    ++number;
    // Multi-line strings could hold a line that looks like a header; carriage returns and NULs
    // are left to toml++ too.
    if (text.find("\"\"\"") != text.npos || text.find("'''") != text.npos ||
        text.find('\r') != text.npos || text.find('\0') != text.npos)
      return std::nullopt;
    const Line line{text.data(), text.data() + text.size()};
    if (starts_table(line)) {
      bool array = false;
      const bool known = table_header(line, names, array);
      in_body = known && array && names.size() == 1 && names[0] == "body";
      if (in_body) {  // [[body]]: its lines are read here
        out.bodies_.push_back(
            {out.entries_.size(), out.numbers_.size(), out.chars_.size(), number});
        last_keys.swap(keys);
        keys.clear();
        out.rest_ += '\n';
      } else {
        if (known)
          enter(array);
        else
          follow = false;  // (the lists taken out before it stay: their tables are known)
        out.rest_.append(text).push_back('\n');
      }
    } else if (in_body) {
      if (!empty_line(line)) {
        Line entry = line;
        std::string_view key;
        Scanned value;
        value.numbers = &out.numbers_;
        const size_t numbers_before = out.numbers_.size();
        if (!scan_entry(entry, &key, value)) return std::nullopt;
        // (Bodies mostly list the same keys in the same order: the last body's key in this
        // place is tried first, a search of every key known only when it differs.)
        const size_t place = keys.size();
        size_t id = place < last_keys.size() ? last_keys[place] : out.keys_.size();
        if (id == out.keys_.size() || out.keys_[id] != key)
          for (id = 0; id < out.keys_.size() && out.keys_[id] != key;) ++id;
        if (id == out.keys_.size()) {
          // A body has a few dozen keys at most; a file with hundreds of distinct ones is wrong
          // anyway (read whole, it is named), and looking them up here would cost.
          if (id == kMostKeys) return std::nullopt;
          out.keys_.emplace_back(key);
        }
        for (std::uint16_t earlier : keys)
          if (earlier == id) return std::nullopt;  // toml++ names the redefinition
        keys.push_back(std::uint16_t(id));
        Entry e{std::uint16_t(id), Kind::Number,
                std::uint32_t(number - out.bodies_.back().header_line), 0};
        switch (value.kind) {
          case Scanned::Number:
            out.numbers_.push_back(value.number), e.count = 1;
            break;
          case Scanned::List:
            e.kind = Kind::List, e.count = std::uint32_t(out.numbers_.size() - numbers_before);
            break;
          case Scanned::Flag:
            e.kind = value.flag ? Kind::True : Kind::False;
            break;
          case Scanned::Text:
            e.kind = Kind::Text, e.count = std::uint32_t(value.text.size());
            out.chars_.append(value.text);
            break;
        }
        out.entries_.push_back(e);
      }
      out.rest_ += '\n';
    } else {
      Line entry = line;
      std::string_view key;
      Scanned value;
      list.clear();
      value.numbers = &list;
      if (follow && text.size() >= kLongLine && scan_entry(entry, &key, value) &&
          value.kind == Scanned::List) {
        out.lists_.push_back(
            {path, std::string(key), std::vector<double>(list.begin(), list.end())});
        out.rest_.append(key).append(" = []\n");  // the key stays, on its line
      } else {
        out.rest_.append(text).push_back('\n');
      }
    }
  }
  out.rank_.assign(out.keys_.size(), 0);
  for (size_t a = 0; a < out.keys_.size(); ++a)
    for (size_t b = 0; b < out.keys_.size(); ++b)
      out.rank_[a] += std::string_view(out.keys_[b]) < std::string_view(out.keys_[a]);
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

ParamTable BodyLines::table(int i, const std::string& source) const {
  const Body& body = bodies_.at(size_t(i));
  const size_t end =
      size_t(i) + 1 < bodies_.size() ? bodies_[size_t(i) + 1].first_entry : entries_.size();
  ParamTable out(where(i, source));
  out.reserve(end - body.first_entry);
  // The entries in their keys' order, each with where its values start, so that each goes on
  // the table's end (where ParamTable finds its place without a search; for speed only).
  struct Placed {
    std::uint16_t rank;
    const Entry* entry;
    const double* number;
    const char* chars;
  };
  std::array<Placed, kMostKeys> placed;  // (a body's keys are distinct: at most kMostKeys)
  size_t count = 0;
  const double* number = numbers_.data() + body.first_number;
  const char* chars = chars_.data() + body.first_char;
  for (size_t k = body.first_entry; k < end; ++k) {
    const Entry& e = entries_[k];
    const Placed p{rank_[e.key], &e, number, chars};
    number += e.kind == Kind::Number || e.kind == Kind::List ? e.count : 0;
    chars += e.kind == Kind::Text ? e.count : 0;
    size_t at = count++;
    for (; at > 0 && placed[at - 1].rank > p.rank; --at) placed[at] = placed[at - 1];
    placed[at] = p;
  }
  for (size_t k = 0; k < count; ++k) {
    const Entry& e = *placed[k].entry;
    ParamValue value;
    switch (e.kind) {
      case Kind::Number:
        value = *placed[k].number;
        break;
      case Kind::List:
        value = std::vector<double>(placed[k].number, placed[k].number + e.count);
        break;
      case Kind::True:
      case Kind::False:
        value = e.kind == Kind::True;
        break;
      case Kind::Text:
        value = std::string(placed[k].chars, e.count);
        break;
    }
    out.set(keys_[e.key], std::move(value), body.header_line + int(e.line));
  }
  return out;
}

std::string BodyLines::where(int i, const std::string& source) const {
  return source + ":" + std::to_string(bodies_.at(size_t(i)).header_line) + " [[body]]";
}

}  // namespace stepwise
