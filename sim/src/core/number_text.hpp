// A number as messages, names and warnings print it: 6 significant digits ("0.5", "1e-05",
// "-69527"); files that must round-trip write their own (scene_xml_writer, solve_capture_io).
#pragma once

#include <string>

namespace sim {

std::string number_text(double v);

}  // namespace sim
