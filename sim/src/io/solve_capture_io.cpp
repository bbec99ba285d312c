// Saving and loading a solver capture (sim/solve_capture.hpp): the step's input as a one-step
// session recording, a JSON description, the per-row arrays in a binary file, and the Newton
// system of one iteration in Matrix Market coordinate/array format (readable by Eigen's
// loadMarket, SciPy's mmread, MATLAB's mmread).
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/atomic_file.hpp"
#include "sim/load_limits.hpp"
#include "sim/model.hpp"
#include "sim/recording.hpp"
#include "sim/solve_capture.hpp"

namespace sim {

namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'C', 'O', 'U', 'L', 'C', 'A', 'P', '1'};

// The fixed-size header of iterates.bin, then per iterate: merit, u (dofs), λ, residual, W (rows
// each) as doubles and the active flags (rows bytes).
struct BinHeader {
  char magic[8];
  std::int32_t rows, dofs, iterates, reserved;
};

std::string number(Real v) {
  if (!std::isfinite(v)) return v != v ? "\"nan\"" : (v > 0 ? "\"inf\"" : "\"-inf\"");
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(v));
  return buf;
}

template <class T, class F>
void json_array(std::ostringstream& o, const std::vector<T>& v, F&& f) {
  o << '[';
  for (std::size_t i = 0; i < v.size(); ++i) o << (i ? "," : "") << f(v[i]);
  o << ']';
}

std::string capture_json(const SolveCapture& c, const std::string& scene_file) {
  std::ostringstream o;
  o << "{\n  \"format\": \"coulomb solve capture 1\",\n";
  o << "  \"scene\": \"" << scene_file << "\",\n";  // a path: quotes and control characters are not expected
  o << "  \"step_index\": " << c.start.step_index << ",\n  \"time\": " << number(c.start.time) << ",\n";
  o << "  \"h\": " << number(c.h) << ",\n  \"substep\": " << c.substep << ",\n";
  o << "  \"solver\": {\"ncp\": \"" << to_string(c.options.ncp) << "\", \"linear_solver\": \""
    << to_string(c.options.linear_solver) << "\", \"preconditioner\": \"" << to_string(c.options.preconditioner)
    << "\", \"newton_iterations\": " << c.options.newton_iterations
    << ", \"linear_iterations\": " << c.options.linear_iterations
    << ", \"line_search\": " << (c.options.line_search ? "true" : "false") << "},\n";
  o << "  \"bodies\": " << c.body_count << ", \"particles\": " << c.particle_count << ", \"contacts\": " << c.contact_count
    << ", \"rows\": " << c.rows.count() << ",\n";
  o << "  \"returned_to_best\": " << (c.returned_to_best ? "true" : "false") << ",\n";
  o << "  \"row_kind\": ";
  json_array(o, c.rows.kind, [](std::int8_t k) { return std::string("\"") + row_kind_name(k) + "\""; });
  o << ",\n  \"row_source\": ";
  json_array(o, c.rows.source, [](int v) { return std::to_string(v); });
  o << ",\n  \"row_sub\": ";
  json_array(o, c.rows.sub, [](std::int8_t v) { return std::to_string(v); });
  o << ",\n  \"row_r\": ";
  json_array(o, c.rows.r, number);
  o << ",\n  \"row_node_first\": ";
  json_array(o, c.rows.node_first, [](int v) { return std::to_string(v); });
  o << ",\n  \"row_node\": ";
  json_array(o, c.rows.node, [](int v) { return std::to_string(v); });
  o << ",\n  \"iterations\": [\n";
  for (std::size_t k = 0; k < c.iterates.size(); ++k) {
    const IterationTrace& t = c.iterates[k].trace;
    o << "    {\"merit\": " << number(t.merit) << ", \"normal_max\": " << number(t.normal_max)
      << ", \"friction_max\": " << number(t.friction_max) << ", \"bilateral_max\": " << number(t.bilateral_max)
      << ", \"momentum_max\": " << number(t.momentum_max) << ", \"complementarity_max\": " << number(t.complementarity_max)
      << ", \"step_size\": " << number(t.step_size) << ", \"line_search_trials\": " << t.line_search_trials
      << ", \"watchdog\": " << (t.watchdog ? "true" : "false") << ", \"linear_iterations\": " << t.linear_iterations
      << ", \"linear_initial_residual\": " << number(t.linear_initial_residual)
      << ", \"linear_final_residual\": " << number(t.linear_final_residual)
      << ", \"linear_residual_offset\": " << t.linear_residual_offset << ", \"linear_breakdown\": " << t.linear_breakdown
      << ", \"active_set_changes\": " << t.active_set_changes << "}" << (k + 1 < c.iterates.size() ? "," : "") << "\n";
  }
  o << "  ],\n  \"linear_residuals\": ";
  json_array(o, c.linear_residuals, number);
  o << ",\n  \"arrays\": \"iterates.bin: per iteration merit, u, lambda, residual, W (float64) and active (int8)\"";
  if (c.system.iteration >= 0) o << ",\n  \"system_iteration\": " << c.system.iteration;
  o << "\n}\n";
  return o.str();
}

