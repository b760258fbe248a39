#pragma once
// The scratch folder of a fuzz target that writes files (cli, commands): made at start-up and
// removed at exit, entered at the first input (once libFuzzer has read its corpus folders, which
// ./dev fuzz names by absolute paths), emptied after each input.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace stepwise::fuzz {

inline std::filesystem::path& scratch() {
  static std::filesystem::path folder;
  return folder;
}

inline void make_scratch(const std::string& name) {
  std::string folder = "/tmp/stepwise-fuzz-" + name + "-XXXXXX";
  if (!mkdtemp(folder.data())) std::abort();
  scratch() = folder;
  std::atexit([] {
    std::error_code ec;
    std::filesystem::remove_all(scratch(), ec);
  });
}

inline void enter_scratch() {
  static const bool entered = (std::filesystem::current_path(scratch()), true);
  (void)entered;
}

inline void empty_scratch() {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(scratch(), ec))
    std::filesystem::remove_all(entry.path(), ec);
}

}  // namespace stepwise::fuzz
