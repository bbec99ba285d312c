// The Friction panel: authoring anisotropic friction (thesis ch. 3, matchstick model) on the
// scene's materials. Pick a material, set μ, μ_major (along the grain) and μ_minor (across it),
// choose the grain: a preset (constant, channel, spread, slalom, radial, expression) in the x-y
// plane of its owner, its direction as an angle, width, amplitude, wavelength and centre. The
// panel edits a caller-owned view and reports each change as a property edit of the selected
// material (the app's property path: undoable, and patched into the running model between steps).
// Texture grains: a new blank texture at a resolution, import and export (PNG 8/16-bit, EXR), and
// the brush that paints on meshes in the viewport (comb, smooth, rotate, erase; radius, strength),
// with glyphs showing the grain on the surfaces.
// Also shows what the last step's contacts saw: how many were anisotropic, their mean alignment d.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ui {

// The texture brush (painting in the viewport: left drag on a mesh with the material's texture).
struct FrictionBrushView {
  bool painting = false;
  int mode = 0;               // 0 comb, 1 smooth, 2 rotate, 3 erase
  float radius = 0.1f;        // [m] on the surface
  float strength = 0.5f;
  float rotate_deg = 10.0f;   // rotate: per dab [deg]
  bool glyphs = true;         // grain glyphs on textured surfaces
};

struct FrictionPanelView {
  std::vector<std::string> materials;  // names, in scene order
  int material = 0;                    // selected (index into materials)
  float mu = 0.5f, mu_major = 0.5f, mu_minor = 0.5f;
  int grain = 0;                       // index into friction_grain_choices()
  float direction_deg = 0;             // grain direction / plane x axis, angle from world x in x-y [deg]
  float width = 1, amplitude = 0.5f, wavelength = 2;
  float center[2] = {0, 0};            // [m]
  // Texture grains (issue 12): the selected material's texture, if its grain is one.
  bool texture = false;
  std::string texture_file;            // as the scene names it
  int texture_width = 0, texture_height = 0;
  int new_resolution = 2;              // index into texture_resolutions()
  char texture_path[512] = {};         // import / export file (.png or .exr)
  std::string texture_message;         // the last import/export's result
  FrictionBrushView brush;
  // Read-out of the last step.
  int contacts = 0, anisotropic_contacts = 0;
  float mean_alignment = 0;            // mean d over the anisotropic contacts
};

// A property edit of the selected material: the property path's name ("friction_major",
// "grain", "grain_direction.x", ...) and a number, or a text (the grain type).
struct FrictionPanelEdit {
  std::string name;
  double number = 0;
  std::string text;  // non-empty: a choice
};

enum class TextureAction { None, NewBlank, Import, Export };

struct FrictionPanelEdits {
  int material = -1;                       // the material edited (-1: none)
  std::vector<FrictionPanelEdit> edits;    // in order
  TextureAction texture = TextureAction::None;  // on `material`
  int resolution = 0;                      // NewBlank: texels per side
  std::string path;                        // Import / Export
  bool brush_changed = false;              // the brush or glyph switch changed: `brush` holds it
  FrictionBrushView brush;
  bool any() const { return (material >= 0 && (!edits.empty() || texture != TextureAction::None)) || brush_changed; }
};

// The resolutions "New blank texture" offers (texels per side).
const std::vector<int>& texture_resolutions();
const char* brush_mode_name(int mode);  // "comb", "smooth", "rotate", "erase"

// The grain types the panel offers (the property path's choice names).
const std::vector<std::string>& friction_grain_choices();

// Draws the panel; returns this frame's edits.
FrictionPanelEdits friction_panel(FrictionPanelView& view);

// The setters a click calls, for tests and scripting: each fills `out` with the property edits.
void choose_grain(const FrictionPanelView& view, int choice, FrictionPanelEdits& out);
// The direction as an angle in the x-y plane: the larger component first, so no intermediate
// value is the zero vector.
void set_grain_angle(const FrictionPanelView& view, float degrees, FrictionPanelEdits& out);
// The brush controls (also the glyph switch).
void set_brush(FrictionPanelView& view, const FrictionBrushView& brush, FrictionPanelEdits& out);
// The texture buttons: a blank texture at the view's resolution, import or export the view's path.
void texture_action(const FrictionPanelView& view, TextureAction action, FrictionPanelEdits& out);

}  // namespace ui
