#include "app/install_paths.hpp"

#include <filesystem>
#include <system_error>

#include "core/types.hpp"

namespace stepwise::cli {

std::string version_line() {
  return std::string("stepwise ") + kVersion + " (git " + kCommit + ")";
}

std::string data_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path program = fs::canonical("/proc/self/exe", ec);
  const fs::path installed = program.parent_path().parent_path() / "share" / "stepwise";
  if (!ec && fs::is_directory(installed / "scenes", ec)) return installed.string();
  // Run from the build folder (not installed): the source tree's assets.
  if (!ec && fs::equivalent(program.parent_path(), STEPWISE_BUILD_DIR, ec))
    return STEPWISE_SOURCE_ASSETS;
  return installed.string();  // missing: the window's lists stay empty and say where it looked
}

std::string find_lesson(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (name.empty() || fs::exists(name, ec)) return name;
  const fs::path folder = fs::path(data_dir()) / "lessons";
  const fs::path installed =
      folder / (fs::path(name).extension() == ".toml" ? name : name + ".toml");
  if (fs::exists(installed, ec)) return installed.string();
  throw InputError("--lesson: no file '" + name + "', and no installed lesson of that name in " +
                   folder.string());
}

}  // namespace stepwise::cli
