#pragma once
// Writes go to a temporary file beside the target (a name no other writer uses), synced and
// renamed into place on commit, so a crash, a kill or a full disk never leaves a half-written
// scene or table where the user's file was. A device or FIFO is written directly instead.
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace stepwise {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);  // throws InputError if the folder is not writable
  ~AtomicFile();                          // not committed: the temporary is removed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  std::ofstream& stream() { return out_; }
  void commit();  // flush, close and rename; throws InputError on failure

 private:
  std::string path_, temp_;
  std::ofstream out_;
  bool committed_ = false, direct_ = false;
  int slot_ = -1;  // its entry in the list SIGINT / SIGTERM clean up
};

void write_file_atomically(const std::string& path, const std::string& contents);
// SIGINT and SIGTERM remove every temporary being written, then end the process as the signal
// would (exit status 130 for Ctrl+C).
void remove_temporaries_on_signals();
// InputError if two of the (flag, path) outputs name the same file.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

}  // namespace stepwise
