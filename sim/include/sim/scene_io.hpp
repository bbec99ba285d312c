// Scene files (XML, see docs/scene-format.md) <-> SceneSpec.
#pragma once

#include <string>

#include "sim/atomic_file.hpp"
#include "sim/result.hpp"
#include "sim/spec.hpp"

namespace sim {

// Parses a scene file. Errors read "path:line: <element>: message".
Result<SceneSpec> load_scene_file(const std::string& path);
// Parses scene XML held in memory; `file_name` is used in messages and to resolve relative paths.
Result<SceneSpec> parse_scene_xml(const std::string& xml_text, const std::string& file_name);

// What a description file holds, by its root element: a scene (<scene>), a URDF robot (<robot>)
// or an MJCF model (<mujoco>). Errors name the file (unreadable, malformed XML, another root).
enum class DescriptionKind { Scene, Urdf, Mjcf };
Result<DescriptionKind> description_kind(const std::string& path);

// How a robot description is opened as a scene.
struct DescriptionOptions {
  bool urdf_free_base = false;  // URDF: the root link is a free body (a mobile or floating robot)
};

// A new, unsaved scene around a robot description (what opening a URDF or MJCF file gives): a
// ground plane and the robot through a <robot file> element with an absolute path, a URDF's base
// fixed (unless options.urdf_free_base), an MJCF model's bodies as its file says (free joints
// free, bodies without joints welded to the world), and lifted so its lowest collision geometry rests 1 mm above the ground (an MJCF model with a
// floor of its own keeps it and its placement), URDF joints position-driven (kp 5000, kd 100, the
// URDF's effort limits) to hold their initial pose. Everything else is the <robot> element's
// default: self collision on (link pairs overlapping at rest filtered), joints whose limits
// exclude 0 starting at the nearest limit. MJCF keeps its own actuators, timestep and gravity.
// Named after the robot; `source_file` is empty.
Result<SceneSpec> robot_scene(const std::string& robot_path, DescriptionKind kind,
                              const DescriptionOptions& options = {});
// A scene file through load_scene_file, a URDF or MJCF file through robot_scene.
Result<SceneSpec> load_description(const std::string& path, const DescriptionOptions& options = {});

// SceneSpec -> scene XML that parse_scene_xml reads back to the same values (names, numbers to
// the last bit, document order), source locations aside. Everything is written explicitly:
// <include>, <rope> and <cloth> come out expanded (particles, distances by index), cylinders as
// <cylinder> when their vertices are exactly the generated ones, other meshes as inline
// <convex vertices>, joint frames as <parent_frame>/<child_frame>. Unnamed bodies and joints get
// the parser's default names. A <robot> (SceneSpec::robots) is written back as the element at
// its place, with the edits of its bodies and joints since the import as <body>/<joint>
// overrides; its `file` is written as stored (save_scene_file re-relativises it).
std::string write_scene_xml(const SceneSpec& spec);
// Saves through sim::write_file_atomically (sim/atomic_file.hpp): the XML is checked to
// read back (and refused when the format cannot hold part of the spec, e.g. triangle meshes, or
// an edit of an imported robot body's shapes that its <robot> element cannot express), with
// relative <robot file> paths rewritten to reach the same files from the new location, then written to a temporary file beside the
// target, flushed to disk (fsync) and renamed over it; on any failure the temporary file is
// removed and an existing file at `path` is left as it was. A symbolic link is written through to
// its target; a read-only file is refused unless `options.replace_read_only` (the app asks first:
// gui/save_decision.hpp). Errors read "path: message".
Result<bool> save_scene_file(const SceneSpec& spec, const std::string& path, const AtomicWriteOptions& options = {});

}  // namespace sim
