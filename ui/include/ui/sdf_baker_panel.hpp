// The SDF baker panel (thesis ch. 6): pick a triangle-mesh shape of the scene or a mesh file, set
// the voxel size and band, bake (the caller runs the bake on a background thread and feeds the
// progress bar), read the bake's time, memory, warnings and cache hit or miss, and apply a shape's
// new grid parameters to the running simulation. Also the slice overlay's axis and position, and
// a legend of the SDF contacts of the last step (the sdf_samples overlay). The panel edits the
// caller's view and reports what the user asked for; it runs nothing itself.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "sim/sdf.hpp"
#include "sim/step.hpp"

namespace ui {

// A triangle-mesh shape of the scene the panel can bake.
struct SdfBakerShape {
  int shape = -1;            // model shape index
  std::string label;         // "body 'bowl' shape 0", "world shape 2"
  int triangles = 0;
  float voxel_size = 0.0f;   // of its current grid [m]
  float band = 0.0f;         // of its current grid [voxels]
};

// SDF contacts of the last step by feature (sim::SdfFeature order), and their evaluations.
struct SdfContactSummary {
  std::array<int, 6> count{};  // None (unused), Vertex, Edge, Face, Core, ClothFace
  double mean_evaluations = 0;
  int max_evaluations = 0;
};
SdfContactSummary summarise_sdf_contacts(const sim::Workspace& workspace);

struct SdfBakerPanelView {
  // ---- what the caller provides ----
  std::vector<SdfBakerShape> shapes;
  bool running = false;
  float progress = 0.0f;             // [0, 1]
  std::string stage;
  bool has_result = false;           // the last bake's outcome:
  bool result_ok = false;
  std::string result_source;
  std::string result_error;
  sim::SdfBakeReport report;
  bool can_apply = false;            // the result is of a scene shape and differs from its grid
  SdfContactSummary contacts;
  int max_iterations = 32;           // SdfContactOptions::iterations (colour scale of the markers)
  // ---- edited in place ----
  int source = 0;                    // 0: a shape of the scene, 1: a mesh file
  int shape_choice = 0;              // index into `shapes`
  std::string path;                  // mesh file
  float voxel_size = 0.01f;          // [m]
  float band = 3.0f;                 // exterior band [voxels]
  int slice_axis = 2;                // slice overlay: 0 x, 1 y, 2 z (shape frame)
  float slice_position = 0.5f;       // [0, 1] across the field's bounds
};

struct SdfBakerRequests {
  bool bake = false;   // Bake pressed (with valid parameters)
  bool apply = false;  // Apply to simulation pressed
  bool slice = false;  // the slice axis or position changed
};

SdfBakerRequests sdf_baker_panel(SdfBakerPanelView& view);

// Sets the fields the panel's "shape" combo sets when shape `index` is chosen: its current grid
// parameters become the voxel size and band to edit (the code path of a click, for tests).
void choose_sdf_shape(SdfBakerPanelView& view, int index);

}  // namespace ui
