#include "cli/cli_common.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "sim/atomic_file.hpp"
#include "sim/compile.hpp"
#include "sim/escape.hpp"
#include "sim/resource_policy.hpp"
#include "sim/scene_io.hpp"

namespace fs = std::filesystem;

namespace coulomb {

bool Args::has_flag(const std::string& name) const {
  return std::find(flags.begin(), flags.end(), name) != flags.end();
}

std::optional<std::string> Args::value(const std::string& name) const {
  std::optional<std::string> out;
  for (const auto& [k, v] : options)
    if (k == name) out = v;
  return out;
}

std::vector<std::string> Args::values(const std::string& name) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : options)
    if (k == name) out.push_back(v);
  return out;
}

namespace {

std::string shown(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

std::string parse_number_argument(const std::string& name, const std::string& text, const NumberRange& range, double& out) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  const std::string expected = std::string(" (expected a number ") + (range.min_exclusive ? "> " : ">= ") +
                               shown(range.min) + (range.max < 1e300 ? " and <= " + shown(range.max) : std::string()) + ")";
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v))
    return "--" + name + ": '" + sim::escape_control_characters(text) + "' is not a number" + expected;
  if (v < range.min || (range.min_exclusive && v == range.min) || v > range.max)
    return "--" + name + ": " + text + " is out of range" + expected;
  out = v;
  return {};
}

std::string parse_integer_argument(const std::string& name, const std::string& text, long long min, long long max,
                                   long long& out) {
  long long v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  const std::string expected = " (expected " + std::to_string(min) + " .. " + std::to_string(max) + ")";
  if (text.empty() || ec != std::errc() || ptr != end)
    return "--" + name + ": '" + sim::escape_control_characters(text) + "' is not a whole number" + expected;
  if (v < min || v > max) return "--" + name + ": " + text + " is out of range" + expected;
  out = v;
  return {};
}

bool number_option(const Args& args, const char* name, const char* command, double& out, const NumberRange& range) {
  const auto v = args.value(name);
  if (!v) return true;
  if (std::string e = parse_number_argument(name, *v, range, out); !e.empty()) {
    print_error(command, e);
    return false;
  }
  return true;
}

bool integer_option(const Args& args, const char* name, const char* command, int& out, long long min, long long max) {
  const auto v = args.value(name);
  if (!v) return true;
  long long n = 0;
  if (std::string e = parse_integer_argument(name, *v, min, max, n); !e.empty()) {
    print_error(command, e);
    return false;
  }
  out = static_cast<int>(n);
  return true;
}

void print_error(const char* command, const std::string& message) {
  std::fprintf(stderr, "coulomb %s: %s\n", command, sim::escape_control_characters(message, true).c_str());
}

sim::Result<Args> parse_args_with_short_out(int argc, char** argv, int first, const std::vector<std::string>& value_options,
                                            const std::vector<std::string>& bare_flags) {
  std::vector<std::string> words(argv, argv + argc);
  for (std::string& w : words)
    if (w == "-o") w = "--out";
  std::vector<char*> ptrs;
  for (std::string& w : words) ptrs.push_back(w.data());
  return parse_args(argc, ptrs.data(), first, value_options, bare_flags);
}

sim::Result<Args> parse_args(int argc, char** argv, int first, const std::vector<std::string>& value_options,
                             const std::vector<std::string>& bare_flags) {
  Args a;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      a.positional.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2), value;
    const auto eq = name.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    // Every loading command takes the containment options (sim/resource_policy.hpp).
    if (name == "allow-outside-paths" ||
        std::find(bare_flags.begin(), bare_flags.end(), name) != bare_flags.end()) {
      a.flags.push_back(name);
      continue;
    }
    if (name != "package-root" && std::find(value_options.begin(), value_options.end(), name) == value_options.end())
      return sim::Error{"unknown option --" + name};
    if (!inline_value) {
      if (i + 1 >= argc) return sim::Error{"option --" + name + " needs a value"};
      value = argv[++i];
    }
    a.options.emplace_back(name, value);
  }
  return a;
}

namespace {

// Where the shipped scenes live: $COULOMB_ASSETS, next to the executable's share dir, or the
// source tree this binary was built from.
std::vector<fs::path> scene_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("COULOMB_ASSETS")) dirs.emplace_back(fs::path(env) / "scenes");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back(exe.parent_path().parent_path() / "share" / "coulomb" / "scenes");
  dirs.emplace_back(fs::path(COULOMB_SOURCE_DIR) / "assets" / "scenes");
  return dirs;
}

}  // namespace

sim::Result<std::string> resolve_scene(const std::string& name) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  std::string tried;
  for (const fs::path& dir : scene_dirs()) {
    const fs::path p = dir / (name + ".xml");
    if (fs::is_regular_file(p, ec)) return p.string();
    tried += "\n  " + p.string();
  }
  return sim::Error{"no scene '" + name + "' (not a file; tried:" + tried + ")"};
}

