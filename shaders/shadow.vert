#version 450
// Depth-only pass from the light: the same placement as mesh.vert, no fragment shader.
#extension GL_GOOGLE_include_directive : require
#include "scene_layout.glsl"
#include "placement.glsl"

layout(location = 0) in vec3 in_position;  // the normal (location 1) is not bound: depth only

void main() {
  Placed v = place_vertex(in_position, vec3(0.0, 0.0, 1.0));
  gl_Position = frame.light_view_proj * vec4(v.position, 1.0);
}
