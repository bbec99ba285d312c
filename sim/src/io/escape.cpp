// Control characters escaped for messages (sim/escape.hpp).
#include "sim/escape.hpp"

namespace sim {

namespace {

void append_hex(std::string& out, const char* prefix, unsigned value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += prefix;
  for (int d = digits - 1; d >= 0; --d) out += kHex[(value >> (4 * d)) & 0xf];
}

// The length of the valid UTF-8 sequence starting at text[i] (2..4), 0 when it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  std::size_t n = 0;
  if (b >= 0xc2 && b <= 0xdf) n = 2;
  else if (b >= 0xe0 && b <= 0xef) n = 3;
  else if (b >= 0xf0 && b <= 0xf4) n = 4;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  // Overlong three- and four-byte forms, surrogates and code points past U+10FFFF.
  if ((b == 0xe0 && byte(i + 1) < 0xa0) || (b == 0xed && byte(i + 1) >= 0xa0) || (b == 0xf0 && byte(i + 1) < 0x90) ||
      (b == 0xf4 && byte(i + 1) >= 0x90))
    return 0;
  return n;
}

}  // namespace

std::string escape_control_characters(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && !(keep_newlines && c == '\n')) || c == 0x7f) append_hex(out, "\\x", c, 2);
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {  // not UTF-8: the byte itself, escaped (a lone 0x9b is CSI to some terminals)
      append_hex(out, "\\x", c, 2);
      ++i;
    } else if (n == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0) {  // U+0080..U+009F
      append_hex(out, "\\u", static_cast<unsigned char>(text[i + 1]), 4);
      i += 2;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace sim
