#include "cli/cli_common.hpp"

#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "sim/compile.hpp"
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

bool number_option(const Args& args, const char* name, const char* command, double& out) {
  const auto v = args.value(name);
  if (!v) return true;
  try {
    std::size_t used = 0;
    const double x = std::stod(*v, &used);
    if (used == v->size() && std::isfinite(x)) {
      out = x;
      return true;
    }
  } catch (const std::exception&) {
  }
  std::fprintf(stderr, "coulomb %s: --%s needs a number, got '%s'\n", command, name, v->c_str());
  return false;
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
    char* end = nullptr;
    const double v = std::strtod(dt->c_str(), &end);
    if (end == dt->c_str() || *end != '\0' || !(v > 0)) return sim::Error{"--dt: bad value '" + *dt + "'"};
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

bool is_robot_import_error(const std::string& error) {
  return error.find(": <robot>: attribute 'file': cannot import") != std::string::npos;
}

struct ThreadLimit::Impl {
  tbb::global_control control;
  explicit Impl(int n) : control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(n)) {}
};

ThreadLimit::ThreadLimit(const Args& args) {
  if (auto t = args.value("threads")) {
    const int n = std::atoi(t->c_str());
    if (n > 0) impl_ = new Impl(n);
  }
}

ThreadLimit::~ThreadLimit() { delete impl_; }

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
  }
  return std::string(sim::to_string(o.kind));
}

}  // namespace coulomb