bool is_shipped_asset(const std::string& path) {
  std::error_code ec;
  const fs::path file = fs::weakly_canonical(fs::absolute(path, ec), ec);
  for (const fs::path& dir : scene_dirs()) {
    const fs::path root = fs::weakly_canonical(dir.parent_path(), ec);
    if (ec || root.empty()) continue;
    const auto [end, _] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
    if (end == root.end()) return true;
  }
  return false;
}

std::vector<std::string> shipped_scenes() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::path& dir : scene_dirs()) {
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".xml") names.push_back(e.path().stem().string());
    if (!names.empty()) break;
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> shipped_package_roots() {
  std::vector<std::string> roots;
  std::error_code ec;
  for (const fs::path& dir : scene_dirs())
    if (fs::is_directory(dir.parent_path(), ec)) roots.push_back(dir.parent_path().string());
  // The third-party robots the shipped scenes name (../shared/robots beside a source checkout).
  const fs::path shared = fs::path(COULOMB_SOURCE_DIR).parent_path() / "shared" / "robots";
  if (fs::is_directory(shared, ec)) roots.push_back(shared.string());
  return roots;
}

void apply_resource_policy(const std::string& path, const Args& args) {
  (void)path;
  sim::ResourcePolicy policy = sim::resource_policy();
  policy.allow_outside = policy.allow_outside || args.has_flag("allow-outside-paths");
  for (const std::string& root : shipped_package_roots()) policy.package_roots.push_back(root);
  for (const std::string& root : args.values("package-root")) policy.package_roots.push_back(root);
  sim::set_resource_policy(std::move(policy));
}

std::string apply_solver_overrides(sim::SolverOptions& options, const Args& args) {
  for (const std::string& kv : args.values("set")) {
    const auto eq = kv.find('=');
    std::string key = kv.substr(0, eq);
    if (eq == std::string::npos) return "--set expects solver.key=value, got '" + kv + "'";
    if (key.rfind("solver.", 0) != 0) return "--set: only solver.* keys are settable, got '" + key + "'";
    key = key.substr(7);
    if (std::string e = sim::set_solver_option(options, key, kv.substr(eq + 1)); !e.empty()) return "--set: " + e;
  }
  return {};
}

sim::Result<std::string> recording_scene(const std::string& recording_path, const sim::Recording& recording,
                                         const Args& args) {
  if (auto given = args.value("scene")) return *given;
  // A relative scene path is looked up beside the recording first; a path out of its folder
  // tree is refused like any other reference (sim/resource_policy.hpp).
  const std::filesystem::path beside = std::filesystem::path(recording_path).parent_path() / recording.scene_file;
  std::error_code ec;
  if (std::filesystem::path(recording.scene_file).is_relative() && std::filesystem::is_regular_file(beside, ec)) {
    apply_resource_policy(beside.string(), args);
    if (std::string why = sim::check_resource_path(recording_path, beside.string()); !why.empty())
      return sim::Error{recording_path + ": scene " + why};
    return beside.string();
  }
  return recording.scene_file;
}

sim::Result<LoadedScene> load_scene(const std::string& name_or_path, const Args& args) {
  auto path = resolve_scene(name_or_path);
  if (!path) return sim::Error{path.error()};
  apply_resource_policy(*path, args);
  const auto start = std::chrono::steady_clock::now();
  sim::DescriptionOptions description;
  description.urdf_free_base = args.has_flag("free-base");
  auto spec = sim::load_description(*path, description);  // a scene, or a URDF / MJCF robot on a ground plane
  if (!spec) return sim::Error{spec.error()};
  const auto loaded = std::chrono::steady_clock::now();
  if (auto dt = args.value("dt")) {
    double v = 0;
    if (std::string e = parse_number_argument("dt", *dt, kTimeStepRange, v); !e.empty()) return sim::Error{e};
    spec->dt = static_cast<sim::Real>(v);
  }
  if (std::string e = apply_solver_overrides(spec->solver, args); !e.empty()) return sim::Error{e};
  auto model = sim::compile_model(*spec);
  if (!model) return sim::Error{model.error()};
  const auto compiled = std::chrono::steady_clock::now();
  return LoadedScene{std::move(spec.value()), std::move(model.value()),
                     std::chrono::duration<double>(loaded - start).count(),
                     std::chrono::duration<double>(compiled - loaded).count()};
}

std::string load_summary(const LoadedScene& scene) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "loaded in %.3f s", scene.load_seconds);
  std::string out = buf;
  for (const sim::RobotIncludeSpec& r : scene.spec.robots) {
    std::snprintf(buf, sizeof buf, " (robot %s %.3f s: %d bodies, %d joints, %zu import simplifications)",
                  fs::path(r.file).filename().string().c_str(), r.load_seconds, r.body_count, r.joint_count,
                  r.warnings.size());
    out += buf;
  }
  std::snprintf(buf, sizeof buf, ", compiled in %.3f s", scene.compile_seconds);
  out += buf;
  // Each simplification the importers made, one line each ("file:line: <element>: what").
  for (const sim::RobotIncludeSpec& r : scene.spec.robots) {
    if (r.warnings.empty()) continue;
    out += "\n" + fs::path(r.file).filename().string() + ": " + std::to_string(r.warnings.size()) +
           (r.warnings.size() == 1 ? " simplification" : " simplifications") + " on import:";
    for (const std::string& w : r.warnings) out += "\n  " + w;
  }
  // SDF cache entries found damaged (deleted and baked again) or not written.
  for (const auto& mesh : scene.model.meshes)
    for (const std::string& w : mesh->cache_problems) out += "\nwarning: " + w;
  // Robot link pairs overlapping at the initial pose, filtered from self-collision.
  if (const std::string note = sim::describe_initial_overlaps(scene.model); !note.empty()) out += "\n" + note;
  return out;
}

