// The one output writer (sim/atomic_file.hpp, issue 19): every writer that goes through it keeps
// the previous file and fails with the file's name and the reason when a write fails part way
// (an injected ENOSPC, and a real full tmpfs where this process may mount one); no temporary is
// left; a link planted at a name the writer tries is never followed; links at the destination
// are written through; read-only files, folders and special files are refused; an output that
// is an input is refused. Also the escaping of control characters in messages (sim/escape.hpp).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "render/offscreen.hpp"
#include "sdf/sdf_cache.hpp"
#include "sim/atomic_file.hpp"
#include "sim/escape.hpp"
#include "sim/recording.hpp"
#include "sim/scene_io.hpp"
#include "sim/sdf.hpp"
#include "sim/structure_texture.hpp"
#include "sim/tet_mesh_io.hpp"
#include "support/scene_builders.hpp"
#include "support/scratch_files.hpp"

namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The names in `dir` (sorted), to see that nothing but the expected files is left.
std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Installs faults for the scope.
struct ScopedFaults {
  sim::atomic_file_testing::Faults faults;
  explicit ScopedFaults(sim::atomic_file_testing::Faults f) : faults(std::move(f)) { sim::atomic_file_testing::set_faults(&faults); }
  ~ScopedFaults() { sim::atomic_file_testing::set_faults(nullptr); }
};

// One writer of the project, writing its output to the given path; "" or its error message.
struct NamedWriter {
  const char* name;
  const char* file;
  std::function<std::string(const std::string&)> write;
};

sim::SceneSpec small_scene() {
  sim::SceneSpec spec;
  spec.name = "atomic";
  const int m = test::add_material(spec, "steel", sim::Real(0.5));
  spec.world_shapes.push_back(test::ground_plane(m));
  test::add_body(spec, "box", sim::Vec3(0, 0, 1), 2, test::box_shape(sim::Vec3(0.1, 0.1, 0.1), m));
  return spec;
}

std::vector<NamedWriter> all_writers() {
  static const sim::SceneSpec spec = small_scene();
  static const sim::Model model = test::compile(spec);
  sim::StructureTexture texture;
  texture.width = texture.height = 4;
  texture.texels.assign(3 * 16, 0.5f);
  sim::TriangleMesh mesh;
  mesh.vertices = {sim::Vec3(0, 0, 0), sim::Vec3(1, 0, 0), sim::Vec3(0, 1, 0), sim::Vec3(0, 0, 1)};
  mesh.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  sim::TetMesh tets;
  tets.points = mesh.vertices;
  tets.tets = {{0, 1, 2, 3}};
  const std::string big(100000, 'x');
  return {
      {"write_file_atomically", "out.bin", [big](const std::string& p) { return sim::write_file_atomically(p, {big}); }},
      {"AtomicFile streamed", "trace.json",
       [](const std::string& p) {
         sim::AtomicFile f(p);
         for (int i = 0; i < 20000; ++i) f.stream() << "{\"step\": " << i << "},\n";
         return f.commit();
       }},
      {"save_scene_file", "scene.xml",
       [](const std::string& p) {
         auto r = sim::save_scene_file(spec, p);
         return r ? std::string() : r.error();
       }},
      {"save_recording", "session.rec",
       [](const std::string& p) {
         sim::Recording rec;
         rec.begin("atomic", model, model.solver, sim::make_initial_state(model));
         for (int i = 0; i < 50; ++i) rec.record(sim::make_initial_control(model));
         auto r = sim::save_recording(rec, p);
         return r ? std::string() : r.error();
       }},
      {"save_structure_texture png", "grain.png", [texture](const std::string& p) { return sim::save_structure_texture(texture, p); }},
      {"save_structure_texture exr", "grain.exr", [texture](const std::string& p) { return sim::save_structure_texture(texture, p); }},
      {"save_obj", "mesh.obj", [mesh](const std::string& p) { return sim::save_obj(mesh, p); }},
      {"write_gmsh_msh", "tets.msh", [tets](const std::string& p) { return sim::write_gmsh_msh(tets, p); }},
      {"write_sdf_cache_entry", "entry.vdb",
       [big](const std::string& p) { return sim::detail::write_sdf_cache_entry(p, {0.1, 3, true, true}, big); }},
      {"render::write_png", "frame.png",
       [](const std::string& p) {
         std::vector<std::uint8_t> rgba(64 * 64 * 4, 200);
         auto r = render::write_png(p, 64, 64, rgba);
         return r ? std::string() : r.error();
       }},
  };
}

}  // namespace

