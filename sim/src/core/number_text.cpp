#include "core/number_text.hpp"

#include <sstream>

namespace sim {

std::string number_text(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

}  // namespace sim
