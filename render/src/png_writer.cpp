// PNG frames (`coulomb render`): encoded in memory with libpng, then written through the one
// output writer (sim/atomic_file.hpp: temporary file beside the frame, fsync, rename).
#include <png.h>

#include <csetjmp>
#include <string>

#include "render/offscreen.hpp"
#include "sim/atomic_file.hpp"

namespace render {

namespace {

void append_bytes(png_structp png, png_bytep data, png_size_t n) {
  auto* bytes = static_cast<std::string*>(png_get_io_ptr(png));
  try {
    bytes->append(reinterpret_cast<const char*>(data), n);
  } catch (...) {
    png_error(png, "out of memory");
  }
}
void no_flush(png_structp) {}

}  // namespace

sim::Result<bool> write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba) {
  if (width <= 0 || height <= 0 || rgba.size() != std::size_t(width) * std::size_t(height) * 4)
    return sim::Error{path + ": image size does not match its pixels"};
  std::string bytes;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, nullptr);
    return sim::Error{path + ": libpng could not start"};
  }
  // libpng reports errors by longjmp: nothing with a destructor may be created between here and there.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return sim::Error{path + ": libpng failed while encoding"};
  }
  png_set_write_fn(png, &bytes, append_bytes, no_flush);
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, const_cast<png_bytep>(rgba.data() + std::size_t(y) * std::size_t(width) * 4));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::string e = sim::write_file_atomically(path, {bytes}); !e.empty()) return sim::Error{e};
  return true;
}

}  // namespace render
