// Result<T>: a value or an error message naming file, line and element. Used at the edges
// (parsers, compile, CLI); never inside step().
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace sim {

struct Error {
  std::string message;  // "file:line: <element>: what is wrong"
};

template <class T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}
  Result(Error error) : data_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<T>(data_); }
  const T& value() const { return std::get<T>(data_); }
  T& operator*() { return value(); }
  T* operator->() { return &value(); }
  const std::string& error() const { return std::get<Error>(data_).message; }

 private:
  std::variant<T, Error> data_;
};

}  // namespace sim
