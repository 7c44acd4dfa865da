#include "runner/run/game_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace knightly::runner {

// A file descriptor closed when it goes (named, not anonymous: GameFile::Locked holds one).
namespace game_file_io {

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // close() reports delayed write errors (NFS, some full disks): checked where it matters.
  bool close_checked() {
    int fd = fd_;
    fd_ = -1;
    return fd < 0 || ::close(fd) == 0;
  }

 private:
  int fd_;
};

}  // namespace game_file_io

using game_file_io::Fd;

namespace {

// Writes all of `text`, retrying short writes and EINTR; errno is kept on failure.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = EIO;
      return false;
    }
    text.remove_prefix(std::size_t(n));
  }
  return true;
}

std::string directory_of(const std::string& path) {
  auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

std::atomic<unsigned> temp_counter{0};

}  // namespace

namespace {

// An OFD lock on the whole file (released when the last descriptor of this open goes):
// F_WRLCK or F_RDLCK, waiting or not; false with errno set when it is not taken.
bool ofd_lock(int fd, short type, bool wait) {
  struct flock fl {};
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  int r;
  while ((r = ::fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl)) != 0 && errno == EINTR) {
  }
  return r == 0;
}

std::string read_small(int fd) {
  char buf[4096];
  const ssize_t n = ::pread(fd, buf, sizeof buf, 0);
  return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

}  // namespace

