// The one output writer (sim/atomic_file.hpp): a temporary file beside the destination, checked
// writes, fsync, rename, fsync of the folder.
#include "sim/atomic_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <filesystem>
#include <streambuf>

#include "io/fd_io.hpp"

namespace sim {

namespace {

namespace fs = std::filesystem;

std::atomic<const atomic_file_testing::Faults*> g_faults{nullptr};

std::string errno_text(int error) { return std::strerror(error); }

std::string parent_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

// Six letters and digits from getrandom() (a clock and counter mix where it is unavailable).
std::string random_suffix() {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char bytes[6];
  if (::getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bytes)) {
    static std::atomic<unsigned long long> counter{0};
    unsigned long long x = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                           (counter.fetch_add(1) * 0x9e3779b97f4a7c15ull) ^ static_cast<unsigned long long>(::getpid());
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(x >>= 7);
  }
  std::string out;
  for (unsigned char b : bytes) out += kAlphabet[b % (sizeof kAlphabet - 1)];
  return out;
}

// Creates a new file in `dir` for writing: never an existing name, never through a link.
int create_temporary(const std::string& dir, const std::string& base, std::string& name, int& error) {
  std::vector<std::string> tried;
  if (const auto* f = g_faults.load()) tried = f->temp_names;
  error = EEXIST;
  for (int attempt = 0; attempt < 100 && error == EEXIST; ++attempt) {
    const std::string leaf = static_cast<std::size_t>(attempt) < tried.size() ? tried[static_cast<std::size_t>(attempt)]
                                                                            : "." + base + "." + random_suffix() + ".tmp";
    name = (fs::path(dir) / leaf).string();
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    error = errno;
  }
  name.clear();
  return -1;
}

void sync_folder(const std::string& dir) {
  // Makes the rename durable (best effort: not every file system allows fsync on a folder).
  if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
    ::fsync(d);
    ::close(d);
  }
}

}  // namespace

DestinationInfo destination_info(const std::string& path) {
  DestinationInfo info;
  info.target = path;
  if (path.empty()) {
    info.error = "(no file name)";
    return info;
  }
  struct stat st {};
  // Follow a chain of symbolic links by hand, so a dangling one is seen (and written through).
  for (int hops = 0;; ++hops) {
    if (::lstat(info.target.c_str(), &st) != 0) {
      if (errno != ENOENT) info.error = errno_text(errno);
      info.dangling = info.via_symlink;
      return info;
    }
    if (!S_ISLNK(st.st_mode)) break;
    if (hops >= 40) {
      info.error = "too many levels of symbolic links";
      return info;
    }
    info.via_symlink = true;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(info.target.c_str(), buf, sizeof buf - 1);
    if (n < 0) {
      info.error = errno_text(errno);
      return info;
    }
    const fs::path link(std::string(buf, static_cast<std::size_t>(n)));
    info.target = (link.is_absolute() ? link : fs::path(parent_of(info.target)) / link).lexically_normal().string();
  }
  if (S_ISDIR(st.st_mode)) {
    info.error = "is a folder";
    return info;
  }
  if (!S_ISREG(st.st_mode)) {
    info.error = "is not a regular file (a device, FIFO or socket)";
    return info;
  }
  info.exists = true;
  info.hard_links = static_cast<unsigned long>(st.st_nlink);
  info.mode = static_cast<unsigned>(st.st_mode & 07777);
  // No write bit at all counts as read-only even for root, who may write it anyway.
  info.read_only = (st.st_mode & 0222) == 0 || ::access(info.target.c_str(), W_OK) != 0;
  return info;
}

struct AtomicFile::Impl : std::streambuf {
  static constexpr std::size_t kBufferBytes = 1 << 16;
  std::string path, target, temp, error;
  int fd = -1;
  bool done = false;
  bool fd_failed = false;  // a write failed and even its message could not be allocated
  std::size_t written = 0;
  std::unique_ptr<char[]> buffer;
  std::ostream out{this};

  void fail(std::string_view reason) {
    if (error.empty()) {
      error.reserve(path.size() + reason.size() + 40);
      error.append(path).append(": cannot write: ").append(reason).append(" (nothing written)");
    }
    out.setstate(std::ios::badbit);
  }

  // Writes n bytes to the file, with the injected fault if any; false after a failure.
  bool drain(const char* p, std::size_t n) noexcept {
    if (!error.empty() || fd < 0) return false;
    int injected = 0;
    if (const auto* f = g_faults.load(); f && f->write_errno && written + n > f->write_fails_after) {
      const std::size_t allowed = f->write_fails_after > written ? f->write_fails_after - written : 0;
      if (!io::write_all(fd, p, allowed)) injected = errno;
      else injected = f->write_errno;
      n = allowed;
    }
    if (!injected && !io::write_all(fd, p, n)) injected = errno;
    if (injected) {
      try {
        fail(errno_text(injected));
      } catch (...) {  // the message could not be allocated: still failed
        out.setstate(std::ios::badbit);
        fd_failed = true;
      }
      return false;
    }
    written += n;
    return true;
  }