std::string capture_bin(const SolveCapture& c) {
  BinHeader h{};
  std::memcpy(h.magic, kMagic, 8);
  h.rows = c.rows.count();
  h.dofs = c.iterates.empty() ? 0 : static_cast<std::int32_t>(c.iterates.front().u.size());
  h.iterates = static_cast<std::int32_t>(c.iterates.size());
  std::string out(reinterpret_cast<const char*>(&h), sizeof h);
  auto put = [&](const std::vector<Real>& v) { out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(Real)); };
  for (const CapturedIterate& it : c.iterates) {
    const double merit = it.trace.merit;
    out.append(reinterpret_cast<const char*>(&merit), sizeof merit);
    put(it.u);
    put(it.lambda);
    put(it.residual);
    put(it.w);
    out.append(reinterpret_cast<const char*>(it.active.data()), it.active.size());
  }
  return out;
}

// Matrix Market: sparse "coordinate real general" (1-based) or dense "array real general".
std::string market_sparse(int rows, int cols, const std::vector<int>& r, const std::vector<int>& cidx,
                          const std::vector<Real>& v, const char* what) {
  std::ostringstream o;
  o << "%%MatrixMarket matrix coordinate real general\n% coulomb solve capture: " << what << "\n";
  o << rows << ' ' << cols << ' ' << v.size() << '\n';
  char buf[64];
  for (std::size_t k = 0; k < v.size(); ++k) {
    std::snprintf(buf, sizeof buf, "%d %d %.17g\n", r[k] + 1, cidx[k] + 1, static_cast<double>(v[k]));
    o << buf;
  }
  return o.str();
}

std::string market_vector(const std::vector<Real>& v, const char* what) {
  std::ostringstream o;
  o << "%%MatrixMarket matrix array real general\n% coulomb solve capture: " << what << "\n" << v.size() << " 1\n";
  char buf[40];
  for (Real x : v) {
    std::snprintf(buf, sizeof buf, "%.17g\n", static_cast<double>(x));
    o << buf;
  }
  return o.str();
}

}  // namespace

Result<bool> save_capture(const SolveCapture& c, const Model& model, const std::string& scene_file,
                          const std::string& folder) {
  if (!c.filled) return Error{folder + ": nothing was captured (the capture records the non-smooth Newton solver)"};
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return Error{folder + ": cannot create the folder (" + ec.message() + ")"};
  const fs::path dir(folder);
  Recording input;
  input.begin(scene_file, model, c.options, c.start);
  input.record(c.control);
  if (auto saved = save_recording(input, (dir / "step.rec").string()); !saved) return Error{saved.error()};
  auto write = [&](const char* name, const std::string& bytes) {
    return sim::write_file_atomically((dir / name).string(), {bytes});
  };
  std::string e = write("capture.json", capture_json(c, scene_file));
  if (e.empty()) e = write("iterates.bin", capture_bin(c));
  const CapturedSystem& s = c.system;
  if (e.empty() && s.iteration >= 0) {
    e = write("system_J.mtx", market_sparse(s.rows, s.dofs, s.j_row, s.j_col, s.j_value, "J, the NCP-scaled rows (eq. 59)"));
    if (e.empty())
      e = write("system_Hinv.mtx", market_sparse(s.dofs, s.dofs, s.hinv_row, s.hinv_col, s.hinv_value,
                                                 "H^-1, block diagonal (eq. 72)"));
    std::vector<int> diag(s.c_diagonal.size());
    for (std::size_t i = 0; i < diag.size(); ++i) diag[i] = static_cast<int>(i);
    if (e.empty()) e = write("system_C.mtx", market_sparse(s.rows, s.rows, diag, diag, s.c_diagonal, "C + eps I (eq. 55)"));
    if (e.empty()) e = write("system_b.mtx", market_vector(s.b, "b = J H^-1 g - h (eq. 59)"));
    if (e.empty()) e = write("system_x.mtx", market_vector(s.x, "x = h dlambda, the linear solver's solution"));
  }
  if (!e.empty()) return Error{e};
  return true;
}

