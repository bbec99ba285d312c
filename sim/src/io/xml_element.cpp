#include "io/xml_element.hpp"

#include <tinyxml2.h>

#include "sim/escape.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace sim::io {

namespace {

constexpr double kPi = 3.14159265358979323846;

bool is_separator(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','; }

}  // namespace

std::string in_quotes(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('\'');
  out.append(escape_control_characters(s));
  out.push_back('\'');
  return out;
}

namespace {

const char* range_text(Range range) {
  switch (range) {
    case Range::Positive: return "> 0";
    case Range::NonNegative: return ">= 0";
    case Range::Any: break;
  }
  return "";
}

std::string join(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace

std::string format_error(const std::string& file, int line, std::string_view element,
                         std::string_view what) {
  // Built by appending (GCC 12 warns spuriously, -Wrestrict, on chained operator+ here). The
  // file name, the element and the text may all come from a file: control characters escaped
  // (sim/escape.hpp; `what` keeps its line breaks, the others are one line).
  std::string out;
  out.append(file.empty() ? std::string("<scene>") : escape_control_characters(file));
  if (line > 0) {
    out.push_back(':');
    out.append(std::to_string(line));
  }
  out.append(": ");
  if (!element.empty()) {
    out.push_back('<');
    out.append(escape_control_characters(element));
    out.append(">: ");
  }
  out.append(escape_control_characters(what, true));
  return out;
}

void fail_at(const std::string& file, int line, std::string_view element, std::string_view what) {
  throw ParseError(format_error(file, line, element, what));
}

std::vector<std::string_view> split_tokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_separator(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !is_separator(text[j])) ++j;
    if (j > i) tokens.push_back(text.substr(i, j - i));
    i = j;
  }
  return tokens;
}

bool parse_real(std::string_view text, double& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return false;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) return false;
  out = v;
  return true;
}

bool parse_int(std::string_view text, long long& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return false;
  long long v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return false;
  out = v;
  return true;
}

void throw_xml_syntax_error(const tinyxml2::XMLDocument& doc, const std::string& file) {
  // ErrorStr() reads "Error=NAME ErrorID=N (0xN) Line number=L: detail"; the detail often names
  // the element ("XMLElement name=body").
  std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
  const auto colon = detail.find(": ");
  detail = colon == std::string::npos ? std::string() : detail.substr(colon + 2);
  std::string element;
  if (detail.rfind("XMLElement name=", 0) == 0) {
    element = detail.substr(16);
    detail.clear();
  }
  std::string what;
  switch (doc.ErrorID()) {
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT: what = "not closed, or closed by a different end tag"; break;
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE: what = "malformed attribute (values must be quoted)"; break;
    case tinyxml2::XML_ERROR_PARSING_ELEMENT: what = "malformed element"; break;
    case tinyxml2::XML_ERROR_PARSING_TEXT: what = "malformed text"; break;
    case tinyxml2::XML_ERROR_PARSING_COMMENT: what = "malformed comment"; break;
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: what = "the document is empty"; break;
    case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED: what = "elements nested too deeply"; break;
    default: what = "malformed XML"; break;
  }
  what = "XML syntax error: " + what + " (" + doc.ErrorName() + ")";
  if (!detail.empty()) what += ": " + detail;
  fail_at(file, doc.ErrorLineNum(), element, what);
}

std::optional<std::string> read_text_file(const std::string& path, std::uintmax_t max_bytes, std::string& why) {
  // Checked before opening: open() itself blocks on a FIFO, and a device has no end.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    why = errno == ENOENT ? "no such file" : std::strerror(errno);
    return std::nullopt;
  }
  const auto too_large = [&] { why = "larger than " + std::to_string(max_bytes >> 20) + " MiB"; };
  if (!S_ISREG(info.st_mode)) {
    why = "not a regular file";
    return std::nullopt;
  }
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
    too_large();
    return std::nullopt;
  }
  // O_NONBLOCK: should the path have become a FIFO since stat(), open() returns at once; the
  // descriptor is checked again below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    why = "cannot be opened (" + std::string(std::strerror(errno)) + ")";
    return std::nullopt;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    why = "not a regular file";
    return std::nullopt;
  }
  // Read at most max_bytes + 1 (the file may have grown since it was measured).
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      why = "read error (" + std::string(std::strerror(errno)) + ")";
      return std::nullopt;
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {
      too_large();
      return std::nullopt;
    }
  }
  return text;
}

std::optional<std::string> read_text_file(const std::string& path) {
  std::string why;
  return read_text_file(path, kMaxTextFileBytes, why);
}

