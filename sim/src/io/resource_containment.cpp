// Containment of the files a file references (sim/resource_policy.hpp). Paths are compared after
// std::filesystem::weakly_canonical, so ".." and symbolic links inside the tree that lead out of
// it are caught; a glTF's "uri" strings are read from its JSON (the .glb's JSON chunk is text in
// the binary) and an OBJ's `mtllib` names from its text before Assimp sees the file, since
// Assimp follows them wherever they point.
#include "sim/resource_policy.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "io/xml_element.hpp"

namespace sim {

namespace fs = std::filesystem;

namespace {

ResourcePolicy initial_policy() {
  ResourcePolicy p;
  if (const char* env = std::getenv("COULOMB_PACKAGE_PATH")) {
    const std::string list = env;
    for (std::size_t start = 0; start <= list.size();) {
      const std::size_t end = std::min(list.find(':', start), list.size());
      if (end > start) p.package_roots.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  return p;
}

ResourcePolicy& policy_storage() {
  static ResourcePolicy policy = initial_policy();
  return policy;
}

fs::path canonical_of(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p, ec).lexically_normal() : c;
}

bool inside(const fs::path& root, const fs::path& file) {
  if (root.empty()) return false;
  auto r = root.begin(), f = file.begin();
  for (; r != root.end(); ++r, ++f) {
    if (r->empty()) continue;  // a trailing separator
    if (f == file.end() || *r != *f) return false;
  }
  return true;
}

// %XX escapes of a URI decoded.
std::string percent_decoded(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// The string values of every "uri" key in a glTF's JSON text (escapes \" and \\ and \/ undone).
std::vector<std::string> gltf_uris(const std::string& text) {
  std::vector<std::string> out;
  const std::string key = "\"uri\"";
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + key.size())) {
    std::size_t i = at + key.size();
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] != ':') continue;
    ++i;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] != '"') continue;
    std::string value;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) ++i;
      value.push_back(text[i]);
    }
    out.push_back(std::move(value));
  }
  return out;
}

// The names of an OBJ's `mtllib` lines: the rest of the line as one name (as Assimp's OBJ reader
// takes it) and each whitespace-separated word (as other readers take a list of names).
std::vector<std::string> obj_material_libraries(const std::string& text) {
  std::vector<std::string> out;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::size_t i = start;
    while (i < end && blank(text[i])) ++i;
    if (text.compare(i, 6, "mtllib") == 0 && i + 6 < end && blank(text[i + 6])) {
      std::size_t a = i + 6, b = end;
      while (a < b && blank(text[a])) ++a;
      while (b > a && blank(text[b - 1])) --b;
      if (a < b) out.push_back(text.substr(a, b - a));
      for (std::size_t w = a; w < b;) {
        std::size_t e = w;
        while (e < b && !blank(text[e])) ++e;
        if (e > w && (w > a || e < b)) out.push_back(text.substr(w, e - w));
        for (w = e; w < b && blank(text[w]);) ++w;
      }
    }
    start = end + 1;
  }
  return out;
}

std::string lower_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool is_gltf(const fs::path& p) {
  const std::string ext = lower_extension(p);
  return ext == ".gltf" || ext == ".glb";
}

std::string check_contained(const std::string& referencing_file, const fs::path& path) {
  const ResourcePolicy& policy = resource_policy();
  if (policy.allow_outside) return {};
  const fs::path target = canonical_of(path);
  const fs::path base = fs::path(referencing_file).parent_path();
  if (inside(canonical_of(base.empty() ? fs::path(".") : base), target)) return {};
  for (const std::string& root : policy.package_roots)
    if (inside(canonical_of(root), target)) return {};
  return io::in_quotes(path.generic_string()) + " is outside " +
         io::in_quotes(canonical_of(base.empty() ? fs::path(".") : base).generic_string()) +
         " (the referencing file's folder) and the package roots; refused (--allow-outside-paths or a package root "
         "allows it)";
}

}  // namespace

const ResourcePolicy& resource_policy() { return policy_storage(); }

void set_resource_policy(ResourcePolicy policy) { policy_storage() = std::move(policy); }

ScopedResourcePolicy::ScopedResourcePolicy(ResourcePolicy policy) : previous_(resource_policy()) {
  set_resource_policy(std::move(policy));
}

ScopedResourcePolicy::~ScopedResourcePolicy() { set_resource_policy(std::move(previous_)); }

std::string check_resource_path(const std::string& referencing_file, const std::string& path) {
  // Whatever reads it next (XML, OBJ, Assimp, PNG), a FIFO would block in open() and a device
  // never ends: only regular files (a missing one is left to the reader to report).
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!ec && fs::exists(status) && !fs::is_regular_file(status))
    return "cannot read " + io::in_quotes(path) + " (not a regular file)";
  if (std::string e = check_contained(referencing_file, path); !e.empty()) return e;
  const bool obj = lower_extension(path) == ".obj";
  if (!is_gltf(path) && !obj) return {};
  std::string why;
  const auto text = io::read_text_file(path, io::kMaxTextFileBytes, why);
  if (!text) return {};  // the importer reports a missing or unreadable file
  if (obj) {
    // An OBJ's material libraries, relative to the OBJ's folder; an absolute name is taken as it
    // stands (the stricter reading: a reader may open it there).
    for (const std::string& name : obj_material_libraries(*text)) {
      fs::path p(name);
      if (p.is_relative()) p = fs::path(path).parent_path() / p;
      if (std::string e = check_contained(path, p.lexically_normal().string()); !e.empty()) return path + ": mtllib " + e;
    }
    return {};
  }
  // The glTF's own references (buffers, images), relative to its folder. Checked whatever the
  // policy: a scheme other than data: or file: would reach the network.
  for (const std::string& raw : gltf_uris(*text)) {
    if (raw.rfind("data:", 0) == 0) continue;  // embedded
    std::string uri = percent_decoded(raw);
    if (uri.rfind("file://", 0) == 0) uri = uri.substr(7);
    else if (const auto colon = uri.find(':'); colon != std::string::npos && uri.find('/') > colon)
      return path + ": uri " + io::in_quotes(raw) + " is not a file (nothing is fetched on load); refused";
    fs::path p(uri);
    if (p.is_relative()) p = fs::path(path).parent_path() / p;
    if (std::string e = check_contained(path, p.lexically_normal().string()); !e.empty())
      return path + ": buffer or image uri " + e;
  }
  return {};
}

}  // namespace sim
