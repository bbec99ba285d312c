// Triangle meshes of the simulation's shapes, in each shape's own frame, for drawing: boxes,
// spheres, capsules, convex hulls (flat-shaded faces), a finite ground quad for planes, and a
// small sphere for particles.
#pragma once

#include <vector>

#include "sim/model.hpp"

namespace render {

struct Vertex {
  float position[3];
  float normal[3];
};

// Appends the triangles (3 vertices each) of shape `s` in its shape frame.
void tessellate_shape(const sim::Model& model, int s, std::vector<Vertex>& out);
// A unit-radius sphere (scale it by the particle radius).
void tessellate_sphere(float radius, std::vector<Vertex>& out, int rings = 10, int segments = 16);

}  // namespace render