std::vector<std::string> scene_input_files(const LoadedScene& scene) {
  const sim::SceneSpec& spec = scene.spec;
  std::vector<std::string> files{spec.source_file};
  auto add = [&](const std::string& f) {
    if (!f.empty() && std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
  };
  // Every element names the file it came from: the includes are among them.
  for (const auto& x : spec.materials) add(x.source.file);
  for (const auto& x : spec.world_shapes) add(x.source.file);
  for (const auto& x : spec.bodies) {
    add(x.source.file);
    for (const auto& shape : x.shapes) add(shape.source.file);
  }
  for (const auto& x : spec.particles) add(x.source.file);
  for (const auto& x : spec.distances) add(x.source.file);
  for (const auto& x : spec.soft_bodies) add(x.source.file);
  for (const auto& x : spec.joints) add(x.source.file);
  for (const auto& r : spec.robots) add(r.path);
  for (const auto& f : spec.resource_files) add(f);  // meshes, tet meshes, textures, robot meshes
  // Texture grains, relative to the scene's folder.
  const fs::path dir = fs::path(spec.source_file).parent_path();
  auto texture = [&](const sim::StructureFieldSpec& g) {
    if (!g.texture.empty()) add(fs::path(g.texture).is_absolute() ? g.texture : (dir / g.texture).string());
  };
  for (const auto& m : spec.materials) texture(m.structure);
  for (const auto& b : spec.bodies) texture(b.structure);
  return files;
}

bool check_outputs(const Args& args, const char* command, std::initializer_list<const char*> output_options,
                   const std::vector<std::string>& inputs) {
  for (const char* option : output_options)
    if (const auto out = args.value(option))
      if (std::string e = sim::refuse_input_as_output(*out, inputs); !e.empty()) {
        print_error(command, "--" + std::string(option) + " " + e);
        return false;
      }
  return true;
}

bool is_robot_import_error(const std::string& error) {
  return error.find(": <robot>: attribute 'file': cannot import") != std::string::npos;
}

int with_thread_limit(int argc, char** argv, int first, const std::function<int()>& body) {
  std::optional<std::string> value;
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--threads" && i + 1 < argc) value = argv[++i];
    else if (arg.rfind("--threads=", 0) == 0) value = arg.substr(10);
  }
  long long n = 0;
  if (value && parse_integer_argument("threads", *value, 0, kMaxThreads, n).empty() && n > 0) {
    tbb::task_arena arena(static_cast<int>(n));
    return arena.execute(body);
  }
  return body();
}

bool check_common_options(const Args& args, const char* command) {
  int threads = 0;
  double dt = 0;
  return integer_option(args, "threads", command, threads, 0, kMaxThreads) &&
         number_option(args, "dt", command, dt, kTimeStepRange);
}

std::string describe_solver(const sim::SolverOptions& o) {
  char buf[256];
  switch (o.kind) {
    case sim::SolverKind::NonSmoothNewton:
      std::snprintf(buf, sizeof buf, "nsn (%s/%s/%s), at most %d x %d iterations",
                    std::string(sim::to_string(o.ncp)).c_str(), std::string(sim::to_string(o.preconditioner)).c_str(),
                    std::string(sim::to_string(o.linear_solver)).c_str(), o.newton_iterations, o.linear_iterations);
      return buf;
    case sim::SolverKind::ProjectedGaussSeidel:
      std::snprintf(buf, sizeof buf, "pgs: %s, at most %d sweeps, relaxation %.3g",
                    std::string(sim::describe(o.kind)).c_str(), o.pgs_iterations, double(o.pgs_relaxation));
      return buf;
    case sim::SolverKind::DualAscent:
      std::snprintf(buf, sizeof buf, "dual: %s, at most %d iterations, step %.3g%s",
                    std::string(sim::describe(o.kind)).c_str(), o.dual_iterations, double(o.dual_relaxation),
                    o.dual_gauss_seidel ? ", Gauss-Seidel order" : "");
      return buf;
    case sim::SolverKind::PrimalDescent:
      std::snprintf(buf, sizeof buf, "primal: %s, at most %d iterations, step %.3g, k %.3g, k_n %.3g, k_f %.3g",
                    std::string(sim::describe(o.kind)).c_str(), o.primal_iterations, double(o.primal_step),
                    double(o.primal_stiffness), double(o.primal_contact_stiffness), double(o.primal_friction_stiffness));
      return buf;
  }
  return std::string(sim::to_string(o.kind));
}

}  // namespace coulomb