std::expected<OutputClaim, std::string> OutputClaim::take(const std::string& path,
                                                          const std::string& owner,
                                                          const std::string& named_by) {
  const std::string marker = path + ".writer";
  Fd fd(::open(marker.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (fd.get() < 0)
    return std::unexpected("cannot open " + marker + " (the claim on " + path +
                           "): " + std::strerror(errno));
  // Nobody holds it: name ourselves, then share it with our tournament's other workers (an
  // OFD lock turns from write to read atomically, so no other claim slips in between).
  if (ofd_lock(fd.get(), F_WRLCK, false)) {
    if (::ftruncate(fd.get(), 0) != 0 ||
        ::pwrite(fd.get(), owner.data(), owner.size(), 0) != ssize_t(owner.size()))
      return std::unexpected("cannot write " + marker + ": " + std::strerror(errno));
    ofd_lock(fd.get(), F_RDLCK, true);
    return OutputClaim(fd.release());
  }
  if (errno != EAGAIN && errno != EACCES)
    return std::unexpected("cannot lock " + marker + ": " + std::strerror(errno));
  // Held: by workers of a tournament (read locks), or by a claim being written (a moment).
  if (!ofd_lock(fd.get(), F_RDLCK, true))
    return std::unexpected("cannot lock " + marker + ": " + std::strerror(errno));
  const std::string holder = read_small(fd.get());
  if (holder == owner) return OutputClaim(fd.release());
  const auto newline = holder.find('\n');
  const std::string db = holder.substr(0, newline);
  const std::string name = newline == std::string::npos ? "" : holder.substr(newline + 1);
  return std::unexpected(path + " is being written by tournament '" + name + "' (database " + db +
                         "), which is running: one file has one writer; give this run another "
                         "file (" +
                         named_by + ")");
}

OutputClaim::OutputClaim(OutputClaim&& other) noexcept : fd_(other.fd_) {
  other.fd_ = -1;
}

OutputClaim& OutputClaim::operator=(OutputClaim&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

OutputClaim::~OutputClaim() {
  if (fd_ >= 0) ::close(fd_);
}

struct GameFile::Locked {
  Fd fd;
  struct stat st {};
};

GameFile::GameFile(std::string path, Format format, bool needs_moves, bool sync, bool append)
    : path_(std::move(path)),
      format_(std::move(format)),
      needs_moves_(needs_moves),
      sync_(sync),
      append_(append) {}

std::string GameFile::error(const std::string& what, int err) const {
  return "cannot " + what + " " + path_ + ": " + std::strerror(err);
}

std::expected<GameFile::Locked, std::string> GameFile::lock() {
  for (int attempt = 0; attempt < 100; ++attempt) {
    Locked l;
    l.fd = Fd(::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
    if (l.fd.get() < 0) return std::unexpected(error("open the output file", errno));
    int r;
    while ((r = ::flock(l.fd.get(), LOCK_EX)) != 0 && errno == EINTR) {
    }
    if (r != 0) return std::unexpected(error("lock the output file", errno));
    if (::fstat(l.fd.get(), &l.st) != 0) return std::unexpected(error("stat", errno));
    // Another process may have renamed a rebuilt file over the one we locked: lock that.
    struct stat now {};
    if (::stat(path_.c_str(), &now) == 0 && now.st_dev == l.st.st_dev && now.st_ino == l.st.st_ino)
      return l;
  }
  return std::unexpected("cannot lock the output file " + path_ +
                         ": it keeps being replaced by another process");
}

std::expected<void, std::string> GameFile::start_new() {
  if (append_) return {};
  auto locked = lock();
  if (!locked) return std::unexpected(locked.error());
  if (::ftruncate(locked->fd.get(), 0) != 0) return std::unexpected(error("empty", errno));
  return {};
}

namespace {

// The whole file at `path` into `text` ("" when there is none); 0, or errno when it cannot be read.
int read_whole(const std::string& path, std::string& text) {
  Fd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) return errno == ENOENT ? 0 : errno;
  char chunk[1 << 16];
  for (ssize_t n; (n = ::read(in.get(), chunk, sizeof chunk)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    text.append(chunk, std::size_t(n));
  }
  return 0;
}

}  // namespace

// What a rebuild writes after the part of the old file it keeps.
struct GameFile::Collected {
  std::string buffer;                   // not written yet
  std::size_t cut = std::string::npos;  // with append: where this tournament's games start
  int next = 0;
  std::int64_t games = 0;
  int write_errno = 0;
};

GameFile::Collected GameFile::collect(const db::Store& store, std::int64_t tournament_id, int fd,
                                      const std::string& old) {
  Collected c;
  db::GameFilter filter;
  filter.tournament_ids = {tournament_id};
  store.queries().for_each_game(
      filter,
      [&](const db::StoredGame& g) {
        if (c.write_errno) return;
        std::string text = format_(g.record);
        if (append_ && c.cut == std::string::npos && !old.empty()) {
          c.cut = old.rfind(text);
          // A game written live may differ from its rebuilt text in a per-move field; its
          // tags (a PGN's first block) do not.
          if (c.cut == std::string::npos && text.find("\n\n") != std::string::npos)
            c.cut = old.rfind(text.substr(0, text.find("\n\n") + 2));
        }
        c.buffer += text;
        c.next = std::max(c.next, g.record.id.index + 1);
        ++c.games;
        if (!append_ && c.buffer.size() >= (1u << 20)) {
          if (!write_all(fd, c.buffer)) c.write_errno = errno;
          c.buffer.clear();
        }
      },
      needs_moves_);
  return c;
}

std::expected<void, std::string> GameFile::rebuild(const db::Store& store,
                                                   std::int64_t tournament_id) {
  const auto t0 = std::chrono::steady_clock::now();
  auto locked = lock();
  if (!locked) return std::unexpected(locked.error());
  const std::string dir = directory_of(path_);
  const std::string name = std::filesystem::path(path_).filename().string();
  const std::string temp = dir + "/." + name + ".tmp." + std::to_string(::getpid()) + "." +
                           std::to_string(temp_counter.fetch_add(1));
  Fd out(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (out.get() < 0) return std::unexpected(error("create a temporary file beside", errno));
  auto fail = [&](const std::string& what, int err) -> std::expected<void, std::string> {
    out.reset();
    ::unlink(temp.c_str());
    return std::unexpected(error(what, err));
  };

  // With `append`, the file as it is: what comes before this tournament's first game in it
  // (the last place its text is found) is kept; a file without any of its games is kept whole.
  std::string old;
  if (append_)
    if (int e = read_whole(path_, old)) return fail("read", e);
  Collected c;
  try {
    c = collect(store, tournament_id, out.get(), old);
  } catch (...) {
    out.reset();
    ::unlink(temp.c_str());
    throw;  // a store error: the caller reports it as one
  }
  if (c.write_errno) return fail("write", c.write_errno);
  if (append_ && !write_all(out.get(), std::string_view(old).substr(0, c.cut)))
    return fail("write", errno);
  if (!write_all(out.get(), c.buffer)) return fail("write", errno);
  if (sync_ && ::fsync(out.get()) != 0) return fail("write (fsync)", errno);
  if (!out.close_checked()) return fail("write (close)", errno);
  if (::rename(temp.c_str(), path_.c_str()) != 0) {
    int e = errno;
    ::unlink(temp.c_str());
    return std::unexpected(error("replace", e));
  }
  if (sync_) {
    Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (d.get() >= 0) ::fsync(d.get());
  }
  return rebuilt(c.next, c.games, std::chrono::steady_clock::now() - t0);
}

std::expected<void, std::string> GameFile::rebuilt(int next, std::int64_t games,
                                                   std::chrono::steady_clock::duration cost) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) return std::unexpected(error("stat", errno));
  dev_ = st.st_dev;
  ino_ = st.st_ino;
  size_ = st.st_size;
  next_ = next;
  games_in_file_ = games;
  stale_ = false;
  // Games up to the file's end are in it; later ones still wait for their turn.
  pending_.erase(pending_.begin(), pending_.lower_bound(next_));
  last_rebuild_ = std::chrono::steady_clock::now();
  rebuild_cost_ = cost;
  return {};
}

std::expected<void, std::string> GameFile::add(const db::Store& store, std::int64_t tournament_id,
                                               int schedule_index, const GameRecord& record,
                                               const std::function<bool(int)>& held_here) {
  if (schedule_index < next_) {
    // A gap before the file's end (a pair replayed after an interruption, or one another
    // worker gave up): its place is in the middle, so the next rebuild puts it there.
    stale_ = true;
  } else {
    pending_[schedule_index] = format_(record);
  }
  return flush_pending(store, tournament_id, held_here);
}

std::expected<void, std::string> GameFile::flush_pending(
    const db::Store& store, std::int64_t tid, const std::function<bool(int)>& held_here) {
  const auto now = std::chrono::steady_clock::now();
  // A rebuild reads every stored game: at most every few seconds, and at most ~5% of the time.
  const auto interval =
      std::max<std::chrono::steady_clock::duration>(std::chrono::seconds(2), rebuild_cost_ * 20);
  const bool rebuild_due = now - last_rebuild_ >= interval;
  if (pending_.empty() || pending_.begin()->first != next_) {
    // The head of the file is not here: a game in progress in this process will fill it;
    // otherwise another worker (or nobody, for now) holds it, and a rebuild catches up.
    const bool waiting_here = held_here && held_here(next_);
    if ((stale_ || !pending_.empty()) && !waiting_here && rebuild_due) return rebuild(store, tid);
    return {};
  }
  auto locked = lock();
  if (!locked) return std::unexpected(locked.error());
  if (locked->st.st_dev != dev_ || locked->st.st_ino != ino_ || locked->st.st_size != size_) {
    // Another process wrote the file since we did (or nobody has yet): our picture of what it
    // holds is out of date, so it is rebuilt (which includes our games) when one is due.
    locked->fd.reset();
    if (rebuild_due || size_ < 0) return rebuild(store, tid);
    return {};
  }
  std::string text;
  int games = 0;
  for (auto it = pending_.begin(); it != pending_.end() && it->first == next_;) {
    text += it->second;
    ++next_;
    ++games;
    it = pending_.erase(it);
  }
  if (!write_all(locked->fd.get(), text) || (sync_ && ::fsync(locked->fd.get()) != 0)) {
    int e = errno;
    // Leave no half-written game behind: the file keeps what it had.
    [[maybe_unused]] int r = ::ftruncate(locked->fd.get(), size_);
    return std::unexpected(error("write", e));
  }
  size_ += off_t(text.size());
  games_in_file_ += games;
  return {};
}

std::expected<void, std::string> GameFile::finish(const db::Store& store,
                                                  std::int64_t tournament_id) {
  db::GameFilter filter;
  filter.tournament_ids = {tournament_id};
  struct stat st {};
  const bool unchanged = ::stat(path_.c_str(), &st) == 0 && st.st_dev == dev_ &&
                         st.st_ino == ino_ && st.st_size == size_;
  if (unchanged && !stale_ && pending_.empty() &&
      store.queries().count_games(filter) == games_in_file_)
    return {};
  return rebuild(store, tournament_id);
}

}  // namespace knightly::runner
