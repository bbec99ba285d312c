// Shared machinery of the URDF and MJCF importers:
// - lenient attribute reading (unknown attributes are warnings, malformed values are errors, both
//   "file:line: <element>: ..."), with attributes that may come from MJCF defaults;
// - a link/joint tree description both parsers fill, and build_robot(), which turns it into the
//   SceneSpec fragment: link poses along the tree, links merged over fixed joints, mass
//   properties (authored tensors or collision geometry), joints in body frames;
// - mesh files, cached, into collision hulls, with a box when a mesh cannot be used.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/number_text.hpp"
#include "io/generated_geometry.hpp"
#include "io/xml_element.hpp"
#include "sim/robot_import.hpp"

namespace tinyxml2 {
class XMLElement;
}

namespace sim::io {

// Collects warnings as "file:line: <element>: what", each once (an MJCF default's attribute is
// read by every element of its class but is one line of the file).
class Warnings {
 public:
  explicit Warnings(std::vector<std::string>& out) : out_(&out) {}
  void add(const std::string& file, int line, std::string_view element, std::string_view what) const {
    std::string w = format_error(file, line, element, what);
    if (std::find(out_->begin(), out_->end(), w) == out_->end()) out_->push_back(std::move(w));
  }

 private:
  std::vector<std::string>* out_;
};

// The edge of both importers: runs `parse` (which fills the ImportResult and throws ParseError for
// bad input) and returns the result, or the error: a ParseError's message as it is, any other
// exception's prefixed with the file name.
template <class Parse>
Result<ImportResult> import_text(const std::string& file_name, Parse&& parse) {
  try {
    ImportResult out;
    parse(out);
    return out;
  } catch (const ParseError& e) {
    return Error{e.what()};
  } catch (const std::exception& e) {
    return Error{file_name + ": " + e.what()};
  }
}

// Reads the file at `path` and parses its text with `parse_text` (parse_urdf, parse_mjcf);
// "path: cannot read the file" when it cannot be read.
Result<ImportResult> import_file(const std::string& path, const ImportOptions& options,
                                 Result<ImportResult> (*parse_text)(const std::string&, const std::string&,
                                                                    const ImportOptions&));

// A number for messages, names and warnings: 6 significant digits ("0.5", "1e-05").
using sim::number_text;

class AttrSet;
// An rgba attribute (URDF <color rgba>, MJCF rgba): 4 numbers; components outside [0, 1] are
// clamped with a warning. None when the attribute is absent.
std::optional<std::array<float, 4>> rgba_attribute(const AttrSet& a, const Warnings& warnings);

// One attribute value with where it was written (an MJCF default may supply it).
struct Attr {
  std::string value;
  std::string file;
  int line = 0;
  std::string element;
};

// The attributes an element is read with: its own, plus defaults merged underneath (MJCF).
class AttrSet {
 public:
  AttrSet() = default;
  AttrSet(const tinyxml2::XMLElement* element, const std::string& file);

  const std::string& element() const { return element_; }
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  SourceLocation location() const { return SourceLocation{file_, line_}; }

  // Warns about each attribute not in `known` (one warning each, at its own line).
  void warn_unknown(std::initializer_list<std::string_view> known, const Warnings& warnings) const;
  // Adds the attributes of `defaults` this set does not have.
  void merge_defaults(const AttrSet& defaults);
  void set(const std::string& name, Attr value) { attrs_[name] = std::move(value); }
  void erase(const std::string& name) { attrs_.erase(name); }
  const std::map<std::string, Attr, std::less<>>& all() const { return attrs_; }

  [[noreturn]] void fail(std::string_view what) const;
  [[noreturn]] void fail_attribute(std::string_view name, std::string_view what) const;
  void warn(const Warnings& warnings, std::string_view what) const { warnings.add(file_, line_, element_, what); }
  void warn_attribute(const Warnings& warnings, std::string_view name, std::string_view what) const;

