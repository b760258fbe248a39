// stepwise: a sandbox for rigid-particle dynamics.
#include "app/command_line.hpp"
#include "io/atomic_file.hpp"

int main(int argc, char** argv) {
  stepwise::remove_temporaries_on_signals();  // Ctrl+C and SIGTERM leave no half-written file
  return stepwise::cli::run_command_line(argc, argv);
}
