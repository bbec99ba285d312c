// Structure-field textures: doubled-angle encoding, bilinear lookup, brush dabs, and PNG (libpng)
// / OpenEXR files (sim/structure_texture.hpp).
#include "sim/structure_texture.hpp"

#include "sim/atomic_file.hpp"

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfOutputFile.h>
#include <ImfStdIO.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <numbers>

namespace sim {

namespace {

constexpr int kMaxTextureSide = 8192;

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// ---- PNG ---------------------------------------------------------------------------------------

struct PngFile {
  std::FILE* file = nullptr;
  ~PngFile() {
    if (file) std::fclose(file);
  }
};

void png_error_to_jump(png_structp png, png_const_charp message) {
  auto* text = static_cast<std::string*>(png_get_error_ptr(png));
  if (text) *text = message;
  png_longjmp(png, 1);
}
void png_warning_ignored(png_structp, png_const_charp) {}

Result<StructureTexture> read_png(const std::string& path) {
  PngFile f;
  f.file = std::fopen(path.c_str(), "rb");
  if (!f.file) return Error{path + ": cannot open for reading"};
  unsigned char signature[8] = {};
  if (std::fread(signature, 1, 8, f.file) != 8 || png_sig_cmp(signature, 0, 8) != 0)
    return Error{path + ": not a PNG file"};
  std::string message;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &message, png_error_to_jump, png_warning_ignored);
  if (!png) return Error{path + ": cannot initialise libpng"};
  png_infop info = png_create_info_struct(png);
  StructureTexture out;
  std::vector<png_byte> pixels;
  std::vector<png_bytep> rows;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return Error{path + ": " + (message.empty() ? std::string("corrupt PNG") : message)};
  }
  png_init_io(png, f.file);
  png_set_sig_bytes(png, 8);
  png_read_info(png, info);
  const png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  const int color = png_get_color_type(png, info);
  int depth = png_get_bit_depth(png, info);
  if (w == 0 || h == 0 || w > kMaxTextureSide || h > kMaxTextureSide) {
    png_destroy_read_struct(&png, &info, nullptr);
    return Error{path + ": image size " + std::to_string(w) + " x " + std::to_string(h) + " (expected 1 .. 8192)"};
  }
  png_set_expand(png);  // palette -> RGB, grey < 8 bits -> 8, tRNS -> alpha
  if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  if (color & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(png);
  png_read_update_info(png, info);
  depth = png_get_bit_depth(png, info);
  const int channels = png_get_channels(png, info);
  const std::size_t stride = png_get_rowbytes(png, info);
  pixels.resize(stride * h);
  rows.resize(h);
  for (png_uint_32 y = 0; y < h; ++y) rows[y] = pixels.data() + y * stride;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  if (channels != 3 || (depth != 8 && depth != 16)) return Error{path + ": unsupported PNG layout"};
  out.width = static_cast<int>(w);
  out.height = static_cast<int>(h);
  out.bit_depth = depth;
  out.texels.resize(3 * static_cast<std::size_t>(w) * h);
  const float scale = depth == 16 ? 65535.0f : 255.0f;
  for (png_uint_32 y = 0; y < h; ++y) {
    const png_byte* row = rows[h - 1 - y];  // image top row = v = 1
    for (png_uint_32 x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        const std::size_t k = 3 * x + static_cast<std::size_t>(c);
        const float value = depth == 16 ? float((row[2 * k] << 8) | row[2 * k + 1]) : float(row[k]);
        const float unit = value / scale;
        out.texel(static_cast<int>(x), static_cast<int>(y))[c] = c < 2 ? 2 * unit - 1 : unit;
      }
  }
  return out;
}

// libpng's output into a string (the encoded file, written whole by write_file_atomically).
void png_append(png_structp png, png_bytep data, png_size_t n) {
  auto* bytes = static_cast<std::string*>(png_get_io_ptr(png));
  try {
    bytes->append(reinterpret_cast<const char*>(data), n);
  } catch (...) {
    png_error(png, "out of memory");
  }
}
void png_no_flush(png_structp) {}

// The texture as PNG file bytes into `bytes`; an error message, "" on success.
std::string encode_png(const StructureTexture& t, const std::string& path, std::string& bytes) {
  const int depth = t.bit_depth == 8 ? 8 : 16;
  const float scale = depth == 16 ? 65535.0f : 255.0f;
  const std::size_t stride = 3 * static_cast<std::size_t>(t.width) * (depth / 8);
  std::vector<png_byte> pixels(stride * t.height);
  for (int y = 0; y < t.height; ++y) {
    png_byte* row = pixels.data() + static_cast<std::size_t>(t.height - 1 - y) * stride;
    for (int x = 0; x < t.width; ++x)
      for (int c = 0; c < 3; ++c) {
        const float v = t.texel(x, y)[c];
        const float unit = std::clamp(c < 2 ? (v + 1) / 2 : v, 0.0f, 1.0f);
        const auto q = static_cast<unsigned>(std::lround(unit * scale));
        const std::size_t k = 3 * static_cast<std::size_t>(x) + c;
        if (depth == 16) row[2 * k] = png_byte(q >> 8), row[2 * k + 1] = png_byte(q & 0xff);
        else row[k] = png_byte(q);
      }
  }
  std::string message;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &message, png_error_to_jump, png_warning_ignored);
  if (!png) return path + ": cannot initialise libpng";
  png_infop info = png_create_info_struct(png);
  std::vector<png_bytep> rows(t.height);
  for (int y = 0; y < t.height; ++y) rows[y] = pixels.data() + static_cast<std::size_t>(y) * stride;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return path + ": " + (message.empty() ? std::string("PNG write failed") : message);
  }
  png_set_write_fn(png, &bytes, png_append, png_no_flush);
  png_set_IHDR(png, info, png_uint_32(t.width), png_uint_32(t.height), depth, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return {};
}

