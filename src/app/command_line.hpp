#pragma once
// The whole command line as a function: main calls it, and so does the command-line fuzz target
// (tests/fuzz/fuzz_cli.cpp), which is why it neither exits nor installs signal handlers.
namespace stepwise::cli {

// Parses argv, runs the command, prints its messages; returns the exit code (0 ok, 1 internal
// error, 2 bad input, 3 non-finite, 130 interrupted).
int run_command_line(int argc, char** argv);

}  // namespace stepwise::cli
