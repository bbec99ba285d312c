#include "sim/recording.hpp"

#include "sim/atomic_file.hpp"
#include "sim/load_limits.hpp"

#include <cmath>
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
// (their sessions started without either, as a fresh state has none). Version 3 adds each step's
// Control::soft_pressure (soft-body active pressure, issue 14 item 5); version 2 steps had none.
constexpr char kMagic[8] = {'C', 'O', 'U', 'L', 'R', 'E', 'C', '3'};
constexpr char kMagicV2[8] = {'C', 'O', 'U', 'L', 'R', 'E', 'C', '2'};
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

// Reads with every count checked before anything is allocated: against its documented bound
// (sim/load_limits.hpp) and against the bytes the file has left, so a damaged count is an error
// naming the byte offset, never a huge allocation.
class Reader {
 public:
  Reader(std::istream& in, std::uint64_t size) : in_(in), size_(size) {}
  std::uint64_t offset() { return static_cast<std::uint64_t>(in_.tellg()); }
  std::uint64_t remaining() {
    const std::uint64_t at = offset();
    return at <= size_ ? size_ - at : 0;
  }
  template <class T>
  bool pod(T& v) { return static_cast<bool>(in_.read(reinterpret_cast<char*>(&v), sizeof v)); }
  bool string(std::string& s) {
    std::uint32_t n = 0;
    if (!pod(n) || n > (1u << 20) || n > remaining()) return false;
    s.resize(n);
    return static_cast<bool>(in_.read(s.data(), n));
  }
  // A length-prefixed vector; false (with `why` set when a bound was broken) if it does not fit.
  template <class T>
  bool vector(std::vector<T>& v, std::string& why) {
    std::uint64_t n = 0;
    const std::uint64_t at = offset();
    if (!pod(n)) return false;
    if (n > limits::kMaxRecordingVector) {
      why = "a vector of " + std::to_string(n) + " elements at byte " + std::to_string(at) + " (at most " +
            std::to_string(limits::kMaxRecordingVector) + ")";
      return false;
    }
    if (n * sizeof(T) > remaining()) {
      why = "a vector of " + std::to_string(n) + " elements at byte " + std::to_string(at) + " runs past the end (" +
            std::to_string(remaining()) + " bytes left)";
      return false;
    }
    v.resize(n);
    return static_cast<bool>(in_.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(T))));
  }

 private:
  std::istream& in_;
  std::uint64_t size_;
};

// The first non-finite entry of `v` ("q[3] = nan"), or "".
std::string first_non_finite(const char* name, const std::vector<Real>& v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      return std::string(name) + "[" + std::to_string(i) + "] = " + (std::isnan(v[i]) ? "nan" : v[i] > 0 ? "inf" : "-inf");
  return {};
}

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
  // Through the one output writer (sim/atomic_file.hpp): a new temporary file beside `path`,
  // never a fixed name, never through a planted link; fsync, rename.
  AtomicFile file(path);
  {
    std::ostream& out = file.stream();
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
      w.vector(c.soft_pressure);
    }
    w.pod(r.final_hash);
  }
  if (std::string e = file.commit(); !e.empty()) return Error{e};
  return true;
}

