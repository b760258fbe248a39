#pragma once
// What gets installed beside the program, generated from the command line's own definition (and
// the registries), so the manual and the completion list every option the parser accepts.
#include <CLI/CLI.hpp>
#include <string>

namespace stepwise::cli {

// Options whose values can be completed say what they take through CLI11's type name.
inline constexpr const char* kSceneType = "SCENE";  // built-in scene name or .toml file
inline constexpr const char* kFileType = "FILE";
inline constexpr const char* kDirType = "DIR";
inline constexpr const char* kIntegratorType = "INTEGRATOR";
inline constexpr const char* kIntegratorListType = "INTEGRATOR,...";
inline constexpr const char* kRotationType = "ROTATION";
inline constexpr const char* kRotationListType = "ROTATION,...";
inline constexpr const char* kColourType = "COLOUR";
inline constexpr const char* kLessonType = "LESSON";  // installed lesson name or .toml file

// Names what the numeric and free-text options take ("--steps N", not "--steps INT").
void name_values(CLI::App& app);

std::string manual_page(const CLI::App& app, const std::string& version);  // roff, man(7)
std::string bash_completion(const CLI::App& app);

// `stepwise --generate KIND PATH` (hidden; the build runs it): man, bash-completion, icon.svg,
// icon-N.png (N pixels square).
void generate(const CLI::App& app, const std::string& version, const std::string& kind,
              const std::string& path);

}  // namespace stepwise::cli
