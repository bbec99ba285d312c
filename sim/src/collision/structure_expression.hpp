// The expression form of a structure field: the grain angle θ [rad] as a formula in the field's
// plane coordinates x, y, z and r = sqrt(x² + y²), e.g. "0.5*sin(2*x) + atan2(y, x)".
// Grammar: numbers, x y z r pi, + − * / ^ (right-associative), unary −, parentheses, and
// sin cos tan asin acos atan atan2(a,b) sqrt abs exp log min(a,b) max(a,b) floor.
// Compiled once (compile_model) to postfix code; evaluated without allocation.
#pragma once

#include <string>
#include <string_view>

#include "sim/result.hpp"
#include "sim/structure_field.hpp"

namespace sim::detail {

// The compiled program, or an error naming the offending character position ("at 7: ...").
Result<ExpressionProgram> compile_expression(std::string_view text);

// Value of the program at (x, y, z); NaN for a malformed program.
Real evaluate_expression(const ExpressionProgram& program, Real x, Real y, Real z);

}  // namespace sim::detail
