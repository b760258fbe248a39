#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/types.hpp"

namespace stepwise {
namespace {

// The temporaries being written, so SIGINT and SIGTERM can remove them: fixed slots, read by
// the signal handler without locks or allocation.
constexpr int kSlots = 64;
constexpr size_t kNameMax = 4096;
char g_temp[kSlots][kNameMax];
std::atomic<bool> g_used[kSlots];

int register_temp(const std::string& name) {
  if (name.size() >= kNameMax) return -1;
  for (int s = 0; s < kSlots; ++s) {
    bool expected = false;
    if (g_used[s].compare_exchange_strong(expected, true)) {
      std::memcpy(g_temp[s], name.c_str(), name.size() + 1);
      return s;
    }
  }
  return -1;  // more than 64 at once: this one is only removed by its destructor
}

void release_temp(int slot) {
  if (slot >= 0) g_used[slot] = false;
}

extern "C" void remove_temporaries_and_die(int signal) {
  for (int s = 0; s < kSlots; ++s)
    if (g_used[s]) ::unlink(g_temp[s]);
  std::signal(signal, SIG_DFL);
  std::raise(signal);  // the shell sees 128 + signal (130 for Ctrl+C)
}

std::string unique_temp(const std::string& path) {
  static std::atomic<long> counter{0};
  return path + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

}  // namespace

void remove_temporaries_on_signals() {
  std::signal(SIGINT, remove_temporaries_and_die);
  std::signal(SIGTERM, remove_temporaries_and_die);
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  struct stat info {};
  if (::stat(path_.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) throw InputError("cannot write '" + path_ + "': it is a folder");
    direct_ = !S_ISREG(info.st_mode);  // a device or a FIFO: written to, never renamed over
  }
  if (direct_) {
    out_.open(path_, std::ios::binary);
  } else {
    temp_ = unique_temp(path_);
    slot_ = register_temp(temp_);
    out_.open(temp_, std::ios::binary | std::ios::trunc);
  }
  if (!out_) {
    release_temp(slot_);
    throw InputError("cannot write '" + path_ + "' (folder missing or not writable)");
  }
  out_.precision(17);
}

AtomicFile::~AtomicFile() {
  if (!committed_ && !direct_) {
    out_.close();
    std::remove(temp_.c_str());
  }
  release_temp(slot_);
}

void AtomicFile::commit() {
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (direct_) {
    committed_ = true;
    if (!ok) throw InputError("could not finish writing '" + path_ + "'");
    return;
  }
  // On the disk before it takes the old file's place: a crash then leaves one or the other.
  bool synced = false;
  if (ok) {
    const int fd = ::open(temp_.c_str(), O_RDONLY);
    synced = fd >= 0 && ::fsync(fd) == 0;
    if (fd >= 0) ::close(fd);
  }
  if (!synced || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    std::remove(temp_.c_str());
    throw InputError("could not finish writing '" + path_ + "'");
  }
  committed_ = true;
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  namespace fs = std::filesystem;
  for (size_t a = 0; a < outputs.size(); ++a)
    for (size_t b = a + 1; b < outputs.size(); ++b) {
      if (outputs[a].second.empty() || outputs[b].second.empty()) continue;
      std::error_code ea, eb;
      const fs::path pa = fs::weakly_canonical(outputs[a].second, ea),
                     pb = fs::weakly_canonical(outputs[b].second, eb);
      if ((ea || eb) ? outputs[a].second == outputs[b].second : pa == pb)
        throw InputError(outputs[a].first + " and " + outputs[b].first + " name the same file '" +
                         outputs[a].second + "'");
    }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  AtomicFile file(path);
  file.stream() << contents;
  file.commit();
}

}  // namespace stepwise
