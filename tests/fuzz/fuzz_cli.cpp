// Fuzz target: the command line. The input is one argument per line, run through the same
// function main calls, in a scratch folder of its own. Every input must end in an exit code
// (0, 2 or 3, 1 never), not a crash, a hang or a sanitizer report.
//
// To keep each input within the fuzzer's seconds it lowers the limits a run is checked against
// (bodies and steps per run, as the other targets lower bodies), and it keeps the arguments
// inside the scratch folder (no '/'), so no input can write elsewhere.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/command_line.hpp"
#include "core/limits.hpp"
#include "fuzz_scratch.hpp"


extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace stepwise;
  limits::max_bodies() = 300;
  limits::max_steps() = 300;
  limits::max_substeps() = 200;
  stepwise::fuzz::make_scratch("cli");
  if (!std::freopen("/dev/null", "w", stdout)) std::abort();  // tables and help: not read
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 400) return 0;
  if (size > 0 && data[size - 1] == '\n') --size;  // a file's last line ends the last word
  std::vector<std::string> words{"stepwise"};
  std::string word;
  for (std::size_t k = 0; k <= size; ++k) {
    const char c = k < size ? char(data[k]) : '\n';
    if (c == '/' || c == '\0') return 0;  // no paths out of the scratch folder
    if (c != '\n') {
      word += c;
    } else if (words.size() < 24) {
      words.push_back(word);
      word.clear();
    }
  }
  stepwise::fuzz::enter_scratch();
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const int code = stepwise::cli::run_command_line(int(words.size()), argv.data());
  if (code == 1) std::abort();  // "internal error": an exception nobody expected
  stepwise::fuzz::empty_scratch();
  return 0;
}
