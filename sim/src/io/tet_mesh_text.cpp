// Token reading with line numbers and bounded counts for the tet-mesh readers (see tet_mesh_text.hpp).
#include "io/tet_mesh_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "io/xml_element.hpp"
#include "sim/load_limits.hpp"

namespace sim::io {

std::string read_tet_mesh_file(const std::string& path) {
  std::string why;
  auto text = read_text_file(path, limits::kMaxTetMeshFileBytes, why);
  if (!text) throw TetFileError{path + ": cannot read (" + why + ")"};
  return std::move(*text);
}

TokenReader::TokenReader(std::string_view text, std::string file, char comment, int first_line)
    : text_(text), file_(std::move(file)), comment_(comment), first_line_(first_line), line_(first_line), token_line_(first_line) {}

void TokenReader::skip_space() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') {
      ++line_;
      ++pos_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (comment_ != 0 && c == comment_) {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
}

bool TokenReader::at_end() {
  skip_space();
  return pos_ >= text_.size();
}

std::string TokenReader::where(std::string_view element) const {
  std::string s = file_ + ":" + std::to_string(token_line_) + ": ";
  if (!element.empty()) s.append(element).append(": ");
  return s;
}

void TokenReader::fail(std::string_view element, const std::string& what) const {
  throw TetFileError{where(element) + what};
}

std::string_view TokenReader::token(std::string_view element) {
  skip_space();
  if (pos_ >= text_.size()) {
    token_line_ = line_;
    fail(element, "unexpected end of file (truncated?)");
  }
  token_line_ = line_;
  const std::size_t start = pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || (comment_ != 0 && c == comment_)) break;
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

void TokenReader::expect(std::string_view word, std::string_view element) {
  const std::string_view t = token(element);
  if (t != word) fail(element, "expected '" + std::string(word) + "', found '" + std::string(t.substr(0, 40)) + "'");
}

std::string_view TokenReader::rest_of_line() {
  std::size_t start = pos_;
  while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  std::string_view s = text_.substr(start, pos_ - start);
  if (pos_ < text_.size()) {
    ++pos_;
    ++line_;
  }
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

void TokenReader::skip_line() { (void)rest_of_line(); }

long long TokenReader::integer(std::string_view element, std::string_view what) {
  std::string_view t = token(element);
  const std::string_view shown = t;
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size())
    fail(element, std::string(what) + ": '" + std::string(shown.substr(0, 40)) + "' is not an integer");
  return v;
}

long long TokenReader::integer_in(std::string_view element, std::string_view what, long long lo, long long hi) {
  const long long v = integer(element, what);
  if (v < lo || v > hi)
    fail(element, std::string(what) + " " + std::to_string(v) + " is out of range (" + std::to_string(lo) + ".." +
                      std::to_string(hi) + ")");
  return v;
}

double TokenReader::real(std::string_view element, std::string_view what) {
  std::string_view t = token(element);
  const std::string_view shown = t;
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  double v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  // from_chars reports an overflow (1e999) as out of range: that is not finite either.
  if (ec == std::errc::result_out_of_range && ptr == t.data() + t.size())
    fail(element, std::string(what) + " = " + std::string(shown.substr(0, 40)) + " is not finite");
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size())
    fail(element, std::string(what) + ": '" + std::string(shown.substr(0, 40)) + "' is not a number");
  if (!std::isfinite(v)) fail(element, std::string(what) + " = " + std::string(shown.substr(0, 40)) + " is not finite");
  return v;
}

Vec3 TokenReader::point(std::string_view element) {
  const double x = real(element, "x");
  const double y = real(element, "y");
  const double z = real(element, "z");
  return Vec3(static_cast<Real>(x), static_cast<Real>(y), static_cast<Real>(z));
}

std::int64_t TokenReader::count(std::string_view element, std::string_view what, std::int64_t max, std::size_t min_bytes) {
  const long long n = integer(element, what);
  if (n < 0) fail(element, std::string(what) + " " + std::to_string(n) + " is negative");
  if (n > max) fail(element, std::string(what) + " " + std::to_string(n) + " is above the limit of " + std::to_string(max));
  const std::size_t left = bytes_left();
  if (min_bytes > 0 && static_cast<std::uint64_t>(n) > left / min_bytes)
    fail(element, std::string(what) + " " + std::to_string(n) + " cannot fit in the " + std::to_string(left) +
                      " bytes left in the file (truncated or corrupt)");
  return n;
}

void TokenReader::skip_bytes(std::size_t n, std::string_view element) {
  if (text_.size() - pos_ < n)
    fail(element, "unexpected end of file in binary data at byte " + std::to_string(pos_) + " (truncated?)");
  pos_ += n;
}

void TokenReader::skip_past(std::string_view word, std::string_view element) {
  const std::size_t at = text_.find(word, pos_);
  if (at == std::string_view::npos) fail(element, "no '" + std::string(word) + "' before the end of the file (truncated?)");
  pos_ = at + word.size();
  resync_line();
}

void TokenReader::resync_line() {
  line_ = first_line_ + static_cast<int>(std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(pos_), '\n'));
  token_line_ = line_;
}

}  // namespace sim::io