const tinyxml2::XMLElement* parse_root(tinyxml2::XMLDocument& doc, const std::string& text, const std::string& file,
                                       std::string_view root_name) {
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) throw_xml_syntax_error(doc, file);
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (!root) fail_at(file, 0, "", "the document has no root element");
  if (std::string_view(root->Name()) != root_name)
    fail_at(file, root->GetLineNum(), root->Name(), "the root element must be <" + std::string(root_name) + ">");
  return root;
}

std::vector<const tinyxml2::XMLElement*> child_elements(const tinyxml2::XMLElement* element) {
  std::vector<const tinyxml2::XMLElement*> out;
  for (const tinyxml2::XMLElement* c = element->FirstChildElement(); c; c = c->NextSiblingElement())
    out.push_back(c);
  return out;
}

std::vector<std::string_view> attribute_list(std::initializer_list<std::string_view> names,
                                             bool with_pose) {
  std::vector<std::string_view> out(names);
  if (with_pose) out.insert(out.end(), std::begin(XmlElement::kPoseAttributes), std::end(XmlElement::kPoseAttributes));
  return out;
}

XmlElement::XmlElement(const tinyxml2::XMLElement* element, const std::string& file,
                       std::vector<std::string_view> allowed)
    : element_(element), file_(file), name_(element->Name()), line_(element->GetLineNum()) {
  for (const tinyxml2::XMLAttribute* a = element->FirstAttribute(); a; a = a->Next()) {
    if (std::find(allowed.begin(), allowed.end(), std::string_view(a->Name())) == allowed.end()) {
      const std::string known = allowed.empty() ? std::string("none") : join(allowed);
      fail_at(file_, a->GetLineNum(), name_,
              "unknown attribute " + in_quotes(a->Name()) + " (allowed: " + known + ")");
    }
  }
  for (const tinyxml2::XMLNode* n = element->FirstChild(); n; n = n->NextSibling()) {
    if (const tinyxml2::XMLText* t = n->ToText()) {
      const std::string_view s = t->Value() ? t->Value() : "";
      if (s.find_first_not_of(" \t\r\n") != std::string_view::npos)
        fail_at(file_, n->GetLineNum(), name_, "unexpected text " + in_quotes(s.substr(0, 40)));
    }
  }
}

void XmlElement::fail(std::string_view what) const { fail_at(file_, line_, name_, what); }

void XmlElement::fail_attribute(std::string_view attribute, std::string_view what) const {
  fail_at(file_, attribute_line(attribute), name_, "attribute " + in_quotes(attribute) + ": " + std::string(what));
}

int XmlElement::attribute_line(std::string_view attribute) const {
  const std::string key(attribute);
  if (const tinyxml2::XMLAttribute* a = element_->FindAttribute(key.c_str())) return a->GetLineNum();
  return line_;
}

bool XmlElement::has(std::string_view attribute) const {
  const std::string key(attribute);
  return element_->FindAttribute(key.c_str()) != nullptr;
}

void XmlElement::at_most_one_of(std::initializer_list<std::string_view> attributes) const {
  std::vector<std::string_view> present;
  for (std::string_view a : attributes)
    if (has(a)) present.push_back(a);
  if (present.size() > 1)
    fail_attribute(present[1], "cannot be combined with " + in_quotes(present[0]));
}

void XmlElement::exactly_one_of(std::initializer_list<std::string_view> attributes) const {
  at_most_one_of(attributes);
  for (std::string_view a : attributes)
    if (has(a)) return;
  std::string names;
  for (std::string_view a : attributes) names += (names.empty() ? "" : " or ") + in_quotes(a);
  fail("missing required attribute " + names);
}

std::optional<std::string> XmlElement::text(std::string_view attribute) const {
  const std::string key(attribute);
  if (const char* v = element_->Attribute(key.c_str())) return std::string(v);
  return std::nullopt;
}

std::string XmlElement::required_text(std::string_view attribute) const {
  auto v = text(attribute);
  if (!v) fail("missing required attribute " + in_quotes(attribute));
  return *v;
}

void XmlElement::check_range(std::string_view attribute, Real value, Range range) const {
  const bool ok = range == Range::Any || (range == Range::Positive && value > 0) ||
                  (range == Range::NonNegative && value >= 0);
  if (!ok) {
    std::string shown = *text(attribute);
    fail_attribute(attribute, "must be " + std::string(range_text(range)) + " (got " + in_quotes(shown) + ")");
  }
}

std::optional<Real> XmlElement::real(std::string_view attribute, Range range) const {
  auto v = reals(attribute, 1, range);
  if (!v) return std::nullopt;
  return (*v)[0];
}

