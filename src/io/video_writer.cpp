#include "io/video_writer.hpp"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

#include "core/types.hpp"

namespace stepwise {
namespace {

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

void require_ffmpeg() {
  if (std::system("ffmpeg -hide_banner -version > /dev/null 2>&1") != 0)
    throw InputError("ffmpeg was not found on PATH; install it (Debian: apt install ffmpeg) to record video");
}

VideoWriter::VideoWriter(const std::string& path, int width, int height, double fps)
    : path_(path), width_(width), height_(height) {
  if (width <= 0 || height <= 0 || width % 2 || height % 2)
    throw InputError("video size must be even and positive (got " + std::to_string(width) + "x" +
                     std::to_string(height) + "): H.264 in yuv420p needs even dimensions");
  if (!(fps >= 1 && fps <= 240)) throw InputError("--fps: must be from 1 to 240 (got " + std::to_string(fps) + ")");
  require_ffmpeg();
  {  // the output location must be writable before any simulation work starts
    std::ofstream probe(path, std::ios::app);
    if (!probe) throw InputError("cannot write " + path + " (missing folder or no permission)");
  }
  std::signal(SIGPIPE, SIG_IGN);  // a dead ffmpeg must give an error, not kill us
  // ffmpeg in a session of its own: Ctrl+C at the terminal stops the recording loop, which
  // then finishes the file, instead of killing the encoder under it.
  const std::string command =
      "exec setsid ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s " + std::to_string(width) +
      "x" + std::to_string(height) + " -framerate " + std::to_string(fps) +
      " -i - -c:v libx264 -preset veryfast -crf 20 -pix_fmt yuv420p"
      " -movflags +frag_keyframe+empty_moov+default_base_moof -g " +
      std::to_string(std::max(1, int(fps))) + " " + quoted(path);
  pipe_ = popen(command.c_str(), "w");
  if (!pipe_) throw InputError("could not start ffmpeg for " + path);
}

VideoWriter::~VideoWriter() {
  try {
    finish();
  } catch (...) {  // destructors must not throw; finish() reported it if called explicitly
  }
}

void VideoWriter::write(const std::vector<std::uint8_t>& rgba) {
  if (!pipe_) throw InputError("video " + path_ + " is already finished");
  if (rgba.size() != size_t(width_) * size_t(height_) * 4)
    throw InputError("video frame has the wrong size");
  if (std::fwrite(rgba.data(), 1, rgba.size(), pipe_) != rgba.size())
    throw InputError("ffmpeg stopped accepting frames for " + path_);
  ++frames_;
}

void VideoWriter::finish() {
  if (!pipe_) return;
  const int status = pclose(pipe_);
  pipe_ = nullptr;
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw InputError("ffmpeg failed while writing " + path_);
}

}  // namespace stepwise
