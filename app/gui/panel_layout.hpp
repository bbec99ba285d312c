// Docks the ImGui panels in two columns at the viewport's sides, so that they never overlap and
// never hide one another's title bars: each panel is placed right under the previous one in its
// column (collapsed: its title bar; open: its height), and its height is bounded so that the title
// bars of the panels below it still fit above the viewport's bottom edge. Panels are docked, not
// dragged; the rectangles of the last frame tell the viewport which clicks are the panels'.
#pragma once

#include <string>
#include <vector>

namespace coulomb::gui {

struct PanelRect {
  std::string name;      // the ImGui window name
  float x = 0, y = 0, width = 0, height = 0;
  bool collapsed = false;
  bool contains(float px, float py) const { return px >= x && px < x + width && py >= y && py < y + height; }
};

class PanelColumn {
 public:
  // `count`: how many panels this column places this frame (their title bars are reserved).
  PanelColumn(float x, float top, float bottom, float width, int count, std::vector<PanelRect>& placed);

  // Before the panel's ImGui::Begin: its position, width, first height and whether it starts
  // collapsed (first use only: afterwards the user's choice stays).
  void place(float first_height, bool start_collapsed);
  // After the panel's ImGui::End: records where window `name` ended up and moves the column down.
  void placed(const char* name);

 private:
  float x_, y_, bottom_, width_;
  int remaining_;
  std::vector<PanelRect>& rects_;
};

}  // namespace coulomb::gui
