#include "sim/recording.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace sim {

namespace {

// Version 2 adds the state's joint positions and warm-start multipliers (everything the future
// depends on, so a session recorded from any step replays bit for bit); version 1 files still load
// (their sessions started without either, as a fresh state has none).
constexpr char kMagic[8] = {'C', 'O', 'U', 'L', 'R', 'E', 'C', '2'};
constexpr char kMagicV1[8] = {'C', 'O', 'U', 'L', 'R', 'E', 'C', '1'};

class Writer {
 public:
  explicit Writer(std::ostream& out) : out_(out) {}
  template <class T>
  void pod(const T& v) { out_.write(reinterpret_cast<const char*>(&v), sizeof v); }
  void string(const std::string& s) {
    pod(static_cast<std::uint32_t>(s.size()));
    out_.write(s.data(), static_cast<std::streamsize>(s.size()));
  }
  template <class T>
  void vector(const std::vector<T>& v) {
    pod(static_cast<std::uint64_t>(v.size()));
    out_.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
  }

 private:
  std::ostream& out_;
};

class Reader {
 public:
  explicit Reader(std::istream& in) : in_(in) {}
  template <class T>
  bool pod(T& v) { return static_cast<bool>(in_.read(reinterpret_cast<char*>(&v), sizeof v)); }
  bool string(std::string& s) {
    std::uint32_t n = 0;
    if (!pod(n) || n > (1u << 20)) return false;
    s.resize(n);
    return static_cast<bool>(in_.read(s.data(), n));
  }
  template <class T>
  bool vector(std::vector<T>& v, std::uint64_t limit) {
    std::uint64_t n = 0;
    if (!pod(n) || n > limit) return false;
    v.resize(n);
    return static_cast<bool>(in_.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(T))));
  }

 private:
  std::istream& in_;
};

}  // namespace

void Recording::begin(const std::string& scene, const Model& model, const SolverOptions& o, const State& state) {
  scene_file = scene;
  options = o;
  dt = model.dt;
  body_count = model.body_count;
  particle_count = model.particle_count;
  joint_count = model.joint_count;
  initial = state;
  controls.clear();
  final_hash = 0;
}

std::string Recording::mismatch(const Model& model) const {
  if (model.body_count != body_count || model.particle_count != particle_count || model.joint_count != joint_count)
    return "recording is for a model with " + std::to_string(body_count) + " bodies, " +
           std::to_string(particle_count) + " particles and " + std::to_string(joint_count) +
           " joints; this one has " + std::to_string(model.body_count) + ", " +
           std::to_string(model.particle_count) + " and " + std::to_string(model.joint_count);
  if (static_cast<int>(initial.q.size()) != model.coord_count() || static_cast<int>(initial.u.size()) != model.dof_count())
    return "recording's state has the wrong size for this model";
  return {};
}

Result<bool> save_recording(const Recording& r, const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path temp = target.parent_path() / (target.filename().string() + ".tmp");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return Error{path + ": cannot write"};
    Writer w(out);
    out.write(kMagic, sizeof kMagic);
    w.pod(static_cast<std::uint32_t>(sizeof(Real)));
    w.string(r.scene_file);
    const std::vector<std::string> keys = solver_option_keys();
    w.pod(static_cast<std::uint32_t>(keys.size()));
    for (const std::string& k : keys) {
      w.string(k);
      w.string(get_solver_option(r.options, k));
    }
    w.pod(r.dt);
    w.pod(static_cast<std::int32_t>(r.body_count));
    w.pod(static_cast<std::int32_t>(r.particle_count));
    w.pod(static_cast<std::int32_t>(r.joint_count));
    w.vector(r.initial.q);
    w.vector(r.initial.u);
    w.pod(r.initial.time);
    w.pod(r.initial.step_index);
    w.vector(r.initial.joint_position);
    w.vector(r.initial.warm_start.contact_key);
    w.vector(r.initial.warm_start.contact_lambda);
    w.vector(r.initial.warm_start.row_lambda);
    w.pod(static_cast<std::uint64_t>(r.controls.size()));
    for (const Control& c : r.controls) {
      w.vector(c.joint_target);
      w.vector(c.joint_target_velocity);
      w.vector(c.body_wrench);
      w.vector(c.particle_force);
    }
    w.pod(r.final_hash);
    out.flush();
    if (!out) return Error{path + ": write failed"};
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) return Error{path + ": cannot replace (" + ec.message() + ")"};
  return true;
}

Result<Recording> load_recording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open"};
  char magic[8] = {};
  in.read(magic, sizeof magic);
  const bool v1 = in && std::memcmp(magic, kMagicV1, sizeof magic) == 0;
  if (!in || (!v1 && std::memcmp(magic, kMagic, sizeof magic) != 0)) return Error{path + ": not a Coulomb recording"};
  Reader rd(in);
  Recording r;
  std::uint32_t real_size = 0, key_count = 0;
  auto bad = [&](const char* what) { return Error{path + ": truncated or corrupt recording (" + what + ")"}; };
  if (!rd.pod(real_size) || real_size != sizeof(Real)) return Error{path + ": recorded with another Real precision"};
  if (!rd.string(r.scene_file)) return bad("scene");
  if (!rd.pod(key_count) || key_count > 1000) return bad("options");
  // Recordings made before max_depenetration_velocity existed ran eq. 9 unbounded; newer ones
  // store the key and override this.
  r.options.max_depenetration_velocity = std::numeric_limits<Real>::infinity();
  for (std::uint32_t i = 0; i < key_count; ++i) {
    std::string k, v;
    if (!rd.string(k) || !rd.string(v)) return bad("options");
    if (std::string e = set_solver_option(r.options, k, v); !e.empty()) return Error{path + ": " + e};
  }
  std::int32_t nb = 0, np = 0, nj = 0;
  if (!rd.pod(r.dt) || !rd.pod(nb) || !rd.pod(np) || !rd.pod(nj)) return bad("model");
  r.body_count = nb;
  r.particle_count = np;
  r.joint_count = nj;
  constexpr std::uint64_t kLimit = 1ull << 28;
  if (!rd.vector(r.initial.q, kLimit) || !rd.vector(r.initial.u, kLimit) || !rd.pod(r.initial.time) ||
      !rd.pod(r.initial.step_index))
    return bad("initial state");
  if (!v1 && (!rd.vector(r.initial.joint_position, kLimit) || !rd.vector(r.initial.warm_start.contact_key, kLimit) ||
              !rd.vector(r.initial.warm_start.contact_lambda, kLimit) ||
              !rd.vector(r.initial.warm_start.row_lambda, kLimit)))
    return bad("initial state");
  std::uint64_t steps = 0;
  if (!rd.pod(steps) || steps > kLimit) return bad("steps");
  r.controls.resize(steps);
  for (Control& c : r.controls)
    if (!rd.vector(c.joint_target, kLimit) || !rd.vector(c.joint_target_velocity, kLimit) ||
        !rd.vector(c.body_wrench, kLimit) || !rd.vector(c.particle_force, kLimit))
      return bad("controls");
  if (!rd.pod(r.final_hash)) return bad("final hash");
  return r;
}

}  // namespace sim
