// A checked view of one tinyxml2 element for the scene parsers: every attribute must be in the
// element's allowed list, values are parsed locale-independently (numbers, vectors, booleans)
// and every failure throws ParseError with "file:line: <element>: what is wrong", where the
// line is the attribute's own line when an attribute is at fault. Also the document-level
// helpers every XML reader here shares (scene files, URDF, MJCF): reading the file, turning a
// tinyxml2 syntax error into a ParseError, listing child elements.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/load_limits.hpp"
#include "sim/math.hpp"
#include "sim/spec.hpp"

namespace tinyxml2 {
class XMLDocument;
class XMLElement;
}

namespace sim::io {

// Thrown by the parsers; its message is complete ("file:line: <element>: ...") and is turned
// into a Result error at the edge.
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "file:line: <element>: what" (line and element are left out when 0 / empty).
std::string format_error(const std::string& file, int line, std::string_view element,
                         std::string_view what);
[[noreturn]] void fail_at(const std::string& file, int line, std::string_view element,
                          std::string_view what);

// 'text' in single quotes, for messages.
std::string in_quotes(std::string_view text);
// Splits on whitespace and commas.
std::vector<std::string_view> split_tokens(std::string_view text);
// Locale-independent finite real ("1", "-2.5e3", "+4"); false if malformed or not finite.
bool parse_real(std::string_view text, double& out);
// Decimal integer; false if malformed or out of range.
bool parse_int(std::string_view text, long long& out);

// Largest file read_text_file accepts [bytes]: a description, scene or include is far smaller.
constexpr std::uintmax_t kMaxTextFileBytes = limits::kMaxTextFileBytes;
// A whole file's bytes; nullopt if it cannot be opened or read, is not a regular file (a FIFO
// would block in open(), /dev/zero never ends) or is larger than kMaxTextFileBytes. The file is
// checked with stat() before it is opened, opened with O_NONBLOCK (a FIFO swapped in meanwhile
// does not block) and checked again on the open descriptor.
std::optional<std::string> read_text_file(const std::string& path);
// The same with the reason when it fails ("is not a regular file", "is larger than ...").
std::optional<std::string> read_text_file(const std::string& path, std::uintmax_t max_bytes, std::string& why);
// Throws ParseError for a tinyxml2 parse failure ("file:line: <element>: XML syntax error: ...").
[[noreturn]] void throw_xml_syntax_error(const tinyxml2::XMLDocument& doc, const std::string& file);
// Parses `text` (the contents of `file`) into `doc` and returns its root element, which must be
// <root_name>; throws ParseError for a syntax error, an empty document or another root.
const tinyxml2::XMLElement* parse_root(tinyxml2::XMLDocument& doc, const std::string& text, const std::string& file,
                                       std::string_view root_name);
// The child elements of `element`, in document order.
std::vector<const tinyxml2::XMLElement*> child_elements(const tinyxml2::XMLElement* element);

// Value constraints checked by the typed getters.
enum class Range { Any, Positive, NonNegative };

class XmlElement {
 public:
  // Throws ParseError if the element has an attribute outside `allowed` or holds text.
  XmlElement(const tinyxml2::XMLElement* element, const std::string& file,
             std::vector<std::string_view> allowed);

  std::string_view name() const { return name_; }
  int line() const { return line_; }
  const std::string& file() const { return file_; }
  SourceLocation location() const { return SourceLocation{file_, line_}; }
  const tinyxml2::XMLElement* xml() const { return element_; }

  [[noreturn]] void fail(std::string_view what) const;
  [[noreturn]] void fail_attribute(std::string_view attribute, std::string_view what) const;
  // Line of an attribute (the element's line if absent).
  int attribute_line(std::string_view attribute) const;

  bool has(std::string_view attribute) const;
  // Fails unless at most one of the attributes is present.
  void at_most_one_of(std::initializer_list<std::string_view> attributes) const;
  // Fails unless exactly one of the attributes is present.
  void exactly_one_of(std::initializer_list<std::string_view> attributes) const;

  std::optional<std::string> text(std::string_view attribute) const;
  std::string required_text(std::string_view attribute) const;

  std::optional<Real> real(std::string_view attribute, Range range = Range::Any) const;
  Real real_or(std::string_view attribute, Real fallback, Range range = Range::Any) const;
  Real required_real(std::string_view attribute, Range range = Range::Any) const;

  // Exactly `count` numbers (count 0: any number of them, at least one).
  std::optional<std::vector<Real>> reals(std::string_view attribute, std::size_t count,
                                         Range range = Range::Any) const;
  std::optional<Vec2> vec2(std::string_view attribute, Range range = Range::Any) const;
  std::optional<Vec3> vec3(std::string_view attribute, Range range = Range::Any) const;
  Vec3 vec3_or(std::string_view attribute, const Vec3& fallback, Range range = Range::Any) const;

  std::optional<int> integer(std::string_view attribute, int minimum) const;
  std::optional<bool> boolean(std::string_view attribute) const;

  // The child elements, in document order.
  std::vector<const tinyxml2::XMLElement*> children() const;

  // Pose attributes: pos="x y z" with at most one of quat="w x y z", euler="rx ry rz" (degrees,
  // intrinsic X then Y then Z: R = Rx Ry Rz) and axisangle="ax ay az degrees".
  static constexpr std::string_view kPoseAttributes[] = {"pos", "quat", "euler", "axisangle"};
  bool has_pose() const;
  Pose pose() const;
  // The rotation alone (identity when none of quat/euler/axisangle is given).
  Quat rotation() const;

 private:
  void check_range(std::string_view attribute, Real value, Range range) const;

  const tinyxml2::XMLElement* element_;
  std::string file_;
  std::string name_;
  int line_ = 0;
};

// An allowed-attribute list, with the pose attributes (pos, quat, euler, axisangle) added when
// `with_pose`.
std::vector<std::string_view> attribute_list(std::initializer_list<std::string_view> names,
                                             bool with_pose = false);

}  // namespace sim::io
