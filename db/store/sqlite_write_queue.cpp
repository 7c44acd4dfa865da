#include "db/store/sqlite_write_queue.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <thread>

namespace knightly::db {

namespace {

// The file's one page: a state word, then the mutex. The state goes from 0 (a new, zeroed
// file) to kInitializing (one opener won the right to set the mutex up) to kReady.
constexpr std::uint32_t kInitializing = 1;
constexpr std::uint32_t kReady = 0x4B4E5131;  // "KNQ1": this layout, set up
constexpr off_t kFileSize = 4096;

// A shared mapping is one memory, and a futex wakes its waiters, only among the processes of
// one kernel: on a network file system (NFS, SMB, sshfs) two machines would each see their own
// copy of the page, and a waiter could wait for a wake-up that never comes. The queue is used
// on the local file systems named here; anywhere else the busy handler orders the writers.
bool local_file_system(const std::string& database_path) {
  std::string dir = std::filesystem::path(database_path).parent_path().string();
  if (dir.empty()) dir = ".";
  struct statfs fs {};
  if (::statfs(dir.c_str(), &fs) != 0) return false;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0xEF53:      // ext2, ext3, ext4
    case 0x58465342:  // xfs
    case 0x9123683E:  // btrfs
    case 0x01021994:  // tmpfs
    case 0x858458F6:  // ramfs
    case 0x2FC12FC1:  // zfs
    case 0xF2F52010:  // f2fs
    case 0x794C7630:  // overlayfs (containers)
    case 0xCA451A4E:  // bcachefs
      return true;
    default:
      return false;
  }
}

bool same_file(int fd, const std::string& path) {
  struct stat open_file {
  }, named{};
  return ::fstat(fd, &open_file) == 0 && ::stat(path.c_str(), &named) == 0 &&
         open_file.st_dev == named.st_dev && open_file.st_ino == named.st_ino;
}

}  // namespace

struct SqliteWriteQueue::Shared {
  std::atomic<std::uint32_t> state;
  pthread_mutex_t mutex;
};

namespace {

// A robust, process-shared mutex that reports relocking by its holder (EDEADLK).
bool set_up(SqliteWriteQueue::Shared& shared) {
  pthread_mutexattr_t attr;
  if (pthread_mutexattr_init(&attr) != 0) return false;
  const bool ok = pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED) == 0 &&
                  pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST) == 0 &&
                  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK) == 0 &&
                  pthread_mutex_init(&shared.mutex, &attr) == 0;
  pthread_mutexattr_destroy(&attr);
  if (ok) shared.state.store(kReady, std::memory_order_release);
  return ok;
}

}  // namespace

std::unique_ptr<SqliteWriteQueue> SqliteWriteQueue::open(const std::string& database_path) {
  static_assert(sizeof(Shared) <= std::size_t(kFileSize));
  static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
  if (!local_file_system(database_path)) return nullptr;
  const std::string path = database_path + "-lock";
  // A few tries: the file found may be deleted by the last process closing it, between this
  // process's open and its flock.
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return nullptr;
    auto give_up = [fd] {
      ::close(fd);
      return nullptr;
    };
    int rc;
    do rc = ::flock(fd, LOCK_SH);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) return give_up();
    if (!same_file(fd, path)) {  // deleted (or replaced) by a process closing it: open anew
      ::close(fd);
      continue;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) return give_up();
    if (st.st_size < kFileSize && ::ftruncate(fd, kFileSize) != 0) return give_up();
    void* map = ::mmap(nullptr, kFileSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return give_up();
    auto* shared = static_cast<Shared*>(map);
    std::uint32_t expected = 0;
    if (shared->state.compare_exchange_strong(expected, kInitializing)) {
      expected = set_up(*shared) ? kReady : kInitializing;
    } else {
      // Another opener is setting it up: a few microseconds.
      for (int i = 0; i < 1000 && expected == kInitializing; ++i) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        expected = shared->state.load(std::memory_order_acquire);
      }
      // One that died doing so left it half made: set it up again if no other process has the
      // file open (an exclusive flock granted), else leave the queue unused.
      if (expected == kInitializing && ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
        expected = set_up(*shared) ? kReady : kInitializing;
        ::flock(fd, LOCK_SH);
      }
    }
    if (expected != kReady) {  // not set up, or not a file of this layout
      ::munmap(map, kFileSize);
      return give_up();
    }
    return std::unique_ptr<SqliteWriteQueue>(new SqliteWriteQueue(path, fd, shared));
  }
  return nullptr;
}

SqliteWriteQueue::SqliteWriteQueue(std::string path, int fd, Shared* shared)
    : path_(std::move(path)), fd_(fd), shared_(shared) {}

SqliteWriteQueue::~SqliteWriteQueue() {
  ::munmap(shared_, kFileSize);
  // The last user deletes the file: an exclusive flock is granted only when no other process
  // holds its shared one. (Converting drops the shared lock first; when refused, this process
  // is closing anyway.)
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0 && same_file(fd_, path_)) ::unlink(path_.c_str());
  ::close(fd_);
}

SqliteWriteQueue::Entered SqliteWriteQueue::enter(std::chrono::steady_clock::time_point deadline) {
  // steady_clock is CLOCK_MONOTONIC (libstdc++), the clock the wait is measured on.
  const auto since_epoch = deadline.time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
  timespec until{};
  until.tv_sec = static_cast<time_t>(seconds.count());
  until.tv_nsec = static_cast<long>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch - seconds).count());
  switch (pthread_mutex_clocklock(&shared_->mutex, CLOCK_MONOTONIC, &until)) {
    case 0:
      return Entered::Yes;
    case EOWNERDEAD:
      // Its holder died (SIGKILL) in a transaction; SQLite rolls that back on its own.
      pthread_mutex_consistent(&shared_->mutex);
      return Entered::Yes;
    case ETIMEDOUT:
      return Entered::TimedOut;
    default:  // EDEADLK: held by this thread through another connection; ENOTRECOVERABLE
      return Entered::Skipped;
  }
}

void SqliteWriteQueue::leave() noexcept {
  pthread_mutex_unlock(&shared_->mutex);
}

}  // namespace knightly::db
