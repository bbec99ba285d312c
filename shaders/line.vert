#version 450
// Debug overlay lines (contacts, forces, frames, bounds): world-space vertices with a colour.
#extension GL_GOOGLE_include_directive : require
#include "scene_layout.glsl"

layout(location = 0) in vec3 in_position;  // world [m]
layout(location = 1) in vec4 in_color;     // linear RGBA (unorm8 x 4)

layout(location = 0) out vec4 out_color;

void main() {
  out_color = in_color;
  gl_Position = frame.view_proj * vec4(in_position, 1.0);
}