Result<SolveCapture> load_capture_iterates(const std::string& folder) {
  const std::string path = (fs::path(folder) / "iterates.bin").string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return Error{path + ": not a regular file"};
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec || size < sizeof(BinHeader)) return Error{path + ": too short for a capture header"};
  std::ifstream in(path, std::ios::binary);
  BinHeader h{};
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h)) return Error{path + ": cannot read the header"};
  if (std::memcmp(h.magic, kMagic, 8) != 0) return Error{path + ": not a Coulomb capture (bad magic)"};
  if (h.rows < 0 || h.dofs < 0 || h.iterates < 0 || h.iterates > limits::kMaxSolverIterations + 1)
    return Error{path + ": offset 8: counts out of range"};
  // The file's length must be exactly what the header says, checked before allocating.
  const double per = 8.0 + 8.0 * h.dofs + 3 * 8.0 * h.rows + h.rows;  // merit, u, λ, residual, W, flags
  if (double(sizeof h) + per * h.iterates != double(size))
    return Error{path + ": " + std::to_string(size) + " bytes, the header's counts need " +
                 std::to_string(static_cast<std::uint64_t>(double(sizeof h) + per * h.iterates))};
  SolveCapture c;
  c.filled = true;
  c.rows.kind.resize(h.rows);
  c.iterates.resize(h.iterates);
  auto get = [&](std::vector<Real>& v, int n) {
    v.resize(n);
    return static_cast<bool>(in.read(reinterpret_cast<char*>(v.data()), std::streamsize(n) * 8));
  };
  for (CapturedIterate& it : c.iterates) {
    double merit = 0;
    bool ok = static_cast<bool>(in.read(reinterpret_cast<char*>(&merit), 8));
    it.trace.merit = merit;
    ok = ok && get(it.u, h.dofs) && get(it.lambda, h.rows) && get(it.residual, h.rows) && get(it.w, h.rows);
    it.active.resize(h.rows);
    ok = ok && in.read(reinterpret_cast<char*>(it.active.data()), h.rows);
    if (!ok) return Error{path + ": read failed"};
  }
  return c;
}

std::string compare_captures(const SolveCapture& a, const SolveCapture& b) {
  if (a.iterates.size() != b.iterates.size())
    return std::to_string(a.iterates.size()) + " iterates against " + std::to_string(b.iterates.size());
  auto differ = [](const std::vector<Real>& x, const std::vector<Real>& y, const char* name, std::size_t k) -> std::string {
    if (x.size() != y.size()) return "iteration " + std::to_string(k) + ": " + name + " sizes differ";
    for (std::size_t i = 0; i < x.size(); ++i)
      if (std::memcmp(&x[i], &y[i], sizeof(Real)) != 0)
        return "iteration " + std::to_string(k) + ": " + name + "[" + std::to_string(i) + "] " + number(x[i]) +
               " != " + number(y[i]);
    return {};
  };
  for (std::size_t k = 0; k < a.iterates.size(); ++k) {
    const CapturedIterate &x = a.iterates[k], &y = b.iterates[k];
    if (std::memcmp(&x.trace.merit, &y.trace.merit, sizeof(Real)) != 0)
      return "iteration " + std::to_string(k) + ": merit " + number(x.trace.merit) + " != " + number(y.trace.merit);
    for (std::string e : {differ(x.u, y.u, "u", k), differ(x.lambda, y.lambda, "lambda", k),
                          differ(x.residual, y.residual, "residual", k), differ(x.w, y.w, "W", k)})
      if (!e.empty()) return e;
    if (x.active != y.active) return "iteration " + std::to_string(k) + ": active sets differ";
  }
  return {};
}

}  // namespace sim
