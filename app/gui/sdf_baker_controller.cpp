#include "gui/sdf_baker_controller.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace coulomb::gui {

namespace {

// The double a user typed into a float field: the float's shortest decimal form read back, so
// 0.004f becomes 0.004 (and not 0.0040000001899), which is what the spec, the cache key and a
// saved file then hold.
double typed(float value) {
  char text[32];
  const auto printed = std::to_chars(text, text + sizeof text, value);
  double out = static_cast<double>(value);
  std::from_chars(text, printed.ptr, out);
  return out;
}

}  // namespace

std::vector<ui::SdfBakerShape> sdf_baker_shapes(const sim::Model& model) {
  std::vector<ui::SdfBakerShape> out;
  for (int s = 0; s < model.shape_count; ++s) {
    const auto i = static_cast<std::size_t>(s);
    const int m = i < model.shape_mesh.size() ? model.shape_mesh[i] : -1;
    if (m < 0 || m >= static_cast<int>(model.meshes.size()) || !model.meshes[static_cast<std::size_t>(m)]) continue;
    const sim::SdfMesh& mesh = *model.meshes[static_cast<std::size_t>(m)];
    const int body = model.shape_body[i];
    int first = s;  // a body's shapes are consecutive in the model
    while (first > 0 && model.shape_body[static_cast<std::size_t>(first - 1)] == body) --first;
    ui::SdfBakerShape item;
    item.shape = s;
    item.label = body >= 0 ? "body '" + model.body_name[static_cast<std::size_t>(body)] + "' shape " + std::to_string(s - first)
                           : "world shape " + std::to_string(s);
    item.triangles = static_cast<int>(mesh.mesh.triangles.size());
    if (mesh.grid) {
      item.voxel_size = static_cast<float>(mesh.grid->voxel_size());
      item.band = static_cast<float>(mesh.grid->background() / mesh.grid->voxel_size());
    }
    out.push_back(std::move(item));
  }
  return out;
}

void SdfBakerController::refresh(const Snapshot& s) {
  ui::SdfBakerPanelView& v = view_;
  if (s.model && s.model_version != model_version_) {
    v.shapes = sdf_baker_shapes(*s.model);
    model_version_ = s.model_version;
    if (!v.shapes.empty()) ui::choose_sdf_shape(v, std::clamp(v.shape_choice, 0, static_cast<int>(v.shapes.size()) - 1));
  }
  v.running = job_.running();
  v.progress = static_cast<float>(job_.progress());
  v.stage = job_.stage();
  if (auto result = job_.take_result()) result_ = std::move(result);
  v.has_result = result_.has_value();
  v.can_apply = false;
  if (result_) {
    const SdfBakeResult& r = *result_;
    v.result_ok = r.ok;
    v.result_error = r.error;
    v.report = r.report;
    v.result_source = r.source;
    for (const ui::SdfBakerShape& shape : v.shapes)
      if (shape.shape == r.shape) {
        v.result_source = shape.label;
        // Apply when the bake differs from the running grid (the panel's values are floats).
        v.can_apply = r.ok && (std::abs(double(shape.voxel_size) - double(r.report.voxel_size)) >
                                   1e-6 * double(r.report.voxel_size) ||
                               std::abs(double(shape.band) - double(r.report.band)) > 1e-4);
      }
  }
  v.contacts = s.stepped ? ui::summarise_sdf_contacts(s.workspace) : ui::SdfContactSummary{};
  if (s.model) v.max_iterations = s.model->sdf.iterations;
}

SdfBakerEdits SdfBakerController::handle(const ui::SdfBakerRequests& requests, const sim::Model& model) {
  SdfBakerEdits edits;
  const ui::SdfBakerPanelView& v = view_;
  if (requests.bake && !job_.running()) {
    if (v.source == 0 && v.shape_choice >= 0 && v.shape_choice < static_cast<int>(v.shapes.size())) {
      job_.start(shape_bake_request(model, v.shapes[static_cast<std::size_t>(v.shape_choice)].shape, typed(v.voxel_size),
                                    typed(v.band)));
    } else if (v.source == 1 && !v.path.empty()) {
      SdfBakeRequest request;
      request.mesh_file = v.path;
      request.options.voxel_size = typed(v.voxel_size);
      request.options.band = typed(v.band);
      job_.start(std::move(request));
    }
  }
  if (requests.apply && result_ && result_->ok && result_->shape >= 0)
    edits.apply = SdfApply{result_->shape, double(result_->voxel_size), double(result_->band)};
  if (requests.slice) edits.slice = std::make_pair(v.slice_axis, v.slice_position);
  return edits;
}

SdfBakerEdits SdfBakerController::frame(const Snapshot& s) {
  refresh(s);
  if (!s.model) return {};
  return handle(ui::sdf_baker_panel(view_), *s.model);
}

}  // namespace coulomb::gui
