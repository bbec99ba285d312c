// The SDF baker panel's controller: owns the panel's view (ui/sdf_baker_panel.hpp), the bake job
// and the last result. Each frame it refreshes the view from the latest snapshot (the scene's
// triangle-mesh shapes, the last step's SDF contacts) and from the job (progress, result), draws
// the panel, and turns the panel's requests into a bake on the job's thread and into edits for
// the caller to apply (Apply: through the document; the slice: the viewport's overlays). No Qt.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "gui/sdf_bake_job.hpp"
#include "gui/snapshot.hpp"
#include "ui/sdf_baker_panel.hpp"

namespace coulomb::gui {

// New grid parameters for a model shape (ShapeSpec::sdf_voxel_size, sdf_band), already baked.
struct SdfApply {
  int shape = -1;
  double voxel_size = 0;
  double band = 0;
};

struct SdfBakerEdits {
  std::optional<SdfApply> apply;
  std::optional<std::pair<int, float>> slice;  // the slice overlay's axis and position
};

// The scene's triangle-mesh shapes as the panel lists them (label, triangles, current grid).
std::vector<ui::SdfBakerShape> sdf_baker_shapes(const sim::Model& model);

class SdfBakerController {
 public:
  // Updates the view from the snapshot (shapes when the model changed, contact summary) and the
  // job (progress, a finished result, whether it can be applied).
  void refresh(const Snapshot& snapshot);
  // What the panel's buttons do: a bake starts on the job's thread (a scene shape through
  // shape_bake_request, or the mesh file), Apply and the slice become edits.
  SdfBakerEdits handle(const ui::SdfBakerRequests& requests, const sim::Model& model);
  // refresh, draw the panel (inside an ImGui frame), handle.
  SdfBakerEdits frame(const Snapshot& snapshot);

  ui::SdfBakerPanelView& view() { return view_; }
  const SdfBakeJob& job() const { return job_; }

 private:
  ui::SdfBakerPanelView view_;
  std::uint64_t model_version_ = 0;
  SdfBakeJob job_;                       // bakes on its own thread; joined on destruction
  std::optional<SdfBakeResult> result_;  // the last bake's
};

}  // namespace coulomb::gui
