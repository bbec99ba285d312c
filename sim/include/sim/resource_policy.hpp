// Where a file's references may lead (issue 13, containment): a scene, URDF or MJCF file, or a
// glTF, names other files (includes, meshes, textures, glTF buffers and images, package://
// paths). Each must resolve inside the referencing file's folder tree or inside one of the
// package roots; anything else is refused with a message naming the path, unless the policy
// allows paths outside (the CLI's --allow-outside-paths). The CLI and the app add the shipped
// assets and ../shared/robots as package roots (the shipped scenes name both). Nothing is ever
// fetched from the network: a glTF URI with a scheme other than file:// or data: is refused.
// Special files (FIFOs, devices) are refused whatever the policy.
#pragma once

#include <string>
#include <vector>

namespace sim {

struct ResourcePolicy {
  bool allow_outside = false;               // accept references outside the trees (trusted input)
  std::vector<std::string> package_roots;   // folders whose trees are always allowed
};

// The process-wide policy every loader checks. Initially: contained, with the package roots of
// $COULOMB_PACKAGE_PATH (':'-separated). Process-wide: set it from the thread that loads, not
// while another thread loads.
const ResourcePolicy& resource_policy();
void set_resource_policy(ResourcePolicy policy);

// Sets a policy for its lifetime and restores the previous one (tests, one trusted load).
class ScopedResourcePolicy {
 public:
  explicit ScopedResourcePolicy(ResourcePolicy policy);
  ~ScopedResourcePolicy();
  ScopedResourcePolicy(const ScopedResourcePolicy&) = delete;
  ScopedResourcePolicy& operator=(const ScopedResourcePolicy&) = delete;

 private:
  ResourcePolicy previous_;
};

// "" when `path` (already resolved) may be read for a reference made by `referencing_file`;
// otherwise why not, naming the path. For a .gltf or .glb file, its own buffer and image URIs,
// and for an .obj file its `mtllib` material libraries, are checked the same way (relative to
// that file's folder), before any importer reads it.
std::string check_resource_path(const std::string& referencing_file, const std::string& path);

}  // namespace sim
