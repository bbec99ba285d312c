// `coulomb render <scene> --frames N --out dir/`: steps the scene headless and writes PNG frames
// with the renderer the viewport uses (offscreen, on whatever Vulkan device exists: Mesa's
// lavapipe without a GPU), for figures, videos and checking a scene by eye.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "render/offscreen.hpp"
#include "sim/step.hpp"

namespace coulomb {

namespace {

sim::Result<render::Overlays> parse_overlays(const std::string& list) {
  render::Overlays o;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, end - start);
    const bool all = item == "all";
    if (all || item == "contacts") o.contact_points = true;
    if (all || item == "normals") o.contact_normals = true;
    if (all || item == "forces") o.normal_forces = o.friction_forces = true;
    if (item == "cones") o.friction_cones = true;  // friction ellipses; not in "all" (existing renders keep their lines)
    if (all || item == "joints") o.joint_frames = true;
    if (all || item == "frames") o.body_frames = true;
    if (all || item == "bounds") o.bounding_boxes = true;
    if (item == "sdf_slice") o.sdf_slice = true;      // not in "all": they draw over the scene
    if (item == "sdf_samples") o.sdf_samples = true;
    if (!all && !item.empty() && item != "contacts" && item != "normals" && item != "forces" && item != "cones" && item != "joints" &&
        item != "frames" && item != "bounds" && item != "sdf_slice" && item != "sdf_samples")
      return sim::Error{"unknown overlay '" + item +
                        "' (contacts, normals, forces, cones, joints, frames, bounds, all, sdf_slice, sdf_samples)"};
    start = end + 1;
  }
  return o;
}

constexpr double kDegree = 3.14159265358979323846 / 180.0;

void print_usage() {
  std::fprintf(stderr,
               "usage: coulomb render <scene> --out dir/ [--frames N] [--width W] [--height H]\n"
               "                      [--steps-per-frame K] [--overlay contacts,normals,forces,cones,joints,frames,bounds|all]\n"
               "                      [--color-by speed|contact_force|mass|volumetric_strain|max_stretch|\n"
               "                                  von_mises|min_dihedral]\n"
               "                      [--overlay sdf_slice,sdf_samples] [--slice-axis x|y|z] [--slice-pos 0..1]\n"
               "                      [--select body] [--yaw deg] [--pitch deg] [--zoom f] [--samples S]\n"
               "                      [--geometry visual|collision|both]\n"
               "                      [--validation] [--dt s] [--set solver.key=value ...] [--threads N]\n"
               "Each frame steps the scene K times (default 4), then renders; frame_0000.png is after K steps.\n");
}

}  // namespace

