#pragma once
// Writes go to a temporary file beside the target and are renamed into place on commit, so a
// crash or a full disk never leaves a half-written scene or table where the user's file was.
#include <fstream>
#include <string>

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
  bool committed_ = false;
};

void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace stepwise
