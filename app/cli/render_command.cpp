// `coulomb render <scene> --frames N --out dir/`: runs the scene headless and writes PNG frames
// with the same renderer the viewport uses (for tests, figures and videos).
#include <cstdio>
#include <filesystem>
#include <string>

#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "render/offscreen_renderer.hpp"

namespace coulomb {

namespace {

render::Overlays parse_overlays(const std::string& list) {
  render::Overlays o;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, end - start);
    if (item == "contacts") o.contacts = true;
    else if (item == "normals") o.normals = true;
    else if (item == "forces") o.forces = true;
    else if (item == "frames") o.frames = true;
    else if (item == "bounds") o.bounds = true;
    else if (!item.empty()) std::fprintf(stderr, "coulomb render: unknown overlay '%s' (ignored)\n", item.c_str());
    start = end + 1;
  }
  return o;
}

}  // namespace

int render_command(int argc, char** argv, int first) {
  auto args = parse_args(argc, argv, first,
                         {"frames", "out", "width", "height", "steps-per-frame", "overlay", "dt", "set", "threads"},
                         {"validation"});
  if (!args || args->positional.size() != 1 || !args->value("out")) {
    if (!args) std::fprintf(stderr, "coulomb render: %s\n", args.error().c_str());
    std::fprintf(stderr, "usage: coulomb render <scene> --out dir/ [--frames N] [--width W] [--height H]\n"
                         "                      [--steps-per-frame K] [--overlay contacts,normals,forces,frames,bounds]\n"
                         "                      [--validation] [--set solver.key=value ...]\n");
    return 2;
  }
  ThreadLimit threads(*args);
  auto scene = load_scene(args->positional[0], *args);
  if (!scene) {
    std::fprintf(stderr, "coulomb render: %s\n", scene.error().c_str());
    return 1;
  }
  const int frames = std::max(1, std::atoi(args->value("frames").value_or("1").c_str()));
  const int width = std::atoi(args->value("width").value_or("1280").c_str());
  const int height = std::atoi(args->value("height").value_or("720").c_str());
  const int steps_per_frame = std::max(0, std::atoi(args->value("steps-per-frame").value_or("2").c_str()));
  const render::Overlays overlays = parse_overlays(args->value("overlay").value_or(""));
  auto context = render::create_headless_context(args->has_flag("validation"));
  if (!context) {
    std::fprintf(stderr, "coulomb render: no Vulkan device: %s\n", context.error().c_str());
    return 1;
  }
  auto renderer = render::OffscreenRenderer::create(*context, width, height);
  if (!renderer) {
    std::fprintf(stderr, "coulomb render: %s\n", renderer.error().c_str());
    return 1;
  }
  const std::filesystem::path out_dir(*args->value("out"));
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  const sim::Model& model = scene->model;
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  (*renderer)->set_model(model);
  const render::Camera camera = render::frame_all(model, state);
  std::printf("rendering %d frames of %s at %dx%d on %s\n", frames, scene->spec.name.c_str(), width, height,
              (*context)->device_name.c_str());
  for (int f = 0; f < frames; ++f) {
    for (int i = 0; i < steps_per_frame; ++i) sim::step(model, state, control, ws);
    const auto& pixels = (*renderer)->render(model, state, &ws, camera, overlays);
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04d.png", f);
    const std::string path = (out_dir / name).string();
    if (auto w = render::write_png(path, width, height, pixels); !w) {
      std::fprintf(stderr, "coulomb render: %s\n", w.error().c_str());
      return 1;
    }
    std::printf("wrote %s\n", path.c_str());
  }
  if ((*context)->validation_errors > 0) {
    std::fprintf(stderr, "coulomb render: %d Vulkan validation errors\n", (*context)->validation_errors);
    return 4;
  }
  return 0;
}

}  // namespace coulomb
