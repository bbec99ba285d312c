// The one writer of every output file (issue 19): scene saves, session recordings, `run --record`
// / `--trace`, `replay --csv`, baked .vdb files and SDF cache entries, tet meshes, solve
// captures, textures, PNG frames and screenshots. The bytes go to a new temporary file in the
// destination's folder (a random name, created with O_CREAT|O_EXCL|O_NOFOLLOW: a link planted at
// any name is never followed, and no fixed name such as <name>.tmp is used); every write and the
// close are checked; the file is fsync'ed, renamed over the destination and the folder fsync'ed.
// Any failure is a message naming the file and the reason (strerror), the previous file is left
// as it was and the temporary is removed. The destination is resolved first (destination_info):
// a symbolic link is written through to its target (as the shell's `>` does), a folder or a
// special file is refused, and so is a read-only file unless the caller allows it (the app asks).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace sim {

struct AtomicWriteOptions {
  // Replace a file without write permission (the app's Save after the user said yes); otherwise
  // such a file is refused ("is read-only").
  bool replace_read_only = false;
};

// What replacing `path` would do (no side effects; the app's Save asks from this).
struct DestinationInfo {
  std::string target;      // the file actually written: `path`, or where its symbolic link(s) lead
  std::string error;       // why it cannot be written at all (a folder, a special file, a link loop)
  bool exists = false;     // `target` exists (a regular file)
  bool via_symlink = false;  // `path` is a symbolic link (written through to `target`)
  bool dangling = false;     // ... whose target does not exist yet (it is created)
  bool read_only = false;    // `target` has no write permission (for its owner, or for this process)
  unsigned long hard_links = 0;  // `target`'s link count: > 1 means the other names keep the old bytes
  unsigned mode = 0644;      // the permissions the new file gets (the replaced file's, else 0644)
};
DestinationInfo destination_info(const std::string& path);

// Writes the concatenated `parts` to `path` as described above; "" on success, else
// "<path>: cannot write: <reason> (nothing written)".
std::string write_file_atomically(const std::string& path, std::initializer_list<std::string_view> parts,
                                  const AtomicWriteOptions& options = {});

// A file written over time (`run --record`, `--trace`): opened beside the destination at once,
// written through a fixed buffer (no allocation and no exception per write: after the first
// failure writes are dropped and the failure is kept), and made visible only by commit(). Until
// then the destination keeps its previous bytes; abort() or the destructor removes the
// temporary. stream() is an std::ostream over the same buffer (its badbit is set on failure).
class AtomicFile {
 public:
  explicit AtomicFile(std::string path, const AtomicWriteOptions& options = {});
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The temporary file exists and no write has failed so far.
  bool ok() const;
  // The first failure ("<path>: cannot write: <reason> (nothing written)"), "" when none.
  const std::string& error() const;
  const std::string& path() const;

  bool write(std::string_view bytes) noexcept;
  std::ostream& stream();
  // Flush, fsync, close, rename over the destination, fsync of the folder: "" on success, else
  // the failure (the temporary is removed, the destination untouched). Once only.
  std::string commit();
  // Removes the temporary; the destination is untouched. Safe to call more than once.
  void abort() noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// "" when writing `output` would not replace one of `inputs` (the same file, compared by device
// and inode, so another spelling or a link to it counts); else "<output>: is an input of this
// run (<input>); refusing to overwrite it".
std::string refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs);

// Test seam: faults injected into every AtomicFile / write_file_atomically of this process
// (tests only; not thread-safe against writers running meanwhile).
namespace atomic_file_testing {
struct Faults {
  int write_errno = 0;                // a write past `write_fails_after` bytes fails with this (ENOSPC)
  std::size_t write_fails_after = 0;
  int fsync_errno = 0;                // fsync of the file fails with this
  int rename_errno = 0;               // the rename fails with this
  std::vector<std::string> temp_names;  // names (in the destination folder) tried first for the temporary
};
// Installs `faults` (nullptr: none) until the next call; the pointee must outlive its use.
void set_faults(const Faults* faults);
}  // namespace atomic_file_testing

}  // namespace sim
