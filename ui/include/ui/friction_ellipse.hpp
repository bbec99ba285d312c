// The friction cone's section at one contact, as the Contact panel draws it (issue 15 item 2,
// "the anisotropic ellipse"): the set of friction forces the contact may carry at its normal
// force λ_n, an ellipse of semi-axes μ_t λ_n along tangent1 (the grain, when anisotropic) and
// μ_b λ_n along tangent2 (a circle when isotropic; thesis eqs. 32-35), with the friction force
// (f1, f2) in it (on the ellipse when sliding, inside when sticking) and the slip's direction
// (maximal dissipation: a sliding force is −λ_n M_μ² v / |M_μ v|, so it opposes the slip only on
// a circle). friction_ellipse_figure is pure and tested; draw_friction_ellipse draws it with ImGui.
#pragma once

#include "sim/math.hpp"
#include "ui/contact_readout.hpp"

namespace ui {

// Pixel coordinates from the figure's centre, y up (the panel flips them), scaled so the larger
// of the ellipse's semi-axes and the force fits `radius` pixels.
struct FrictionEllipseFigure {
  bool loaded = false;            // λ_n > 0 and μ > 0: there is a cone to draw
  double semi_axis_t = 0;         // along tangent1 [px]
  double semi_axis_b = 0;         // along tangent2 [px]
  sim::Vec2 force = sim::Vec2::Zero();  // the friction force's tip [px]
  sim::Vec2 slip = sim::Vec2::Zero();   // the slip's direction, `radius` long; zero without slip
  double newtons_per_pixel = 0;
};

FrictionEllipseFigure friction_ellipse_figure(const ContactReadout& readout, double radius);

// The figure in the current ImGui window (a square of 160 px and its legend); `sliding`
// colours the force as the panel's stick/slip line does.
void draw_friction_ellipse(const ContactReadout& readout, bool sliding);

}  // namespace ui
