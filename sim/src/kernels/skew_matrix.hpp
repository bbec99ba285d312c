// [v]×, the cross-product matrix: [v]× a = v × a. Shared by the joint rows and the gyroscopic step.
#pragma once

#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"

namespace sim {

SIM_HD inline Mat3 skew_matrix(const Vec3& v) {
  Mat3 s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

}  // namespace sim
