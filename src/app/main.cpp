// stepwise: a sandbox for rigid-particle dynamics.
#include <malloc.h>

#include "app/command_line.hpp"
#include "io/atomic_file.hpp"

int main(int argc, char** argv) {
  // glibc hands freed blocks back to the system past a threshold that follows the largest block
  // freed so far, so the implicit methods' Newton matrices and state copies (tens of MB a step on
  // a packing) came back as new pages at every step, and a page fault costs these VMs some 10 us:
  // half an implicit step on the settled 10,000 packing. Fixed at the values that threshold grows
  // to (32 MB mapped apart, 64 MB kept free); the explicit runs' speed and peak memory unchanged.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  stepwise::remove_temporaries_on_signals();  // Ctrl+C and SIGTERM leave no half-written file
  return stepwise::cli::run_command_line(argc, argv);
}
