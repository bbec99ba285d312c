#include <png.h>

#include <cstdio>
#include <csetjmp>

#include "render/offscreen.hpp"

namespace render {

sim::Result<bool> write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba) {
  if (width <= 0 || height <= 0 || rgba.size() != std::size_t(width) * std::size_t(height) * 4)
    return sim::Error{path + ": image size does not match its pixels"};
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) return sim::Error{path + ": cannot open for writing"};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, nullptr);
    std::fclose(file);
    return sim::Error{path + ": libpng could not start"};
  }
  // libpng reports errors by longjmp: nothing with a destructor may live between here and there.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
    return sim::Error{path + ": libpng failed while writing"};
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, const_cast<png_bytep>(rgba.data() + std::size_t(y) * std::size_t(width) * 4));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::fclose(file) != 0) return sim::Error{path + ": write failed (disk full?)"};
  return true;
}

}  // namespace render
