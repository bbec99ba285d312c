// The Friction panel's texture tools in the desktop app (issue 12): new blank textures, import and
// export, and the brush stroke in the viewport (texture_painter.hpp) previewed in the running
// simulation dab by dab and committed to the document as one undo step per stroke.
#pragma once

#include <string>

#include "gui/texture_painter.hpp"
#include "gui/viewport_window.hpp"
#include "ui/friction_panel.hpp"

namespace coulomb::gui {

class SceneDocument;

class TextureAuthoring {
 public:
  TextureAuthoring(SceneDocument& document, ViewportWindow& viewport);

  // The panel's texture actions and brush changes (other edits are the property path's); a
  // message for the status bar when something failed, else "".
  std::string apply(const ui::FrictionPanelEdits& edits);
  // Fills the panel view's fields this class owns (the last message).
  void fill(ui::FrictionPanelView& view) const;

  // The viewport's surface tool (painting while the brush is on).
  ViewportWindow::SurfaceTool surface_tool();

  const TextureBrush& brush() const { return brush_; }
  bool painting() const { return painting_; }

 private:
  SceneDocument& document_;
  ViewportWindow& viewport_;
  TexturePainter painter_;
  TextureBrush brush_;
  bool painting_ = false;
  int material_ = -1;          // the panel's selected material
  std::string message_;
};

// A texture file name for a material with none: "<material>_grain.png", made safe for files.
std::string default_texture_file(const std::string& material_name);

}  // namespace coulomb::gui
