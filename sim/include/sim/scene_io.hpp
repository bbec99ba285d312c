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

}  // namespace sim
