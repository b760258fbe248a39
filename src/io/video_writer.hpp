#pragma once
// H.264 video through an ffmpeg process fed raw RGBA frames on a pipe. The MP4 is fragmented, so
// a recording cut short (a crash, a kill) still plays up to its last complete fragment.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace stepwise {

class VideoWriter {
 public:
  // Checks everything that can fail before the first frame: ffmpeg on PATH, the output folder
  // writable, even dimensions. Throws InputError naming the problem.
  VideoWriter(const std::string& path, int width, int height, double fps);
  ~VideoWriter();  // finishes the file
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  void write(const std::vector<std::uint8_t>& rgba);  // rows top to bottom
  void finish();  // waits for ffmpeg; throws InputError if it failed
  long frames() const { return frames_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int width_, height_;
  std::FILE* pipe_ = nullptr;
  long frames_ = 0;
};

// Throws InputError unless `ffmpeg` can be run.
void require_ffmpeg();

}  // namespace stepwise
