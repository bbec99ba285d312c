// Save's questions before it replaces a file (gui/save_decision.hpp, issue 19 item 2): a
// read-only file and a file with other hard links are asked about, a symbolic link is named
// with its target, a folder is refused; a plain file or a new one asks nothing. And the scene
// writer itself: a read-only scene is not replaced without the yes, and is with it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gui/save_decision.hpp"
#include "sim/scene_io.hpp"
#include "support/scratch_files.hpp"

namespace fs = std::filesystem;

TEST_CASE("save asks before a read-only file or breaking hard links, and names a link's target", "[unit][save]") {
  const fs::path dir = test::scratch_dir("save_decision");
  const fs::path plain = dir / "plain.xml";
  test::write_file(plain, "<scene/>");

  const coulomb::gui::SavePlan fresh = coulomb::gui::plan_save((dir / "new.xml").string());
  CHECK(fresh.error.empty());
  CHECK(fresh.questions.empty());
  CHECK(fresh.notes.empty());
  const coulomb::gui::SavePlan same = coulomb::gui::plan_save(plain.string());
  CHECK(same.questions.empty());
  CHECK_FALSE(same.replace_read_only);

  const fs::path ro = dir / "ro.xml";
  test::write_file(ro, "<scene/>");
  fs::permissions(ro, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const coulomb::gui::SavePlan read_only = coulomb::gui::plan_save(ro.string());
  REQUIRE(read_only.questions.size() == 1);
  CHECK(read_only.questions[0] == ro.string() + " is read-only. Replace it anyway (it stays read-only)?");
  CHECK(read_only.replace_read_only);

  fs::create_hard_link(plain, dir / "other_name.xml");
  const coulomb::gui::SavePlan linked = coulomb::gui::plan_save(plain.string());
  REQUIRE(linked.questions.size() == 1);
  CHECK(linked.questions[0].find("has 1 other hard link, which will keep the previous contents") != std::string::npos);

  fs::create_symlink("ro.xml", dir / "link.xml");
  const coulomb::gui::SavePlan through = coulomb::gui::plan_save((dir / "link.xml").string());
  REQUIRE(through.notes.size() == 1);
  CHECK(through.notes[0] == (dir / "link.xml").string() + " is a symbolic link: saved to its target " + ro.string());
  CHECK(through.questions.size() == 1);  // its target is read-only

  fs::create_symlink("missing.xml", dir / "dangling.xml");
  const coulomb::gui::SavePlan dangling = coulomb::gui::plan_save((dir / "dangling.xml").string());
  REQUIRE(dangling.notes.size() == 1);
  CHECK(dangling.notes[0].find("created its target " + (dir / "missing.xml").string()) != std::string::npos);

  fs::create_directories(dir / "folder.xml");
  CHECK(coulomb::gui::plan_save((dir / "folder.xml").string()).error == (dir / "folder.xml").string() + ": is a folder");
}

TEST_CASE("a read-only scene file is replaced only after the yes, and stays read-only", "[unit][save]") {
  const fs::path dir = test::scratch_dir("save_read_only");
  const fs::path ro = dir / "scene.xml";
  test::write_file(ro, "<scene/>");
  fs::permissions(ro, fs::perms::owner_read);
  sim::SceneSpec spec;
  spec.name = "saved";
  auto refused = sim::save_scene_file(spec, ro.string());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error() == ro.string() + ": cannot write: the file is read-only (not replaced)");
  sim::AtomicWriteOptions yes;
  yes.replace_read_only = true;
  REQUIRE(sim::save_scene_file(spec, ro.string(), yes).ok());
  std::ifstream in(ro);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("saved") != std::string::npos);
  CHECK((fs::status(ro).permissions() & fs::perms::all) == fs::perms::owner_read);
}
