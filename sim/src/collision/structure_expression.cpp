// Recursive-descent compiler of the structure-field formula to postfix code, and its evaluator.
#include "collision/structure_expression.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <algorithm>
#include <numbers>

namespace sim::detail {
namespace {

using Op = ExpressionProgram::Op;

struct FunctionName {
  std::string_view name;
  Op op;
  int arguments;
};
constexpr std::array<FunctionName, 14> kFunctions = {{
    {"sin", Op::Sin, 1}, {"cos", Op::Cos, 1}, {"tan", Op::Tan, 1}, {"asin", Op::Asin, 1},
    {"acos", Op::Acos, 1}, {"atan", Op::Atan, 1}, {"atan2", Op::Atan2, 2}, {"sqrt", Op::Sqrt, 1},
    {"abs", Op::Abs, 1}, {"exp", Op::Exp, 1}, {"log", Op::Log, 1}, {"min", Op::Min, 2},
    {"max", Op::Max, 2}, {"floor", Op::Floor, 1},
}};

class Compiler {
 public:
  explicit Compiler(std::string_view text) : text_(text) {}

  Result<ExpressionProgram> run() {
    skip_space();
    if (pos_ >= text_.size()) return Error{"empty expression"};
    expression();
    if (error_.empty() && pos_ < text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    if (!error_.empty()) return Error{error_};
    return std::move(program_);
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::string error_;
  ExpressionProgram program_;
  int depth_ = 0;

  void fail(const std::string& what) {
    if (error_.empty()) error_ = "at " + std::to_string(pos_ + 1) + ": " + what;
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      skip_space();
      return true;
    }
    return false;
  }
  void emit(Op op, int stack_change, Real value = 0) {
    program_.code.push_back({op, value});
    depth_ += stack_change;
    program_.max_stack = std::max(program_.max_stack, depth_);
  }

  // expression := term (('+' | '-') term)*
  void expression() {
    term();
    while (error_.empty()) {
      if (accept('+')) term(), emit(Op::Add, -1);
      else if (accept('-')) term(), emit(Op::Sub, -1);
      else break;
    }
  }
  // term := unary (('*' | '/') unary)*
  void term() {
    unary();
    while (error_.empty()) {
      if (accept('*')) unary(), emit(Op::Mul, -1);
      else if (accept('/')) unary(), emit(Op::Div, -1);
      else break;
    }
  }
  // unary := '-' unary | power
  void unary() {
    if (accept('-')) {
      unary();
      emit(Op::Neg, 0);
      return;
    }
    accept('+');
    power();
  }
  // power := primary ('^' unary)?   (right-associative, binds tighter than unary minus on its left)
  void power() {
    primary();
    if (error_.empty() && accept('^')) {
      unary();
      emit(Op::Pow, -1);
    }
  }
  void primary() {
    skip_space();
    if (pos_ >= text_.size()) return fail("expression ends early");
    const char c = text_[pos_];
    if (accept('(')) {
      expression();
      if (error_.empty() && !accept(')')) fail("expected ')'");
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const std::string rest(text_.substr(pos_));
      char* end = nullptr;
      const double v = std::strtod(rest.c_str(), &end);
      if (end == rest.c_str()) return fail("bad number");
      pos_ += static_cast<std::size_t>(end - rest.c_str());
      skip_space();
      emit(Op::Number, 1, static_cast<Real>(v));
      return;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) return fail("unexpected '" + std::string(1, c) + "'");
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    const std::string_view name = text_.substr(start, pos_ - start);
    skip_space();
    if (name == "x") return emit(Op::X, 1);
    if (name == "y") return emit(Op::Y, 1);
    if (name == "z") return emit(Op::Z, 1);
    if (name == "r") return emit(Op::R, 1);
    if (name == "pi") return emit(Op::Number, 1, std::numbers::pi_v<Real>);
    for (const FunctionName& f : kFunctions) {
      if (f.name != name) continue;
      if (!accept('(')) return fail("expected '(' after " + std::string(name));
      for (int a = 0; a < f.arguments && error_.empty(); ++a) {
        if (a > 0 && !accept(',')) return fail(std::string(name) + " takes " + std::to_string(f.arguments) + " arguments");
        expression();
      }
      if (error_.empty() && !accept(')')) return fail("expected ')' closing " + std::string(name));
      emit(f.op, 1 - f.arguments);
      return;
    }
    pos_ = start;
    fail("unknown name '" + std::string(name) + "' (variables x y z r pi)");
  }
};

constexpr int kMaxStack = 64;

}  // namespace

Result<ExpressionProgram> compile_expression(std::string_view text) {
  auto program = Compiler(text).run();
  if (program.ok() && program.value().max_stack > kMaxStack)
    return Error{"expression nests deeper than " + std::to_string(kMaxStack) + " values"};
  return program;
}

Real evaluate_expression(const ExpressionProgram& program, Real x, Real y, Real z) {
  Real stack[kMaxStack];
  int top = 0;
  for (const ExpressionProgram::Instruction& in : program.code) {
    Real* s = stack + top;  // one past the top
    switch (in.op) {
      case Op::Number: *s = in.value; ++top; break;
      case Op::X: *s = x; ++top; break;
      case Op::Y: *s = y; ++top; break;
      case Op::Z: *s = z; ++top; break;
      case Op::R: *s = std::sqrt(x * x + y * y); ++top; break;
      case Op::Add: s[-2] += s[-1]; --top; break;
      case Op::Sub: s[-2] -= s[-1]; --top; break;
      case Op::Mul: s[-2] *= s[-1]; --top; break;
      case Op::Div: s[-2] /= s[-1]; --top; break;
      case Op::Pow: s[-2] = std::pow(s[-2], s[-1]); --top; break;
      case Op::Atan2: s[-2] = std::atan2(s[-2], s[-1]); --top; break;
      case Op::Min: s[-2] = std::min(s[-2], s[-1]); --top; break;
      case Op::Max: s[-2] = std::max(s[-2], s[-1]); --top; break;
      case Op::Neg: s[-1] = -s[-1]; break;
      case Op::Sin: s[-1] = std::sin(s[-1]); break;
      case Op::Cos: s[-1] = std::cos(s[-1]); break;
      case Op::Tan: s[-1] = std::tan(s[-1]); break;
      case Op::Asin: s[-1] = std::asin(s[-1]); break;
      case Op::Acos: s[-1] = std::acos(s[-1]); break;
      case Op::Atan: s[-1] = std::atan(s[-1]); break;
      case Op::Sqrt: s[-1] = std::sqrt(s[-1]); break;
      case Op::Abs: s[-1] = std::abs(s[-1]); break;
      case Op::Exp: s[-1] = std::exp(s[-1]); break;
      case Op::Log: s[-1] = std::log(s[-1]); break;
      case Op::Floor: s[-1] = std::floor(s[-1]); break;
    }
  }
  return top == 1 ? stack[0] : std::numeric_limits<Real>::quiet_NaN();
}

}  // namespace sim::detail
