#include "app/cli_numbers.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/params.hpp"

namespace stepwise::cli {
namespace {

// Whole numbers in plain digits (a step limit reads 1000000000000, not 1e+12); others as the
// scene files' messages write them.
std::string number(double v) {
  if (!(std::abs(v) < 1e16) || v != std::floor(v)) return format_double(v);
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", v);
  return text;
}

}  // namespace

CLI::Validator whole_number(double low, std::function<double()> high) {
  return CLI::Validator(
      [low, high](std::string& text) -> std::string {
        const double top = high();
        const std::string range = "a whole number from " + number(low) + " to " + number(top);
        const char* start = text.c_str();
        char* end = nullptr;
        const double v = std::strtod(start, &end);
        if (text.empty() || end != start + text.size() ||
            std::isspace(static_cast<unsigned char>(text[0])))
          return "expected " + range + ", got '" + text + "'";
        if (!(v >= low && v <= top) || v != std::floor(v))
          return "must be " + range + " (got " + number(v) + ")";
        text = number(v == 0 ? 0.0 : v);  // (-0 and 1e3 as the integer's own digits)
        return {};
      },
      "");
}

bool parse_size(const std::string& text, int& width, int& height) {
  const auto x = text.find('x');
  auto digits = [](const std::string& part, int& out) {
    if (part.empty() || part.size() > 5) return false;
    out = 0;
    for (const char c : part) {
      if (c < '0' || c > '9') return false;
      out = 10 * out + (c - '0');
    }
    return true;
  };
  return x != std::string::npos && digits(text.substr(0, x), width) &&
         digits(text.substr(x + 1), height);
}

}  // namespace stepwise::cli
