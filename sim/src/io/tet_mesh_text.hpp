// The reading machinery the tet-mesh readers share (io/tet_mesh_*.cpp): a file loaded under the
// tet-mesh size bound, a token reader that knows the line of every token and turns whatever is
// wrong into "file:line: element: what" (thrown as TetFileError inside a reader, returned as the
// reader's Error at its entry), counts checked against the documented bounds and the bytes left
// before anything is allocated, and the map from a file's node numbers to indices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/math.hpp"

namespace sim::io {

// What a reader throws internally; its entry point returns the message as the Result's Error.
struct TetFileError {
  std::string message;
};

// The whole file (regular files only, at most limits::kMaxTetMeshFileBytes); throws TetFileError
// "path: cannot read (why)".
std::string read_tet_mesh_file(const std::string& path);

class TokenReader {
 public:
  // `comment`: a character that starts a comment running to the end of its line (0: none).
  // `first_line`: the line of the text's first character in its file (text inside an XML element).
  TokenReader(std::string_view text, std::string file, char comment = 0, int first_line = 1);

  const std::string& file() const { return file_; }
  int line() const { return token_line_; }  // the line of the last token read
  std::size_t offset() const { return pos_; }
  std::size_t bytes_left() const { return text_.size() - pos_; }
  bool at_end();  // nothing but whitespace and comments left

  // "file:line: element: what" at the last token's line.
  std::string where(std::string_view element) const;
  [[noreturn]] void fail(std::string_view element, const std::string& what) const;

  // The next whitespace-separated token; fails "unexpected end of file (truncated?)" at the end.
  std::string_view token(std::string_view element);
  // The next token, which must be `word` (a section keyword such as "$EndNodes").
  void expect(std::string_view word, std::string_view element);
  // The rest of the current line (after the last token), trimmed; moves to the next line.
  std::string_view rest_of_line();
  // Moves to the start of the next line.
  void skip_line();

  long long integer(std::string_view element, std::string_view what);
  long long integer_in(std::string_view element, std::string_view what, long long lo, long long hi);
  // A finite real; "nan" and "inf" fail naming the value ("x = nan is not finite").
  double real(std::string_view element, std::string_view what);
  Vec3 point(std::string_view element);
  // A count of records read next, each taking at least `min_bytes` of the file: fails when it is
  // negative, above `max` (the documented bound, named by `bound_name`) or beyond the bytes left.
  std::int64_t count(std::string_view element, std::string_view what, std::int64_t max, std::size_t min_bytes);

  // Raw little-endian binary values at the current position (binary .msh sections). Binary data
  // does not count lines: errors in it name the line of the last text token (the section's
  // header) and the byte offset.
  template <class T>
  T binary(std::string_view element) {
    if (text_.size() - pos_ < sizeof(T))
      fail(element, "unexpected end of file in binary data at byte " + std::to_string(pos_) + " (truncated?)");
    T v;
    std::memcpy(&v, text_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  // Skips n bytes of binary data (failing at the end of the file), then the newline after a
  // binary section is left to token().
  void skip_bytes(std::size_t n, std::string_view element);
  // A position to come back to (a look-ahead at the next keyword).
  struct Mark {
    std::size_t pos;
    int line;
  };
  Mark mark() const { return {pos_, line_}; }
  void reset(Mark m) {
    pos_ = m.pos;
    line_ = m.line;
  }
  // Moves past the next occurrence of `word` (the end of a section skipped whole, which may hold
  // binary data); fails when there is none.
  void skip_past(std::string_view word, std::string_view element);
  // After binary data: recounts the line from the start (binary bytes may hold '\n').
  void resync_line();

 private:
  void skip_space();
  std::string_view text_;
  std::string file_;
  char comment_;
  int first_line_;
  std::size_t pos_ = 0;
  int line_;        // line at pos_
  int token_line_;  // line of the last token
};

// A file's node numbers (tags) to indices 0..n-1.
class NodeTagMap {
 public:
  void reserve(std::size_t n) { map_.reserve(n); }
  // false when the tag is already there.
  bool insert(long long tag, std::int32_t index) { return map_.emplace(tag, index).second; }
  // -1 when the file has no such node.
  std::int32_t find(long long tag) const {
    const auto it = map_.find(tag);
    return it == map_.end() ? -1 : it->second;
  }

 private:
  std::unordered_map<long long, std::int32_t> map_;
};

}  // namespace sim::io
