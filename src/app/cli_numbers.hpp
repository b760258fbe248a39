#pragma once
// Whole-number options (steps, threads, seeds, frames) checked where they enter, with the range
// named: CLI11's own conversion refused "1e3" and answered a value past the integer's range, or a
// fraction, with "Could not convert" and no limit; and it took "--seed -5" as 2^64 - 5, which a
// saved state then could not be read back with.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace stepwise::cli {

// A whole number from low to high (high read when the option is given: the fuzz target lowers
// the step limit), written plainly or with an exponent ("1000", "1e3"); passed on as plain digits.
CLI::Validator whole_number(double low, std::function<double()> high);
inline CLI::Validator whole_number(double low, double high) {
  return whole_number(low, [high] { return high; });
}

// "WxH" (--size) as two numbers of digits only, each at most 5 long; false for anything else
// ("1280x720x3" and "1280x720abc" were taken as 1280x720).
bool parse_size(const std::string& text, int& width, int& height);

}  // namespace stepwise::cli
