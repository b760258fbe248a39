#include "io/atomic_file.hpp"

#include <cstdio>
#include <filesystem>
#include <unistd.h>

#include "core/types.hpp"

namespace stepwise {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), temp_(path_ + ".tmp" + std::to_string(::getpid())) {
  out_.open(temp_, std::ios::binary | std::ios::trunc);
  if (!out_) throw InputError("cannot write '" + path_ + "' (folder missing or not writable)");
  out_.precision(17);
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.close();
    std::remove(temp_.c_str());
  }
}

void AtomicFile::commit() {
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    std::remove(temp_.c_str());
    throw InputError("could not finish writing '" + path_ + "'");
  }
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  AtomicFile file(path);
  file.stream() << contents;
  file.commit();
}

}  // namespace stepwise
