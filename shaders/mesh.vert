#version 450
// Shapes and particles: instanced meshes placed by the pose buffer the simulation writes.
#extension GL_GOOGLE_include_directive : require
#include "scene_layout.glsl"
#include "placement.glsl"

layout(location = 0) in vec3 in_position;   // mesh frame [m]
layout(location = 1) in vec3 in_normal;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec3 out_color;
layout(location = 3) out vec3 out_local;     // mesh-frame position, for the ground grid
layout(location = 4) flat out ivec2 out_ids; // body, flags

void main() {
  Placed v = place_vertex(in_position, in_normal);
  out_world = v.position;
  out_normal = v.normal;
  out_color = v.color;
  out_local = in_position;
  out_ids = ivec2(v.body, v.flags);
  gl_Position = frame.view_proj * vec4(v.position, 1.0);
}
