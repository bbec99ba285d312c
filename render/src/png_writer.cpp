#include <png.h>

#include <cstdio>

#include "render/offscreen_renderer.hpp"

namespace render {

sim::Result<bool> write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba) {
  if (rgba.size() != static_cast<std::size_t>(width) * height * 4) return sim::Error{path + ": image size mismatch"};
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) return sim::Error{path + ": cannot write"};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
    return sim::Error{path + ": PNG encoding failed"};
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, const_cast<png_bytep>(rgba.data() + static_cast<std::size_t>(y) * width * 4));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(file);
  return true;
}

}  // namespace render