// ---- OpenEXR -----------------------------------------------------------------------------------

Result<StructureTexture> read_exr(const std::string& path) {
  try {
    Imf::InputFile file(path.c_str());
    const Imath::Box2i window = file.header().dataWindow();
    const long w = long(window.max.x) - window.min.x + 1, h = long(window.max.y) - window.min.y + 1;
    if (w <= 0 || h <= 0 || w > kMaxTextureSide || h > kMaxTextureSide)
      return Error{path + ": image size " + std::to_string(w) + " x " + std::to_string(h) + " (expected 1 .. 8192)"};
    const Imf::ChannelList& channels = file.header().channels();
    if (!channels.findChannel("R") && !channels.findChannel("G"))
      return Error{path + ": no R and G channels (the doubled-angle grain)"};
    std::vector<float> rgb(3 * static_cast<std::size_t>(w) * h);
    Imf::FrameBuffer fb;
    const std::size_t xs = 3 * sizeof(float), ys = xs * static_cast<std::size_t>(w);
    // The slice base is addressed by absolute data-window coordinates.
    char* base = reinterpret_cast<char*>(rgb.data()) - window.min.x * static_cast<long>(xs) -
                 window.min.y * static_cast<long>(ys);
    fb.insert("R", Imf::Slice(Imf::FLOAT, base, xs, ys, 1, 1, 0.0));
    fb.insert("G", Imf::Slice(Imf::FLOAT, base + sizeof(float), xs, ys, 1, 1, 0.0));
    fb.insert("B", Imf::Slice(Imf::FLOAT, base + 2 * sizeof(float), xs, ys, 1, 1, 1.0));
    file.setFrameBuffer(fb);
    file.readPixels(window.min.y, window.max.y);
    StructureTexture out;
    out.width = static_cast<int>(w);
    out.height = static_cast<int>(h);
    out.bit_depth = 32;
    out.texels.resize(rgb.size());
    for (long y = 0; y < h; ++y)  // file row 0 (top) = v = 1
      std::copy_n(rgb.data() + 3 * (h - 1 - y) * w, 3 * w, out.texels.data() + 3 * y * w);
    for (float v : out.texels)
      if (!std::isfinite(v)) return Error{path + ": non-finite texel values"};
    return out;
  } catch (const std::exception& e) {
    return Error{path + ": " + e.what()};
  }
}

