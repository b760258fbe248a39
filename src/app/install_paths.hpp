#pragma once
// Where the program's own files are: the scene files and lessons it lists, found beside the
// installed program (PREFIX/bin/stepwise -> PREFIX/share/stepwise), or in the source tree when
// it runs from the build folder it was built in.
#include <string>

namespace stepwise::cli {

extern const char* const kVersion;  // "0.1.0"
extern const char* const kCommit;   // the git commit, "unknown" outside git

std::string version_line();  // "stepwise 0.1.0 (git abc123def456)"
std::string data_dir();      // holds scenes/ and lessons/
// A lesson given by name ("integrators-on-an-orbit") is the installed one; a path stays a path.
std::string find_lesson(const std::string& name_or_path);

}  // namespace stepwise::cli