int render_command(int argc, char** argv, int first) {
  auto args = parse_args(argc, argv, first,
                         {"frames", "out", "width", "height", "steps-per-frame", "overlay", "select", "yaw", "pitch",
                          "zoom", "samples", "dt", "set", "threads", "color-by", "slice-axis", "slice-pos", "geometry"},
                         {"validation"});
  if (!args) {
    print_error("render", args.error());
    print_usage();
    return 2;
  }
  if (args->positional.size() != 1 || !args->value("out")) {
    print_usage();
    return 2;
  }
  auto overlays = parse_overlays(args->value("overlay").value_or(""));
  if (!overlays) {
    print_error("render", overlays.error());
    return 2;
  }
  const auto field = render::parse_element_field(args->value("color-by").value_or("none"));
  if (!field) {
    std::fprintf(stderr, "coulomb render: unknown --color-by '%s' (none, speed, contact_force, mass, volumetric_strain, max_stretch, von_mises, min_dihedral)\n",
                 args->value("color-by")->c_str());
    return 2;
  }
  overlays->element_field = *field;
  if (const auto axis = args->value("slice-axis")) {
    if (*axis != "x" && *axis != "y" && *axis != "z") {
      std::fprintf(stderr, "coulomb render: --slice-axis must be x, y or z (got '%s')\n", axis->c_str());
      return 2;
    }
    overlays->sdf_slice_axis = (*axis)[0] - 'x';
  }
  int frames = 1, width = 1280, height = 720, steps_per_frame = 4, samples = 4, selected = -1;
  double slice_pos = overlays->sdf_slice_position, yaw_deg = -2.2 / kDegree, pitch_deg = 0.5 / kDegree, zoom = 1;
  if (!integer_option(*args, "frames", "render", frames, 1, 1000000) ||
      !integer_option(*args, "width", "render", width, 16, 16384) ||
      !integer_option(*args, "height", "render", height, 16, 16384) ||
      !integer_option(*args, "steps-per-frame", "render", steps_per_frame, 0, 1000000) ||
      !integer_option(*args, "samples", "render", samples, 1, 64) ||
      !integer_option(*args, "select", "render", selected, -1, 1 << 30) ||
      !number_option(*args, "slice-pos", "render", slice_pos, {0, 1}) ||
      !number_option(*args, "yaw", "render", yaw_deg, {-3600, 3600}) ||
      !number_option(*args, "pitch", "render", pitch_deg, {-90, 90}) ||
      !number_option(*args, "zoom", "render", zoom, {0, 1000, true}) || !check_common_options(*args, "render")) {
    print_usage();
    return 2;
  }
  overlays->sdf_slice_position = float(slice_pos);
  // Robots' visual shapes (default), their collision shapes, or both (visuals see-through).
  render::GeometryView geometry;
  if (const auto g = args->value("geometry")) {
    if (*g == "collision") geometry.visuals = false;
    else if (*g == "both") geometry.collision = true;
    else if (*g != "visual") {
      std::fprintf(stderr, "coulomb render: --geometry must be visual, collision or both (got '%s')\n", g->c_str());
      return 2;
    }
  }

  auto scene = load_scene(args->positional[0], *args);
  if (!scene) {
    print_error("render", scene.error());
    return 1;
  }
  const sim::Model& model = scene->model;

  render::HeadlessContextOptions context_options;
  context_options.validation = args->has_flag("validation");
  auto context = render::create_headless_context(context_options);
  if (!context) {
    std::fprintf(stderr, "coulomb render: no usable Vulkan device: %s\n", context.error().c_str());
    return 1;
  }
  auto renderer = render::OffscreenRenderer::create((*context)->context(), width, height, samples);
  if (!renderer) {
    print_error("render", renderer.error());
    return 1;
  }
  if (auto set = (*renderer)->set_model(model); !set) {
    print_error("render", set.error());
    return 1;
  }
  const std::filesystem::path out_dir(*args->value("out"));
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "coulomb render: cannot create %s: %s\n", out_dir.string().c_str(), ec.message().c_str());
    return 1;
  }

  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  const float yaw = float(yaw_deg * kDegree), pitch = float(pitch_deg * kDegree);
  render::FrameInput input;
  input.overlays = *overlays;
  input.geometry = geometry;
  input.selected_body = selected;
  render::ContactOverlay contacts;
  input.contacts = &contacts;
  std::vector<float> element_values;

  std::printf("rendering %d frame%s of %s (%d bodies, %d particles) at %dx%d, %dx MSAA, on %s%s\n", frames,
              frames == 1 ? "" : "s", scene->spec.name.c_str(), model.body_count, model.particle_count, width, height,
              int((*renderer)->samples()), (*context)->device_name().c_str(),
              context_options.validation ? " with validation" : "");
  std::vector<std::uint8_t> pixels;
  double render_ms = 0;
  int diverged = 0;
  for (int f = 0; f < frames; ++f) {
    for (int i = 0; i < steps_per_frame; ++i)
      if (!sim::step(model, state, control, ws).ok()) ++diverged;
    if (steps_per_frame > 0) render::copy_contacts(model, state, ws, contacts);
    if (*field != render::ElementField::None) {
      render::compute_element_field(model, state, steps_per_frame > 0 ? &ws : nullptr, *field, element_values);
      input.element_values = element_values;
    }
    if (f == 0) {
      // One camera for the whole sequence, framed on the first frame, so a video does not wobble.
      input.camera = render::frame_bounds(render::scene_bounds(model, state.q), (*renderer)->aspect(), yaw, pitch);
      input.camera.distance /= float(zoom);
    }
    input.q = state.q;
    if (auto done = (*renderer)->render(input, pixels); !done) {
      std::fprintf(stderr, "coulomb render: frame %d: %s\n", f, done.error().c_str());
      return 1;
    }
    render_ms += (*renderer)->last_frame_ms();
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04d.png", f);
    const std::string path = (out_dir / name).string();
    render::FieldRange legend;
    if (*field != render::ElementField::None) {  // the map's bar in the image, its numbers here
      legend = render::display_range(*field, element_values);
      render::draw_field_legend_bar(pixels, width, height);
    }
    if (auto written = render::write_png(path, width, height, pixels); !written) {
      print_error("render", written.error());
      return 1;
    }
    std::printf("wrote %s (t = %.3f s, %d contacts, %.1f ms)\n", path.c_str(), double(state.time), contacts.size(),
                (*renderer)->last_frame_ms());
    if (*field != render::ElementField::None)
      std::printf("  legend (bar at the bottom left): %s from %.4g (left, dark purple) to %.4g (right, yellow)%s%s; grey: "
                  "no value\n",
                  render::element_field_name(*field), double(legend.lo), double(legend.hi),
                  *render::element_field_unit(*field) ? " " : "", render::element_field_unit(*field));
  }
  std::printf("%d frame%s in %s, %.1f ms per frame rendered%s\n", frames, frames == 1 ? "" : "s",
              out_dir.string().c_str(), render_ms / frames,
              diverged ? (", " + std::to_string(diverged) + " steps diverged").c_str() : "");
  if (context_options.validation) {
    const render::ValidationCounts v = (*context)->validation_counts();
    std::printf("validation: %d errors, %d warnings\n", v.errors, v.warnings);
    if (v.errors > 0) return 4;
  }
  return 0;
}

}  // namespace coulomb
