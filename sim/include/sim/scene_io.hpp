// Scene files (XML, see docs/scene-format.md) <-> SceneSpec.
#pragma once

#include <string>

#include "sim/result.hpp"
#include "sim/spec.hpp"

namespace sim {

// Parses a scene file. Errors read "path:line: <element>: message".
Result<SceneSpec> load_scene_file(const std::string& path);
// Parses scene XML held in memory; `file_name` is used in messages and to resolve relative paths.
Result<SceneSpec> parse_scene_xml(const std::string& xml_text, const std::string& file_name);

// SceneSpec -> scene XML that parse_scene_xml reads back to the same values (names, numbers to
// the last bit, document order), source locations aside. Everything is written explicitly:
// <include>, <rope> and <cloth> come out expanded (particles, distances by index), cylinders as
// <cylinder> when their vertices are exactly the generated ones, other meshes as inline
// <convex vertices>, joint frames as <parent_frame>/<child_frame>. Unnamed bodies and joints get
// the parser's default names. A <robot> (SceneSpec::robots) is written back as the element at
// its place, with the edits of its bodies and joints since the import as <body>/<joint>
// overrides; its `file` is written as stored (save_scene_file re-relativises it).
std::string write_scene_xml(const SceneSpec& spec);
// Saves atomically: the XML goes to a temporary file in the target's directory, is checked to
// read back (and refused when the format cannot hold part of the spec, e.g. triangle meshes, or
// an edit of an imported robot body's shapes that its <robot> element cannot express), with
// relative <robot file> paths rewritten to reach the same files from the new location, flushed to disk (fsync) and renamed over `path`; on any failure the temporary
// file is removed and an existing file at `path` is left as it was. Errors read "path: message".
Result<bool> save_scene_file(const SceneSpec& spec, const std::string& path);

}  // namespace sim
