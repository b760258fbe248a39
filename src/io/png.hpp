#pragma once
// PNG images (screenshots, video frames checked by tests), written atomically.
#include <cstdint>
#include <string>
#include <vector>

namespace stepwise {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // rows top to bottom
};

// Throws InputError naming the path if it cannot be written.
void write_png(const std::string& path, const Image& image);
// Throws InputError if the file is missing or not an image.
Image read_png(const std::string& path);

}  // namespace stepwise