  const Attr* get(std::string_view name) const;
  bool has(std::string_view name) const { return get(name) != nullptr; }
  std::optional<std::string> text(std::string_view name) const;
  std::string required_text(std::string_view name) const;
  // Numbers: malformed, non-finite or out of `range` is an error naming the attribute.
  std::optional<Real> real(std::string_view name, Range range = Range::Any) const;
  Real real_or(std::string_view name, Real fallback, Range range = Range::Any) const;
  Real required_real(std::string_view name, Range range = Range::Any) const;
  // Between min_count and max_count numbers.
  std::optional<std::vector<Real>> reals(std::string_view name, std::size_t min_count, std::size_t max_count,
                                         Range range = Range::Any) const;
  std::optional<Vec3> vec3(std::string_view name, Range range = Range::Any) const;
  std::optional<bool> boolean(std::string_view name) const;

 private:
  std::string element_;
  std::string file_;
  int line_ = 0;
  std::map<std::string, Attr, std::less<>> attrs_;
};

// ---- the link/joint tree both importers fill ------------------------------------------------

struct InertialDesc {
  Real mass = 0;
  Pose frame;                         // centre of mass and tensor axes in the link frame
  Mat3 inertia = Mat3::Zero();        // about the centre of mass, in `frame`'s axes [kg m^2]
  SourceLocation source;
};

struct LinkDesc {
  std::string name;
  bool world = false;                 // stands for the world (URDF link "world", MJCF worldbody)
  std::optional<InertialDesc> inertial;  // none: from the collision shapes at their density
  std::vector<ShapeSpec> shapes;      // collision, in the link frame
  std::vector<RobotVisual> visuals;   // `local` in the link frame; link/body filled in by build
  std::vector<RobotSite> sites;       // `local` in the link frame
  SourceLocation source;
};

struct JointDesc {
  RobotJoint info;                    // name, kind, limits, dynamics, mimic, source
  bool edge = true;                   // false: recorded only (an extra MJCF joint of a body)
  bool implicit = false;              // a tree edge without a joint element (MJCF weld)
  int parent = -1, child = -1;        // link indices
  Pose origin;                        // child link frame in the parent link frame at q = 0
  Pose frame_in_child;                // joint frame in the child link frame
  Vec3 axis = Vec3::UnitZ();          // joint frame (unit)
  DriveMode drive = DriveMode::None;
  Real stiffness = 0, damping = 0, max_force = -1;
  Real armature = 0;                  // MJCF armature (JointSpec::armature; hinge and ball joints) [kg m²]
  bool target_limited = false;        // the drive input's control range (JointSpec::target_limited)
  Real target_lower = 0, target_upper = 0;
};

struct RobotDesc {
  std::string name;
  std::vector<LinkDesc> links;
  std::vector<JointDesc> joints;
  std::vector<MaterialSpec> materials;
  int root = -1;                      // root link (-1: the parentless link with most descendants)
  bool warn_mass_from_geometry = true;  // URDF: a link without <inertial> is worth a warning
};

// Mass, centre of mass and inertia (about the centre, link axes) of shapes at their densities;
// none when they have no volume.
std::optional<InertialDesc> shapes_inertial(const std::vector<ShapeSpec>& shapes);

// Fills out.scene (materials, bodies, world shapes, joints), out.links, out.joints, out.visuals,
// out.sites and out.root_body. Throws ParseError for a link with two parents or a cycle.
void build_robot(const RobotDesc& desc, const ImportOptions& options, const Warnings& warnings, ImportResult& out);

// ---- meshes ---------------------------------------------------------------------------------

// Reads each (file, scale) once.
class MeshCache {
 public:
  // nullptr and `error` set when the file cannot be read.
  const TriangleMesh* get(const std::string& path, const Vec3& scale, std::string& error);

 private:
  struct Entry {
    std::optional<TriangleMesh> mesh;
    std::string error;
  };
  std::map<std::pair<std::string, std::array<Real, 3>>, Entry> entries_;
};

// Collision shapes for a mesh (convex hull or decomposition) in `local`; false (shapes untouched)
// with `error` set when the mesh cannot be used.
bool mesh_shapes(const TriangleMesh& mesh, const Pose& local, const ShapeSpec& prototype,
                 const ImportOptions& options, const std::string& where, std::vector<ShapeSpec>& shapes,
                 std::string& error);

// The box standing in for an unusable mesh: sized from the inertial (the uniform box with its
// principal moments, placed at its centre of mass) or a 5 cm cube at `local`.
ShapeSpec fallback_box(const std::optional<InertialDesc>& inertial, const Pose& local, const ShapeSpec& prototype);

}  // namespace sim::io