// The texture as OpenEXR file bytes into `bytes`; an error message, "" on success.
std::string encode_exr(const StructureTexture& t, const std::string& path, std::string& bytes) {
  try {
    std::vector<float> rgb(t.texels.size());
    const std::size_t row = 3 * static_cast<std::size_t>(t.width);
    for (int y = 0; y < t.height; ++y)
      std::copy_n(t.texels.data() + row * (t.height - 1 - y), row, rgb.data() + row * y);
    Imf::Header header(t.width, t.height);
    for (const char* c : {"R", "G", "B"}) header.channels().insert(c, Imf::Channel(Imf::FLOAT));
    Imf::StdOSStream stream;
    {
      Imf::OutputFile file(stream, header);
      Imf::FrameBuffer fb;
      const std::size_t xs = 3 * sizeof(float), ys = xs * static_cast<std::size_t>(t.width);
      char* base = reinterpret_cast<char*>(rgb.data());
      fb.insert("R", Imf::Slice(Imf::FLOAT, base, xs, ys));
      fb.insert("G", Imf::Slice(Imf::FLOAT, base + sizeof(float), xs, ys));
      fb.insert("B", Imf::Slice(Imf::FLOAT, base + 2 * sizeof(float), xs, ys));
      file.setFrameBuffer(fb);
      file.writePixels(t.height);
    }  // the file's destructor writes the line offsets
    bytes = stream.str();
    return {};
  } catch (const std::exception& e) {
    return path + ": " + e.what();
  }
}

int wrap(int i, int n) {
  const int r = i % n;
  return r < 0 ? r + n : r;
}

Vec2 stored_vector(const float* t) {
  const Real x = t[0], y = t[1], a = t[2];
  const Real len = std::hypot(x, y);
  if (!(a > 0) || !(len > 0)) return Vec2::Zero();
  return (std::min(a, Real(1)) / len) * Vec2(x, y);
}

void store_vector(float* t, const Vec2& v) {
  const Real len = v.norm();
  if (!(len > Real(1e-6))) {
    t[0] = 1, t[1] = 0, t[2] = 0;
    return;
  }
  t[0] = static_cast<float>(v.x() / len);
  t[1] = static_cast<float>(v.y() / len);
  t[2] = static_cast<float>(std::min(len, Real(1)));
}

}  // namespace

Result<StructureTexture> blank_structure_texture(int width, int height) {
  if (width < 1 || height < 1 || width > kMaxTextureSide || height > kMaxTextureSide)
    return Error{"texture size " + std::to_string(width) + " x " + std::to_string(height) + " (expected 1 .. 8192)"};
  StructureTexture t;
  t.width = width;
  t.height = height;
  t.texels.assign(3 * static_cast<std::size_t>(width) * height, 0.0f);
  for (std::size_t k = 0; k < t.texels.size(); k += 3) t.texels[k] = 1;  // direction +u, strength 0
  return t;
}

Vec2 encode_grain_angle(Real theta) { return {std::cos(2 * theta), std::sin(2 * theta)}; }

Real decode_grain_angle(const Vec2& doubled) { return Real(0.5) * std::atan2(doubled.y(), doubled.x()); }

Vec2 texel_vector(const StructureTexture& t, int i, int j) { return stored_vector(t.texel(i, j)); }

Vec2 sample_structure_texture(const StructureTexture& t, const Vec2& uv) {
  if (t.empty()) return Vec2::Zero();
  const Real x = uv.x() * t.width - Real(0.5), y = uv.y() * t.height - Real(0.5);
  if (!std::isfinite(x) || !std::isfinite(y)) return Vec2::Zero();
  const Real fx = std::floor(x), fy = std::floor(y);
  const Real sx = x - fx, sy = y - fy;
  // Wrap the integer cell once (fmod on the floor keeps huge UVs in range).
  const int i0 = wrap(static_cast<int>(std::fmod(fx, Real(t.width))), t.width);
  const int j0 = wrap(static_cast<int>(std::fmod(fy, Real(t.height))), t.height);
  const int i1 = i0 + 1 == t.width ? 0 : i0 + 1, j1 = j0 + 1 == t.height ? 0 : j0 + 1;
  return (1 - sx) * (1 - sy) * stored_vector(t.texel(i0, j0)) + sx * (1 - sy) * stored_vector(t.texel(i1, j0)) +
         (1 - sx) * sy * stored_vector(t.texel(i0, j1)) + sx * sy * stored_vector(t.texel(i1, j1));
}

Vec3 surface_grain(const StructureTexture& texture, const MeshSurface& surface, const SurfacePoint& point) {
  if (point.triangle < 0 || point.triangle >= static_cast<int>(surface.triangles.size())) return Vec3::Zero();
  const Vec2 doubled = sample_structure_texture(texture, surface.uv(point));
  if (!(doubled.norm() >= kMinGrainStrength)) return Vec3::Zero();
  const Real theta = decode_grain_angle(doubled);
  return surface.lift(point.triangle, Vec2(std::cos(theta), std::sin(theta)));
}