Result<Recording> load_recording(const std::string& path) {
  // Refused before opening: a FIFO would block in open(), a device never ends.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return Error{path + ": cannot open (no such file)"};
  if (!std::filesystem::is_regular_file(status)) return Error{path + ": cannot open (not a regular file)"};
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return Error{path + ": cannot open (" + ec.message() + ")"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open"};
  char magic[8] = {};
  in.read(magic, sizeof magic);
  const bool v1 = in && std::memcmp(magic, kMagicV1, sizeof magic) == 0;
  const bool v2 = in && std::memcmp(magic, kMagicV2, sizeof magic) == 0;
  if (!in || (!v1 && !v2 && std::memcmp(magic, kMagic, sizeof magic) != 0)) return Error{path + ": not a Coulomb recording"};
  Reader rd(in, size);
  Recording r;
  std::uint32_t real_size = 0, key_count = 0;
  std::string why;
  auto bad = [&](const char* what) {
    const std::string at = in ? " at byte " + std::to_string(rd.offset()) : std::string();
    return Error{path + ": truncated or corrupt recording (" + what + (why.empty() ? at : ": " + why) + ")"};
  };
  if (!rd.pod(real_size) || real_size != sizeof(Real)) return Error{path + ": recorded with another Real precision"};
  if (!rd.string(r.scene_file)) return bad("scene");
  if (!rd.pod(key_count) || key_count > 1000) return bad("options");
  // Recordings made before max_depenetration_velocity existed ran eq. 9 unbounded; newer ones
  // store the key and override this.
  r.options.max_depenetration_velocity = std::numeric_limits<Real>::infinity();
  // Likewise those made before rope_geometric_stiffness existed solved ropes and cloth with the
  // diagonal secant alone.
  r.options.rope_geometric_stiffness = false;
  // And those made before implicit_gyroscopic existed integrated the gyroscopic term explicitly.
  r.options.implicit_gyroscopic = false;
  // And those made before step_retries existed left a failed step failed.
  r.options.step_retries = 0;
  // And those made before friction_merit_natural_map existed (or before it was on by default,
  // which stored it as well) measured friction in the merit by the rows' residual.
  r.options.friction_merit_natural_map = false;
  for (std::uint32_t i = 0; i < key_count; ++i) {
    std::string k, v;
    if (!rd.string(k) || !rd.string(v)) return bad("options");
    if (std::string e = set_solver_option(r.options, k, v); !e.empty()) return Error{path + ": " + e};
  }
  if (std::string e = check_solver_counts(r.options); !e.empty()) return Error{path + ": " + e};
  std::int32_t nb = 0, np = 0, nj = 0;
  if (!rd.pod(r.dt) || !rd.pod(nb) || !rd.pod(np) || !rd.pod(nj)) return bad("model");
  if (!(std::isfinite(r.dt) && r.dt > 0)) return Error{path + ": recorded time step " + std::to_string(r.dt) + " is not a finite number > 0"};
  if (nb < 0 || np < 0 || nj < 0 || nb > limits::kMaxBodyCount || np > limits::kMaxParticleCount || nj > limits::kMaxBodyCount)
    return bad("model counts out of range");
  r.body_count = nb;
  r.particle_count = np;
  r.joint_count = nj;
  if (!rd.vector(r.initial.q, why) || !rd.vector(r.initial.u, why) || !rd.pod(r.initial.time) ||
      !rd.pod(r.initial.step_index))
    return bad("initial state");
  if (!v1 && (!rd.vector(r.initial.joint_position, why) || !rd.vector(r.initial.warm_start.contact_key, why) ||
              !rd.vector(r.initial.warm_start.contact_lambda, why) || !rd.vector(r.initial.warm_start.row_lambda, why)))
    return bad("initial state");
  // A non-finite initial state would reach collision detection (issue 13: NaN separations gave
  // a face index of -1); refused here with what and where.
  for (const auto& [name, v] : {std::pair{"q", &r.initial.q}, std::pair{"u", &r.initial.u},
                                std::pair{"joint_position", &r.initial.joint_position}})
    if (std::string e = first_non_finite(name, *v); !e.empty())
      return Error{path + ": the recorded initial state is not finite (" + e + ")"};
  if (!std::isfinite(r.initial.time)) return Error{path + ": the recorded initial time is not finite"};
  std::uint64_t steps = 0;
  const std::uint64_t steps_at = rd.offset();
  if (!rd.pod(steps)) return bad("steps");
  // Each step holds at least its four vectors' lengths (8 bytes each).
  constexpr std::uint64_t kMinStepBytes = 4 * sizeof(std::uint64_t);
  if (steps > limits::kMaxRecordingSteps || steps > rd.remaining() / kMinStepBytes) {
    why = "a step count of " + std::to_string(steps) + " at byte " + std::to_string(steps_at) +
          (steps > limits::kMaxRecordingSteps ? " (at most " + std::to_string(limits::kMaxRecordingSteps) + ")"
                                              : " does not fit in the " + std::to_string(rd.remaining()) + " bytes left");
    return bad("steps");
  }
  r.controls.resize(steps);
  for (Control& c : r.controls)
    if (!rd.vector(c.joint_target, why) || !rd.vector(c.joint_target_velocity, why) || !rd.vector(c.body_wrench, why) ||
        !rd.vector(c.particle_force, why) || (!v1 && !v2 && !rd.vector(c.soft_pressure, why)))
      return bad("controls");
  for (std::size_t i = 0; i < r.controls.size(); ++i)
    if (std::string e = first_non_finite("soft_pressure", r.controls[i].soft_pressure); !e.empty())
      return Error{path + ": step " + std::to_string(i) + "'s control is not finite (" + e + ")"};
  if (!rd.pod(r.final_hash)) return bad("final hash");
  return r;
}

}  // namespace sim
