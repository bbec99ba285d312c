#version 450
// Debug overlay lines; see line.vert.
#extension GL_GOOGLE_include_directive : require
#include "scene_layout.glsl"

layout(location = 0) in vec4 in_color;
layout(location = 0) out vec4 out_color;

void main() {
  // mode 2: the part of a line behind a surface, blended in faintly so overlays inside or
  // behind bodies (forces at buried contact points, com frames) stay readable.
  vec3 color = frame.info.y != 0 ? to_srgb(in_color.rgb) : in_color.rgb;
  // The vertex alpha (1 for the depth-tested overlays) blends the on-top SDF overlays.
  out_color = vec4(color, in_color.a * (draw.mode == 2 ? 0.3 : 1.0));
}