Real XmlElement::real_or(std::string_view attribute, Real fallback, Range range) const {
  auto v = real(attribute, range);
  return v ? *v : fallback;
}

Real XmlElement::required_real(std::string_view attribute, Range range) const {
  if (!has(attribute)) fail("missing required attribute " + in_quotes(attribute));
  return *real(attribute, range);
}

std::optional<std::vector<Real>> XmlElement::reals(std::string_view attribute, std::size_t count,
                                                   Range range) const {
  auto s = text(attribute);
  if (!s) return std::nullopt;
  const auto tokens = split_tokens(*s);
  if (count == 0 && tokens.empty()) fail_attribute(attribute, "expected numbers, got nothing");
  if (count > 0 && tokens.size() != count) {
    fail_attribute(attribute, "expected " + std::to_string(count) + (count == 1 ? " number" : " numbers") +
                                  ", got " + std::to_string(tokens.size()) + " in " + in_quotes(*s));
  }
  std::vector<Real> out;
  out.reserve(tokens.size());
  for (std::string_view t : tokens) {
    double v = 0;
    if (!parse_real(t, v)) fail_attribute(attribute, "malformed number " + in_quotes(t));
    out.push_back(static_cast<Real>(v));
  }
  for (Real v : out) check_range(attribute, v, range);
  return out;
}

std::optional<Vec2> XmlElement::vec2(std::string_view attribute, Range range) const {
  auto v = reals(attribute, 2, range);
  if (!v) return std::nullopt;
  return Vec2((*v)[0], (*v)[1]);
}

std::optional<Vec3> XmlElement::vec3(std::string_view attribute, Range range) const {
  auto v = reals(attribute, 3, range);
  if (!v) return std::nullopt;
  return Vec3((*v)[0], (*v)[1], (*v)[2]);
}

Vec3 XmlElement::vec3_or(std::string_view attribute, const Vec3& fallback, Range range) const {
  auto v = vec3(attribute, range);
  return v ? *v : fallback;
}

std::optional<int> XmlElement::integer(std::string_view attribute, int minimum) const {
  auto s = text(attribute);
  if (!s) return std::nullopt;
  const auto tokens = split_tokens(*s);
  long long v = 0;
  if (tokens.size() != 1 || !parse_int(tokens[0], v))
    fail_attribute(attribute, "expected an integer, got " + in_quotes(*s));
  if (v < minimum || v > std::numeric_limits<int>::max())
    fail_attribute(attribute, "must be an integer >= " + std::to_string(minimum) + " (got " + in_quotes(*s) + ")");
  return static_cast<int>(v);
}

std::optional<bool> XmlElement::boolean(std::string_view attribute) const {
  auto s = text(attribute);
  if (!s) return std::nullopt;
  const auto tokens = split_tokens(*s);
  const std::string_view t = tokens.size() == 1 ? tokens[0] : std::string_view();
  if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  fail_attribute(attribute, "expected true or false, got " + in_quotes(*s));
}

std::vector<const tinyxml2::XMLElement*> XmlElement::children() const { return child_elements(element_); }

bool XmlElement::has_pose() const {
  for (std::string_view a : kPoseAttributes)
    if (has(a)) return true;
  return false;
}

Quat XmlElement::rotation() const {
  at_most_one_of({"quat", "euler", "axisangle"});
  if (auto q = reals("quat", 4)) {
    Quat r((*q)[0], (*q)[1], (*q)[2], (*q)[3]);
    const Real n = r.norm();
    if (!(n > Real(1e-9))) fail_attribute("quat", "must not be zero");
    r.coeffs() /= n;
    return r;
  }
  if (auto e = vec3("euler")) {
    const Real k = Real(kPi / 180.0);
    Quat r = Quat(Eigen::AngleAxis<Real>((*e)[0] * k, Vec3::UnitX())) *
             Quat(Eigen::AngleAxis<Real>((*e)[1] * k, Vec3::UnitY())) *
             Quat(Eigen::AngleAxis<Real>((*e)[2] * k, Vec3::UnitZ()));
    r.normalize();
    return r;
  }
  if (auto a = reals("axisangle", 4)) {
    Vec3 axis((*a)[0], (*a)[1], (*a)[2]);
    const Real n = axis.norm();
    if (!(n > Real(1e-9))) fail_attribute("axisangle", "the axis must not be zero");
    Quat r(Eigen::AngleAxis<Real>((*a)[3] * Real(kPi / 180.0), axis / n));
    r.normalize();
    return r;
  }
  return Quat::Identity();
}

Pose XmlElement::pose() const {
  Pose p;
  p.pos = vec3_or("pos", Vec3::Zero());
  p.rot = rotation();
  return p;
}

}  // namespace sim::io
