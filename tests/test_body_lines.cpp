// A scene file's [[body]] tables read line by line (io/body_lines.hpp) against the whole file's
// TOML reading: the same tables, the same runs, the same messages; and every file the line
// reader is not sure of left to toml++.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "io/body_lines.hpp"
#include "io/scene_file.hpp"

using namespace stepwise;

namespace {

// A comment holding three quotes makes the file be read whole (BodyLines leaves files that
// could hold multi-line strings to toml++); it changes nothing else, not even a line number.
std::string read_whole(const std::string& text) {
  return text + "\n# '''\n";
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void check_same_value(const ParamValue& a, const ParamValue& b) {
  REQUIRE(a.index() == b.index());
  if (auto x = std::get_if<double>(&a)) CHECK(same_bits(*x, std::get<double>(b)));
  if (auto x = std::get_if<bool>(&a)) CHECK(*x == std::get<bool>(b));
  if (auto x = std::get_if<std::string>(&a)) CHECK(*x == std::get<std::string>(b));
  if (auto x = std::get_if<std::vector<double>>(&a)) {
    const auto& y = std::get<std::vector<double>>(b);
    REQUIRE(x->size() == y.size());
    for (size_t k = 0; k < x->size(); ++k) CHECK(same_bits((*x)[k], y[k]));
  }
}

// Two tables alike, key by key (numbers to the bit), with where each key was written; `skip`
// (at this level only) left out of the comparison.
void check_same_table(const ParamTable& a, const ParamTable& b, const std::string& skip = "") {
  CHECK(a.where() == b.where());
  size_t compared = 0;
  for (const auto& entry : b.values()) {
    const std::string& key = entry.first;  // (clang 14 captures no structured bindings)
    const ParamValue& value = entry.second;
    if (key == skip) continue;
    INFO("key " << key);
    ++compared;
    REQUIRE(a.has(key));
    CHECK(a.where(key) == b.where(key));
    const ParamValue& mine = *a.value_of(key);
    if (auto tables = std::get_if<std::vector<ParamTable>>(&value)) {
      const auto* own = std::get_if<std::vector<ParamTable>>(&mine);
      REQUIRE(own);
      REQUIRE(own->size() == tables->size());
      for (size_t k = 0; k < own->size(); ++k) check_same_table((*own)[k], (*tables)[k]);
    } else {
      check_same_value(mine, value);
    }
  }
  CHECK(a.values().size() - a.has(skip) == compared);
}

// The split's tables against the whole reading's, key by key, with where each was written.
void check_same_bodies(const std::string& text, const BodyLines& lines) {
  const std::vector<ParamTable> whole = parse_toml(text, "s.toml").tables("body");
  REQUIRE(lines.size() == int(whole.size()));
  for (int i = 0; i < lines.size(); ++i) {
    INFO("body " << i);
    check_same_table(lines.table(i, "s.toml"), whole[size_t(i)]);
    CHECK(lines.where(i, "s.toml") == whole[size_t(i)].where());
  }
}

// The file the texts are also written to and read back from (this process's own).
const std::string& file_path() {
  // (No folder of its own: each outcome removes the file, so nothing is left behind.)
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("stepwise-body-lines-" + std::to_string(::getpid()) + ".toml"))
                                      .string();
  return path;
}

// What a reading gives: its state saved again, or the message.
std::string outcome_of(const std::function<RunSpec()>& read) {
  try {
    RunSpec spec = read();
    Simulation sim = make_simulation(spec);
    return spec.label + "\n" + scene_to_toml(sim, spec.label);
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

// What reading the text gives; read from a file (a stream of lines, read again whole where the
// split declines) it must give the same.
std::string outcome(const std::string& text) {
  const std::string& path = file_path();
  const std::string from_text = outcome_of([&] { return parse_scene_toml(text, path); });
  std::ofstream(path, std::ios::binary) << text;
  CHECK(outcome_of([&] { return load_scene_file(path); }) == from_text);
  std::filesystem::remove(path);
  return from_text;
}

const char* kHead = "[scene]\nname = \"x\"\ndt = 0.01\n";

}  // namespace

TEST_CASE("bodies read line by line are the whole file's tables, down to where each key is") {
  // Every built-in scene's saved state (those with sub-tables in their bodies, clumps, are read
  // whole), then one written by hand in every way the line reader takes.
  int split = 0, scenes = 0;
  for (const std::string& name : SceneRegistry::instance().names()) {
    INFO(name);
    Simulation sim = make_simulation(load_scene(name));
    REQUIRE_FALSE(sim.advance(5));
    const std::string text = scene_to_toml(sim, name);
    ++scenes;
    if (const auto lines = BodyLines::split(text)) {
      ++split;
      check_same_bodies(text, *lines);
      std::istringstream in(text);  // the same read as a stream of lines
      const auto streamed = BodyLines::split(in);
      REQUIRE(streamed);
      check_same_bodies(text, *streamed);
      CHECK(streamed->rest() == lines->rest());
    }
    CHECK(outcome(text) == outcome(read_whole(text)));
  }
  CHECK(split >= scenes - 3);  // the rest hold clumps or other shapes' sub-tables
  const std::string text = std::string(kHead) +
                           "# a comment\n\n[[body]]  # the first\n"
                           "  mass = +2   # kg\n"
                           "radius=0.25\nposition = [ 1, -0.0, 3.5e-3 ,]\n"
                           "velocity = [0.1,-0,-1E+2]\nfixed = false\n\n"
                           "shape = \"sphere\"\n[[body]]\nmass = 1.7976931348623157e308\n"
                           "position = [0, 0, 1]\ndriven = true\ninertia = []\n";
  const auto lines = BodyLines::split(text);
  REQUIRE(lines);
  CHECK(lines->size() == 2);
  check_same_bodies(text, *lines);
  CHECK(outcome(text) == outcome(read_whole(text)));
  CHECK(lines->rest().find("mass") == std::string::npos);
}

TEST_CASE("long lists of numbers read line by line land in the tables their headers name") {
  // A saved settling state (its forces, springs and wall springs in lists of thousands), then
  // lists by hand: at the root, in repeated array tables, under a parent array whose children's
  // count restarts, and after a header this reader does not follow (then left to toml++).
  Simulation sim = make_simulation(load_scene("settle"));
  REQUIRE_FALSE(sim.advance(400));
  std::string list = "[0";
  for (int k = 1; k < 400; ++k) list += ", " + std::to_string(k * 0.37) + "e-3";
  list += "]";
  const std::string by_hand = "top = " + list + "\n[[a]]\nx = " + list + "\n[[a]]\n[[a.b]]\n" +
                              "y = [1, 2]\n[[a.b]]\ny = " + list + "  # comment\n[[a]]\n[[a.b]]\n" +
                              "z = " + list + "\n[c.d]\nw = " + list + "\n[\"e\"]\nv = " + list +
                              "\n[[body]]\nmass = 1\n";
  for (const std::string& text : {scene_to_toml(sim, "settle"), by_hand}) {
    auto lines = BodyLines::split(text);
    REQUIRE(lines);
    CHECK(lines->rest().size() < text.size() / 4);  // the lists and the bodies are not in it
    ParamTable root = parse_toml(lines->rest(), "s.toml");
    REQUIRE(lines->put_lists(root));
    check_same_table(root, parse_toml(text, "s.toml"), "body");
    CHECK(outcome(text) == outcome(read_whole(text)));
  }
  // A list whose table is not where its header said (the rest was changed after the split).
  const std::string text = "[[a]]\nx = " + list + "\n";
  auto lines = BodyLines::split(text);
  REQUIRE(lines);
  ParamTable root = parse_toml("[a]\ny = 1\n", "s.toml");
  CHECK_FALSE(lines->put_lists(root));
}

TEST_CASE("a body table the line reader is not sure of makes the whole file be read by toml++") {
  // Each line would be read differently, or not at all, by a reader less careful than toml++:
  // the split declines, and the file reads (or fails) exactly as when read whole.
  const char* lines_declined[] = {
      "position = [1, 2,\n 3]",
      "name = \"a\\\"b\"",
      "name = 'literal'",
      "position = {x = 1}",
      "shape.kind = \"sphere\"",
      "mass = 1\nmass = 2",
      "mass = 1e400",
      "mass = 1e-310",
      "mass = 1e-400",
      "mass = nan",
      "mass = inf",
      "mass = 0x10",
      "mass = 1_000",
      "mass = 01.5",
      "mass = 1.",
      "mass = .5",
      "mass = 99999999999999999999",
      "mass = 1 2",
      "mass = true1",
      "\"mass\" = 1",
      "position = [1, \"a\", 3]",
      "name = \"caf\xc3\xa9\"",
      "mass = 1 # caf\xc3\xa9",
  };
  for (const char* body : lines_declined) {
    INFO(std::string(body));
    const std::string text = std::string(kHead) + "[[body]]\nradius = 0.5\n" + body + "\n";
    CHECK_FALSE(BodyLines::split(text));
    std::istringstream in(text);
    CHECK_FALSE(BodyLines::split(in));
    CHECK(outcome(text) == outcome(read_whole(text)));
  }
  // More distinct keys than bodies have (257, here in one body; 256 are still read here).
  for (const int keys : {256, 257}) {
    std::string text = std::string(kHead) + "[[body]]\n";
    for (int k = 0; k < keys; ++k) text += "key" + std::to_string(k) + " = 1\n";
    CHECK(bool(BodyLines::split(text)) == (keys == 256));
    CHECK(outcome(text) == outcome(read_whole(text)));
  }
  // A rest that defines `body` itself (a table of that name, a body's sub-table), or fails
  // alone: read whole.
  for (const char* rest : {"[body]\nmass = 1\n", "[body.x]\nmass = 1\n",
                           "[[body.sphere]]\nradius = 1\n", "[scene]\nname = 1\n", "[other\n"}) {
    INFO(std::string(rest));
    const std::string text =
        std::string(kHead) + "[[body]]\nradius = 0.5\nposition = [0, 0, 1]\n" + rest;
    REQUIRE(BodyLines::split(text));
    CHECK(outcome(text) == outcome(read_whole(text)));
  }
}

TEST_CASE("a bad value in a body read line by line is named as when the file is read whole") {
  const char* bad[] = {
      "mass = -1",         "colour = 1",  "position = [1, 2]",          "shape = \"blob\"",
      "radius = \"wide\"", "mass = true", "orientation = [0, 0, 0, 0]", "inertia = [1, 2]",
      "fixed = \"yes\""};
  for (const char* body : bad) {
    INFO(std::string(body));
    const std::string text =
        std::string(kHead) + "[[body]]\nposition = [0, 0, 1]\n\n[[body]]\n" + body + "\n";
    REQUIRE(BodyLines::split(text));
    const std::string message = outcome(text);
    CHECK(message.rfind("error: " + file_path() + ":", 0) == 0);
    CHECK(message == outcome(read_whole(text)));
  }
}

TEST_CASE("a growing array keeps its values through its reallocations, copies and moves") {
  GrowingArray<double> a;
  for (int k = 0; k < 100000; ++k) a.push_back(0.5 * k);
  a.push_back(a[3]);
  for (int k = 0; a.size() < 131072;) a.push_back(a[size_t(k++)]);
  a.push_back(a.back());  // its own value, given when it is full (64 doubled) and so moves
  REQUIRE(a.size() == 131073);
  bool kept = true;
  for (int k = 0; k < 100000; ++k) kept = kept && a[size_t(k)] == 0.5 * k;
  CHECK(kept);
  CHECK(a[100000] == 1.5);
  CHECK(a[100001] == 0.0);
  CHECK(a.back() == a[131071]);
  GrowingArray<double> b = a, c;
  c = std::move(b);
  CHECK(c.size() == a.size());
  CHECK(std::equal(c.begin(), c.end(), a.begin()));
  CHECK_THROWS_AS(c.at(c.size()), std::out_of_range);
  c.clear();
  CHECK(c.empty());
}

TEST_CASE("a table's used marks and key lines stay with their keys as keys are added and copied") {
  // (Both are kept per key in the keys' order, not by name: a key set before the others must
  // move them along.)
  ParamTable t("f.toml:3 [[body]]");
  t.set("b", 1.0);
  t.set("d", 2.0);
  t.set_where_line("d", 9);
  CHECK(t.number("b") == 1.0);
  t.set("a", 3.0);
  t.set("c", true);
  t.set_where_line("a", 15);
  t.set("d", 4.0);  // (set again: its line stays)
  CHECK(t.where("a") == "f.toml:15 [[body]]");
  CHECK(t.where("d") == "f.toml:9 [[body]]");
  CHECK(t.where("b") == "f.toml:3 [[body]]");
  CHECK(t.where("c") == "f.toml:3 [[body]]");
  t.set("e", 5.0, 21);   // (after every key: put on the end)
  t.set("B", 6.0, 22);   // (before every key)
  t.set("bb", 7.0, 23);  // (between two)
  t.set("\xc3\xa9", 8.0, 24);  // (a quoted key's UTF-8: its bytes sort after ASCII, as unsigned)
  std::string order;
  for (const auto& [key, value] : t.values()) order += key + " ";
  CHECK(order == "B a b bb c d e \xc3\xa9 ");  // the keys' order, whatever order they were set in
  CHECK(t.number("\xc3\xa9") == 8.0);
  CHECK(t.where("e") == "f.toml:21 [[body]]");
  CHECK(t.where("B") == "f.toml:22 [[body]]");
  CHECK(t.where("bb") == "f.toml:23 [[body]]");
  CHECK(t.where("a") == "f.toml:15 [[body]]");
  CHECK(t.number("e") + t.number("B") + t.number("bb") == 18.0);
  const ParamTable copy = t;
  CHECK_THROWS_WITH(copy.reject_unused(), "f.toml:15 [[body]]: unknown key 'a'");
  CHECK(copy.number("a") == 3.0);
  CHECK(copy.flag("c", false));
  CHECK_THROWS_WITH(copy.reject_unused(), "f.toml:9 [[body]]: unknown key 'd'");
  CHECK(copy.number("d") == 4.0);
  CHECK_NOTHROW(copy.reject_unused());
  CHECK_THROWS_WITH(t.reject_unused(), "f.toml:15 [[body]]: unknown key 'a'");  // (its own marks)
}
