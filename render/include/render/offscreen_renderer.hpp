// Renders a simulation state into an image without a window: lit shapes, the ground grid and
// debug overlays (contact points, normals, force vectors, body frames, bounds), read back as
// RGBA8. The same pipelines are meant to draw into a window's render pass (the app's viewport).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "render/vulkan_context.hpp"
#include "sim/step.hpp"

namespace render {

struct Overlays {
  bool contacts = false;   // contact points (yellow crosses)
  bool normals = false;    // contact normals (cyan, 5 cm)
  bool forces = false;     // normal (red) and friction (green) force vectors, 1 cm per N·force_scale
  bool frames = false;     // body com frames (RGB axes)
  bool bounds = false;     // bounding spheres as axis-aligned boxes (grey)
  float force_scale = 0.01f;  // [m/N]
};

class OffscreenRenderer {
 public:
  static sim::Result<std::unique_ptr<OffscreenRenderer>> create(std::shared_ptr<VulkanContext> context, int width,
                                                                int height);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  // Builds the GPU meshes of the model's shapes (once per model).
  void set_model(const sim::Model& model);
  // Renders the state; `workspace` supplies contacts and forces for overlays (may be null).
  // Returns the image, rows top to bottom, RGBA8 (width * height * 4 bytes).
  const std::vector<std::uint8_t>& render(const sim::Model& model, const sim::State& state,
                                          const sim::Workspace* workspace, const Camera& camera,
                                          const Overlays& overlays, int selected_body = -1);
  int width() const { return width_; }
  int height() const { return height_; }
  const VulkanContext& context() const { return *context_; }

 private:
  OffscreenRenderer() = default;
  struct Gpu;
  std::shared_ptr<VulkanContext> context_;
  std::unique_ptr<Gpu> gpu_;
  int width_ = 0, height_ = 0;
  std::vector<std::uint8_t> pixels_;
};

// Writes RGBA8 pixels as a PNG (libpng). Errors name the file.
sim::Result<bool> write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba);

}  // namespace render
