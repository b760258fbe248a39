#include "io/png.hpp"

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include "io/atomic_file.hpp"
#include "core/types.hpp"

namespace stepwise {

void write_png(const std::string& path, const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != size_t(image.width) * size_t(image.height) * 4)
    throw InputError("cannot write " + path + ": empty or inconsistent image");
  std::string bytes;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
  };
  if (!stbi_write_png_to_func(append, &bytes, image.width, image.height, 4, image.rgba.data(),
                              image.width * 4))
    throw InputError("cannot encode PNG for " + path);
  write_file_atomically(path, bytes);
}

Image read_png(const std::string& path) {
  Image image;
  int channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &image.width, &image.height, &channels, 4);
  if (!pixels) throw InputError("cannot read image " + path + ": " + stbi_failure_reason());
  image.rgba.assign(pixels, pixels + size_t(image.width) * size_t(image.height) * 4);
  stbi_image_free(pixels);
  return image;
}

}  // namespace stepwise
