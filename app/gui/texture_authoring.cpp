#include "gui/texture_authoring.hpp"

#include <QString>
#include <filesystem>

#include "gui/scene_document.hpp"

namespace coulomb::gui {

std::string default_texture_file(const std::string& material_name) {
  std::string name;
  for (char c : material_name) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return (name.empty() ? std::string("material") : name) + "_grain.png";
}

TextureAuthoring::TextureAuthoring(SceneDocument& document, ViewportWindow& viewport)
    : document_(document), viewport_(viewport) {}

void TextureAuthoring::fill(ui::FrictionPanelView& view) const { view.texture_message = message_; }

std::string TextureAuthoring::apply(const ui::FrictionPanelEdits& edits) {
  if (edits.material >= 0) material_ = edits.material;
  if (edits.brush_changed) {
    const ui::FrictionBrushView& b = edits.brush;
    painting_ = b.painting;
    brush_.mode = static_cast<sim::TextureBrushMode>(std::clamp(b.mode, 0, 3));
    brush_.radius = b.radius;
    brush_.strength = b.strength;
    brush_.rotate_deg = b.rotate_deg;
    render::Overlays o = viewport_.overlays();
    o.grain_glyphs = b.glyphs;
    viewport_.set_overlays(o);
  }
  if (edits.texture == ui::TextureAction::None) return {};
  const sim::SceneSpec& spec = document_.spec();
  if (edits.material < 0 || edits.material >= static_cast<int>(spec.materials.size())) return "no material selected";
  const sim::MaterialSpec& material = spec.materials[static_cast<std::size_t>(edits.material)];
  sim::StructureFieldSpec grain = material.structure;
  QString error;
  switch (edits.texture) {
    case ui::TextureAction::NewBlank: {
      auto blank = sim::blank_structure_texture(edits.resolution, edits.resolution);
      if (!blank) return message_ = blank.error();
      grain.kind = sim::StructureFieldKind::Texture;
      if (grain.texture.empty()) grain.texture = default_texture_file(material.name);
      grain.image = std::make_shared<const sim::StructureTexture>(std::move(blank.value()));
      if (!document_.set_material_grain(edits.material, grain,
                                        QString::fromStdString("New blank texture for '" + material.name + "'"), &error))
        return message_ = error.toStdString();
      message_ = "blank " + std::to_string(edits.resolution) + " x " + std::to_string(edits.resolution) + " texture, saved with the scene as " + grain.texture;
      return {};
    }
    case ui::TextureAction::Import: {
      if (edits.path.empty()) return message_ = "give a .png or .exr file to import";
      auto image = sim::load_structure_texture(edits.path);
      if (!image) return message_ = image.error();
      grain.kind = sim::StructureFieldKind::Texture;
      // Saved with the scene under its own name, beside the scene.
      grain.texture = std::filesystem::path(edits.path).filename().string();
      grain.image = std::make_shared<const sim::StructureTexture>(std::move(image.value()));
      if (!document_.set_material_grain(edits.material, grain,
                                        QString::fromStdString("Import texture " + grain.texture), &error))
        return message_ = error.toStdString();
      message_ = "imported " + edits.path;
      return {};
    }
    case ui::TextureAction::Export: {
      if (!grain.image) return message_ = "the material has no texture to export";
      if (edits.path.empty()) return message_ = "give a .png or .exr file to export to";
      if (std::string e = sim::save_structure_texture(*grain.image, edits.path); !e.empty()) return message_ = e;
      message_ = "exported " + edits.path;
      return {};
    }
    case ui::TextureAction::None: break;
  }
  return {};
}

ViewportWindow::SurfaceTool TextureAuthoring::surface_tool() {
  ViewportWindow::SurfaceTool tool;
  tool.active = [this] { return painting_; };
  tool.press = [this](const Ray& ray) {
    const Snapshot& s = document_.runner().current();
    if (!s.model || static_cast<int>(s.state.q.size()) != s.model->coord_count()) return false;
    if (!painter_.begin(document_.spec(), *s.model, s.state, material_, ray, brush_)) return false;
    if (painter_.dabs() > 0) document_.preview_grain_texture(painter_.material(), painter_.image());
    return true;
  };
  tool.move = [this](const Ray& ray) {
    const Snapshot& s = document_.runner().current();
    if (!painter_.active() || !s.model || static_cast<int>(s.state.q.size()) != s.model->coord_count()) return;
    if (painter_.drag(*s.model, s.state, ray, brush_)) document_.preview_grain_texture(painter_.material(), painter_.image());
  };
  tool.release = [this] {
    if (!painter_.active()) return;
    const int material = painter_.material();
    const int dabs = painter_.dabs();
    const sim::StructureFieldSpec grain = painter_.end();
    if (dabs == 0) return;
    static const char* const kVerb[] = {"Comb", "Smooth", "Rotate", "Erase"};
    QString error;
    if (!document_.set_material_grain(material, grain,
                                      QStringLiteral("%1 grain (%2 dabs)").arg(kVerb[static_cast<int>(brush_.mode)]).arg(dabs),
                                      &error))
      message_ = error.toStdString();
  };
  return tool;
}

}  // namespace coulomb::gui