Result<StructureTexture> load_structure_texture(const std::string& path) {
  const std::string ext = lower_extension(path);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Error{path + ": no such file"};
  if (ext == ".png") return read_png(path);
  if (ext == ".exr") return read_exr(path);
  return Error{path + ": unknown texture format \"" + ext + "\" (expected .png or .exr)"};
}

std::string save_structure_texture(const StructureTexture& texture, const std::string& path) {
  if (texture.empty() || texture.texels.size() != 3 * static_cast<std::size_t>(texture.width) * texture.height)
    return path + ": the texture is empty or its texels do not match its size";
  const std::string ext = lower_extension(path);
  if (ext != ".png" && ext != ".exr") return path + ": unknown texture format \"" + ext + "\" (expected .png or .exr)";
  std::string bytes;
  const std::string error = ext == ".png" ? encode_png(texture, path, bytes) : encode_exr(texture, path, bytes);
  return error.empty() ? write_file_atomically(path, {bytes}) : error;
}

int paint_structure_texture(StructureTexture& t, TextureBrushMode mode, const Vec2& center, Real radius_uv, Real aspect,
                            Real theta, Real strength) {
  if (t.empty() || !(radius_uv > 0) || !center.allFinite() || !std::isfinite(theta) || !(strength > 0)) return 0;
  if (!(aspect > 0) || !std::isfinite(aspect)) aspect = 1;
  strength = std::min(strength, Real(1));
  // Texel range of the dab: the radius in u is radius / aspect (u stretched by aspect on the surface).
  const Real ru = radius_uv / aspect, rv = radius_uv;
  const int i_lo = static_cast<int>(std::floor((center.x() - ru) * t.width - Real(0.5)));
  const int i_hi = static_cast<int>(std::ceil((center.x() + ru) * t.width - Real(0.5)));
  const int j_lo = static_cast<int>(std::floor((center.y() - rv) * t.height - Real(0.5)));
  const int j_hi = static_cast<int>(std::ceil((center.y() + rv) * t.height - Real(0.5)));
  if (i_hi - i_lo > 4 * t.width || j_hi - j_lo > 4 * t.height) return 0;  // a dab far larger than the texture
  const Vec2 comb = encode_grain_angle(theta);
  // Smooth reads the texture before the dab (a copy of the neighbourhoods it needs would do; the
  // whole texture is simplest and a dab is a user action, not part of a step).
  const StructureTexture before = mode == TextureBrushMode::Smooth ? t : StructureTexture{};
  int changed = 0;
  for (int j = j_lo; j <= j_hi; ++j)
    for (int i = i_lo; i <= i_hi; ++i) {
      const Real du = ((i + Real(0.5)) / t.width - center.x()) * aspect;
      const Real dv = (j + Real(0.5)) / t.height - center.y();
      const Real r2 = (du * du + dv * dv) / (radius_uv * radius_uv);
      if (r2 >= 1) continue;
      const Real w = strength * (1 - r2) * (1 - r2);
      const int wi = wrap(i, t.width), wj = wrap(j, t.height);
      float* texel = t.texel(wi, wj);
      const Vec2 old = stored_vector(texel);
      Vec2 target = Vec2::Zero();
      switch (mode) {
        case TextureBrushMode::Comb: target = comb; break;
        case TextureBrushMode::Erase: break;
        case TextureBrushMode::Rotate: break;  // below: turned by 2θ w, length kept
        case TextureBrushMode::Smooth:
          for (int b = -1; b <= 1; ++b)
            for (int a = -1; a <= 1; ++a) target += texel_vector(before, wrap(wi + a, t.width), wrap(wj + b, t.height));
          target /= 9;
          break;
      }
      Vec2 next = (1 - w) * old + w * target;
      if (mode == TextureBrushMode::Rotate) {
        const Real phi = 2 * theta * w;
        next = Vec2(std::cos(phi) * old.x() - std::sin(phi) * old.y(), std::sin(phi) * old.x() + std::cos(phi) * old.y());
      }
      store_vector(texel, next);
      ++changed;
    }
  return changed;
}

}  // namespace sim