TEST_CASE("every writer on a failing write keeps the previous file, names it and leaves no temporary", "[unit][io][atomic]") {
  for (const NamedWriter& w : all_writers()) {
    SECTION(w.name) {
      const fs::path dir = test::scratch_dir(std::string("atomic_enospc_") + w.file);
      const fs::path path = dir / w.file;
      test::write_file(path, "previous contents");
      // Each write past the first 16 bytes fails with ENOSPC, as a full disk does.
      ScopedFaults faults({ENOSPC, 16, 0, 0, {}});
      const std::string error = w.write(path.string());
      INFO(error);
      CHECK(error.find(path.string()) != std::string::npos);
      CHECK(error.find(std::strerror(ENOSPC)) != std::string::npos);
      CHECK(read_all(path) == "previous contents");
      CHECK(listing(dir) == std::vector<std::string>{w.file});
    }
  }
}

TEST_CASE("every writer writes its file whole when nothing fails, with no temporary left", "[unit][io][atomic]") {
  for (const NamedWriter& w : all_writers()) {
    SECTION(w.name) {
      const fs::path dir = test::scratch_dir(std::string("atomic_ok_") + w.file);
      const fs::path path = dir / w.file;
      test::write_file(path, "previous contents");
      fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
      CHECK(w.write(path.string()) == "");
      CHECK(read_all(path) != "previous contents");
      CHECK(fs::file_size(path) > 16);
      CHECK(listing(dir) == std::vector<std::string>{w.file});
      // The replaced file's permissions are kept; a new file is rw-r--r--.
      CHECK((fs::status(path).permissions() & fs::perms::all) ==
            (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
      const fs::path fresh = dir / (std::string("new_") + w.file);
      CHECK(w.write(fresh.string()) == "");
      CHECK((fs::status(fresh).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write |
                                                                    fs::perms::group_read | fs::perms::others_read));
    }
  }
}

TEST_CASE("a failing fsync or rename keeps the previous file and says which step failed", "[unit][io][atomic]") {
  const fs::path dir = test::scratch_dir("atomic_fsync_rename");
  const fs::path path = dir / "out.txt";
  test::write_file(path, "previous");
  {
    ScopedFaults faults({0, 0, EIO, 0, {}});
    const std::string e = sim::write_file_atomically(path.string(), {"new bytes"});
    CHECK(e == path.string() + ": cannot write: fsync: " + std::strerror(EIO) + " (nothing written)");
  }
  {
    ScopedFaults faults({0, 0, 0, EXDEV, {}});
    const std::string e = sim::write_file_atomically(path.string(), {"new bytes"});
    CHECK(e == path.string() + ": cannot write: rename: " + std::strerror(EXDEV) + " (nothing written)");
  }
  CHECK(read_all(path) == "previous");
  CHECK(listing(dir) == std::vector<std::string>{"out.txt"});
}

TEST_CASE("a streamed output is invisible until commit, abort or destruction keeps the previous file", "[unit][io][atomic]") {
  const fs::path dir = test::scratch_dir("atomic_stream");
  const fs::path path = dir / "record.csv";
  test::write_file(path, "previous");
  {
    sim::AtomicFile f(path.string());
    REQUIRE(f.ok());
    f.stream() << "t,x\n0,1\n";
    CHECK(read_all(path) == "previous");
    CHECK(listing(dir).size() == 2);  // the temporary beside it
    f.abort();
    CHECK(listing(dir) == std::vector<std::string>{"record.csv"});
    CHECK(f.commit() != "");  // nothing to commit after abort
  }
  {
    sim::AtomicFile f(path.string());
    f.write("interrupted");
  }  // destroyed without commit
  CHECK(read_all(path) == "previous");
  CHECK(listing(dir) == std::vector<std::string>{"record.csv"});
  {
    sim::AtomicFile f(path.string());
    f.write("t,x\n");
    f.stream() << 0 << ',' << 1.5 << '\n';
    CHECK(f.commit() == "");
  }
  CHECK(read_all(path) == "t,x\n0,1.5\n");
}

TEST_CASE("a link planted at any name the writer tries for its temporary is not followed", "[unit][io][atomic]") {
  const fs::path dir = test::scratch_dir("atomic_planted_links");
  const fs::path victim = dir / "victim.txt";
  test::write_file(victim, "victim");
  // The names a careless writer would use (and the old fixed <name>.tmp of save_recording):
  // each a link to the victim, a dangling link, offered to the writer first.
  const std::vector<std::string> planted = {"out.rec.tmp", ".out.rec.tmp", ".out.rec.AAAAAA", "out.rec.tmp0"};
  for (const std::string& name : planted) fs::create_symlink(victim, dir / name);
  fs::create_symlink(dir / "nowhere", dir / "dangling.tmp");
  std::vector<std::string> offered = planted;
  offered.push_back("dangling.tmp");
  ScopedFaults faults({0, 0, 0, 0, offered});
  const fs::path path = dir / "out.rec";
  CHECK(sim::write_file_atomically(path.string(), {"session bytes"}) == "");
  CHECK(read_all(path) == "session bytes");
  CHECK(read_all(victim) == "victim");
  CHECK_FALSE(fs::exists(dir / "nowhere"));
  for (const std::string& name : planted) CHECK(fs::is_symlink(dir / name));
  CHECK(listing(dir).size() == planted.size() + 3);  // links, victim, dangling link, output
}

TEST_CASE("a symbolic link at the destination is written through to its target", "[unit][io][atomic]") {
  const fs::path dir = test::scratch_dir("atomic_through_link");
  fs::create_directories(dir / "real");
  const fs::path target = dir / "real" / "scene.xml";
  test::write_file(target, "old");
  fs::create_symlink("real/scene.xml", dir / "link.xml");
  const sim::DestinationInfo info = sim::destination_info((dir / "link.xml").string());
  CHECK(info.via_symlink);
  CHECK_FALSE(info.dangling);
  CHECK(fs::equivalent(info.target, target));
  CHECK(sim::write_file_atomically((dir / "link.xml").string(), {"new"}) == "");
  CHECK(fs::is_symlink(dir / "link.xml"));
  CHECK(read_all(target) == "new");
  CHECK(listing(dir / "real") == std::vector<std::string>{"scene.xml"});
  // A dangling link creates its target and stays a link.
  fs::create_symlink("real/later.xml", dir / "dangling.xml");
  CHECK(sim::destination_info((dir / "dangling.xml").string()).dangling);
  CHECK(sim::write_file_atomically((dir / "dangling.xml").string(), {"created"}) == "");
  CHECK(fs::is_symlink(dir / "dangling.xml"));
  CHECK(read_all(dir / "real" / "later.xml") == "created");
}

TEST_CASE("read-only files, folders and special files are refused, a read-only file is replaced when allowed", "[unit][io][atomic]") {
  const fs::path dir = test::scratch_dir("atomic_refusals");
  const fs::path ro = dir / "ro.txt";
  test::write_file(ro, "kept");
  fs::permissions(ro, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  CHECK(sim::destination_info(ro.string()).read_only);
  CHECK(sim::write_file_atomically(ro.string(), {"x"}) == ro.string() + ": cannot write: the file is read-only (not replaced) (nothing written)");
  CHECK(read_all(ro) == "kept");
  sim::AtomicWriteOptions allow;
  allow.replace_read_only = true;
  CHECK(sim::write_file_atomically(ro.string(), {"replaced"}, allow) == "");
  CHECK(read_all(ro) == "replaced");
  CHECK((fs::status(ro).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read));

  fs::create_directories(dir / "folder");
  CHECK(sim::write_file_atomically((dir / "folder").string(), {"x"}).find("is a folder") != std::string::npos);
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
  CHECK(sim::write_file_atomically((dir / "fifo").string(), {"x"}).find("not a regular file") != std::string::npos);
  CHECK(sim::write_file_atomically((dir / "no_such_folder" / "x").string(), {"x"}).find(std::strerror(ENOENT)) !=
        std::string::npos);
}

TEST_CASE("an output that is one of the inputs is refused, whatever its spelling", "[unit][io][atomic]") {
  const fs::path dir = test::scratch_dir("atomic_input_output");
  const fs::path scene = dir / "scene.xml";
  test::write_file(scene, "<scene/>");
  fs::create_symlink("scene.xml", dir / "alias.xml");
  fs::create_hard_link(scene, dir / "hard.xml");
  const std::vector<std::string> inputs{(dir / "include.xml").string(), scene.string()};
  for (const fs::path& out : {scene, dir / "alias.xml", dir / "hard.xml", dir / "." / "scene.xml"}) {
    const std::string e = sim::refuse_input_as_output(out.string(), inputs);
    CHECK(e == out.string() + ": is an input of this run (" + scene.string() + "); refusing to overwrite it");
  }
  CHECK(sim::refuse_input_as_output((dir / "trace.json").string(), inputs) == "");
  test::write_file(dir / "other.json", "{}");
  CHECK(sim::refuse_input_as_output((dir / "other.json").string(), inputs) == "");
}

TEST_CASE("on a real full file system the write fails and the previous file stays", "[unit][io][atomic]") {
  // A 32 KiB tmpfs in a private mount namespace of a child process (a user namespace where
  // needed); where this system allows neither, the test is skipped.
  int pipe_fd[2];
  REQUIRE(::pipe(pipe_fd) == 0);
  const fs::path dir = test::scratch_dir("atomic_tmpfs");
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(pipe_fd[0]);
    auto report = [&](const std::string& text, int code) {
      (void)!::write(pipe_fd[1], text.data(), text.size());
      ::_exit(code);
    };
    if (::unshare(CLONE_NEWNS) != 0) {
      const uid_t uid = ::getuid();
      const gid_t gid = ::getgid();
      if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) report(std::string("unshare: ") + std::strerror(errno), 77);
      auto put = [](const char* file, const std::string& text) {
        const int fd = ::open(file, O_WRONLY);
        const bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
        if (fd >= 0) ::close(fd);
        return ok;
      };
      put("/proc/self/setgroups", "deny");
      if (!put("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
          !put("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1"))
        report("cannot map the user namespace", 77);
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=32k") != 0)
      report(std::string("mount tmpfs: ") + std::strerror(errno), 77);
    const fs::path path = dir / "out.vdb";
    if (!sim::write_file_atomically(path.string(), {std::string(1000, 'p')}).empty()) report("cannot write the previous file", 1);
    const std::string e = sim::write_file_atomically(path.string(), {std::string(1 << 20, 'n')});
    std::error_code ec;
    const std::size_t left = static_cast<std::size_t>(std::distance(fs::directory_iterator(dir, ec), fs::directory_iterator()));
    const bool kept = read_all(path) == std::string(1000, 'p');
    report(e + "\n" + (kept ? "kept" : "replaced") + " " + std::to_string(left), e.find(std::strerror(ENOSPC)) != std::string::npos && kept && left == 1 ? 0 : 1);
  }
  ::close(pipe_fd[1]);
  std::string text;
  char buf[512];
  for (ssize_t n; (n = ::read(pipe_fd[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  ::close(pipe_fd[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) {
    WARN("skipped: no private tmpfs here (" + text + ")");
    return;
  }
  INFO(text);
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(text.find("(nothing written)\nkept 1") != std::string::npos);
}

TEST_CASE("control characters from files are escaped in messages", "[unit][io][escape]") {
  CHECK(sim::escape_control_characters("a\x1b[2J\rb") == "a\\x1b[2J\\x0db");
  CHECK(sim::escape_control_characters("tab\there\nline") == "tab\there\\x0aline");
  CHECK(sim::escape_control_characters("tab\there\nline", true) == "tab\there\nline");
  CHECK(sim::escape_control_characters("del\x7f") == "del\\x7f");
  CHECK(sim::escape_control_characters("c1 \xc2\x9b" "31m") == "c1 \\u009b31m");  // U+009B, CSI
  CHECK(sim::escape_control_characters("lone \x9b byte") == "lone \\x9b byte");
  CHECK(sim::escape_control_characters("caf\xc3\xa9 \xe2\x82\xac \\x1b") == "caf\xc3\xa9 \xe2\x82\xac \\x1b");  // UTF-8 and backslashes as they are
  // Through a loader: a malformed number holding an ESC sequence, and a file name with one.
  auto spec = sim::parse_scene_xml("<scene>\n<material name=\"steel\" friction=\"0.3\x1b[2J\"/>\n</scene>", "bad\x1b]0;title\x07.xml");
  REQUIRE_FALSE(spec.ok());
  INFO(spec.error());
  CHECK(spec.error().find('\x1b') == std::string::npos);
  CHECK(spec.error().find('\x07') == std::string::npos);
  CHECK(spec.error().rfind("bad\\x1b]0;title\\x07.xml:2: ", 0) == 0);
  CHECK(spec.error().find("\\x1b[2J") != std::string::npos);
}
