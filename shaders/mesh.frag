#version 450
// One directional light with a PCF-filtered shadow map, a sky/ground ambient term, a ground grid
// for planes and a highlight for the selected body.
#extension GL_GOOGLE_include_directive : require
#include "scene_layout.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec3 in_color;
layout(location = 3) in vec3 in_local;
layout(location = 4) flat in ivec2 in_ids;

layout(location = 0) out vec4 out_color;

// Fraction of the light reaching p (1: lit), 3x3 PCF with hardware depth comparison.
float shadow_factor(vec3 p, vec3 n) {
  if (frame.info.z == 0) return 1.0;
  vec3 to_light = -frame.light_dir.xyz;
  // Push the lookup off the surface along the normal, more at grazing angles (acne).
  float texel = 1.0 / float(frame.info.z);
  vec4 clip = frame.light_view_proj * vec4(p + n * (0.002 + 0.01 * (1.0 - abs(dot(n, to_light)))), 1.0);
  vec3 s = clip.xyz / clip.w;
  vec2 uv = s.xy * 0.5 + 0.5;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0))) || s.z >= 1.0) return 1.0;
  float sum = 0.0;
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x) sum += texture(shadow_map, vec3(uv + vec2(x, y) * texel, s.z - 0.0005));
  return sum / 9.0;
}

// Anti-aliased grid lines: 0 on a cell, 1 on a line of `width` cells.
float grid_lines(vec2 p, float cell, float width) {
  vec2 q = p / cell;
  vec2 w = fwidth(q);
  vec2 d = abs(fract(q - 0.5) - 0.5);
  vec2 line = 1.0 - smoothstep(vec2(width) * 0.5, vec2(width) * 0.5 + w, d);
  // Cells only a few pixels wide turn into moire: fade their lines out before that.
  float fade = 1.0 - smoothstep(0.1, 0.25, max(w.x, w.y));
  return max(line.x, line.y) * fade;
}

void main() {
  vec3 n = normalize(in_normal);
  vec3 v = normalize(frame.eye.xyz - in_world);
  if (dot(n, v) < 0.0) n = -n;  // open or thin geometry seen from behind
  vec3 base = in_color;
  bool ground = (in_ids.y & kFlagGrid) != 0;
  if (ground) {
    float minor = grid_lines(in_local.xy, frame.grid.x, 0.03);
    float major = grid_lines(in_local.xy, frame.grid.y, 0.008);
    base = mix(base, base * 0.78, minor);
    base = mix(base, base * 0.45, major);
  }
  vec3 l = -frame.light_dir.xyz;
  float ambient = frame.light_dir.w;
  float diffuse = max(dot(n, l), 0.0) * shadow_factor(in_world, n);
  vec3 h = normalize(l + v);
  float specular = ground ? 0.0 : pow(max(dot(n, h), 0.0), 48.0) * 0.25 * step(0.0, diffuse - 1e-4);
  // Hemisphere ambient: brighter from the sky (+z) than from the ground.
  float sky = 0.5 + 0.5 * n.z;
  vec3 color = base * (ambient * mix(0.55, 1.0, sky) + diffuse * (1.0 - ambient)) + vec3(specular);
  if (in_ids.x == frame.info.x && in_ids.x >= 0) {
    float rim = pow(1.0 - max(dot(n, v), 0.0), 2.0);
    color = mix(color, vec3(1.0, 0.55, 0.1), 0.35) + vec3(1.0, 0.6, 0.2) * rim * 0.8;
  }
  if (ground) {
    // The ground is a finite quad: fade it into the background before its edge shows.
    float d = length(in_local.xy);
    color = mix(color, frame.background.rgb, smoothstep(frame.grid.z, frame.grid.w, d));
  }
  out_color = vec4(frame.info.y != 0 ? to_srgb(color) : color, 1.0);
}