  bool flush_buffer() noexcept {
    const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    setp(buffer.get(), buffer.get() + kBufferBytes);
    return n == 0 || drain(buffer.get(), n);
  }

  void start_buffer() {
    buffer = std::make_unique<char[]>(kBufferBytes);
    setp(buffer.get(), buffer.get() + kBufferBytes);
  }

  bool healthy() const { return fd >= 0 && error.empty() && !fd_failed; }

  // std::streambuf
  int_type overflow(int_type c) override {
    if (!healthy() || !flush_buffer()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    return put(s, static_cast<std::size_t>(n)) ? n : 0;
  }
  int sync() override { return healthy() && flush_buffer() ? 0 : -1; }

  bool put(const char* s, std::size_t n) noexcept {
    if (!healthy()) return false;
    if (n == 0) return true;  // an empty write (an empty vector's data() may be null: no memcpy)
    const std::size_t room = static_cast<std::size_t>(epptr() - pptr());
    if (n <= room) {
      std::memcpy(pptr(), s, n);
      pbump(static_cast<int>(n));
      return true;
    }
    if (!flush_buffer()) return false;
    if (n >= kBufferBytes) return drain(s, n);
    std::memcpy(pptr(), s, n);
    pbump(static_cast<int>(n));
    return true;
  }

  void remove_temporary() noexcept {
    if (fd >= 0) ::close(fd);
    fd = -1;
    if (!temp.empty()) ::unlink(temp.c_str());
    temp.clear();
  }
};

AtomicFile::AtomicFile(std::string path, const AtomicWriteOptions& options) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.path = std::move(path);
  const DestinationInfo info = destination_info(m.path);
  if (!info.error.empty()) {
    m.fail(info.error);
    return;
  }
  if (info.exists && info.read_only && !options.replace_read_only) {
    m.fail("the file is read-only (not replaced)");
    return;
  }
  m.target = info.target;
  const std::string dir = parent_of(m.target);
  int error = 0;
  m.fd = create_temporary(dir, fs::path(m.target).filename().string(), m.temp, error);
  if (m.fd < 0) {
    m.fail("cannot create a temporary file in " + dir + ": " + errno_text(error));
    return;
  }
  // A new file is rw-r--r-- (the temporary's 0600 would hide an output from other users); a
  // replaced file keeps its permissions.
  if (::fchmod(m.fd, info.mode) != 0) {
    const int e = errno;
    m.remove_temporary();
    m.fail("cannot set permissions: " + errno_text(e));
    return;
  }
  m.start_buffer();
}

AtomicFile::~AtomicFile() { abort(); }

bool AtomicFile::ok() const { return impl_->healthy(); }
const std::string& AtomicFile::error() const { return impl_->error; }
const std::string& AtomicFile::path() const { return impl_->path; }
bool AtomicFile::write(std::string_view bytes) noexcept { return impl_->put(bytes.data(), bytes.size()); }
std::ostream& AtomicFile::stream() { return impl_->out; }

std::string AtomicFile::commit() {
  Impl& m = *impl_;
  if (m.done) return m.error.empty() ? m.path + ": cannot write: already committed or aborted" : m.error;
  m.done = true;
  if (m.healthy()) m.flush_buffer();
  if (m.healthy()) {
    const auto* f = g_faults.load();
    if (f && f->fsync_errno) m.fail("fsync: " + errno_text(f->fsync_errno));
    else if (::fsync(m.fd) != 0) m.fail("fsync: " + errno_text(errno));
  }
  if (m.fd >= 0) {
    const int closed = ::close(m.fd);
    const int e = errno;
    m.fd = -1;
    if (closed != 0 && m.error.empty()) m.fail("close: " + errno_text(e));
  }
  if (m.error.empty() && !m.fd_failed) {
    const auto* f = g_faults.load();
    if (f && f->rename_errno) m.fail("rename: " + errno_text(f->rename_errno));
    else if (::rename(m.temp.c_str(), m.target.c_str()) != 0) m.fail("rename: " + errno_text(errno));
    else {
      m.temp.clear();  // it is the destination now
      sync_folder(parent_of(m.target));
      return {};
    }
  }
  m.remove_temporary();
  if (m.error.empty()) m.fail("out of memory");
  return m.error;
}

void AtomicFile::abort() noexcept {
  if (!impl_) return;
  impl_->done = true;
  impl_->remove_temporary();
}

std::string write_file_atomically(const std::string& path, std::initializer_list<std::string_view> parts,
                                  const AtomicWriteOptions& options) {
  AtomicFile file(path, options);
  for (std::string_view part : parts)
    if (!file.write(part)) break;
  return file.commit();
}

std::string refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (output.empty() || ::stat(output.c_str(), &out) != 0) return {};
  for (const std::string& input : inputs) {
    struct stat in {};
    if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
      return output + ": is an input of this run (" + input + "); refusing to overwrite it";
  }
  return {};
}

namespace atomic_file_testing {
void set_faults(const Faults* faults) { g_faults.store(faults); }
}  // namespace atomic_file_testing

}  // namespace sim
