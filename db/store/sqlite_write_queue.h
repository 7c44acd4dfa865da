#pragma once
// The queue in which Knightly's processes wait for an SQLite database's write lock.
//
// SQLite's own locks cannot be waited on: a writer that finds the database locked polls (our
// busy handler sleeps 0.05 to 0.4 ms between tries), so when several processes take turns the
// lock lies idle between one's COMMIT and the next one's wake-up, and four processes of one game
// thread each stored games at about half the rate of one process of four threads. This queue is
// a process-shared, robust pthread mutex in a small file next to the database
// (`knightly.db-lock`): a writer takes it before BEGIN IMMEDIATE and gives it back after COMMIT
// or ROLLBACK, and the kernel wakes the next waiter at once (a futex), as a mutex does threads.
//
// It only orders Knightly's own writers; SQLite's locks still decide who may write, so a writer
// outside the queue (the sqlite3 shell, a process of an older Knightly) is waited for by the
// busy handler as before, and a queue that cannot be used (a directory that cannot be written,
// a network file system, where a futex does not reach the other machines) only costs speed.
// - A wait is bounded: it gives up at a deadline (the busy timeout), so a writer stopped while
//   holding the lock (SIGSTOP) is reported as a lock held past the busy timeout, not waited
//   for forever.
// - A holder killed (SIGKILL) leaves the mutex to the next waiter (robust mutex: EOWNERDEAD);
//   SQLite rolls the dead writer's transaction back on its own.
// - Every process holds a shared flock on the file while it has it open; the last one to close
//   it (an exclusive flock granted) deletes it, so a database closed by everyone leaves no
//   file behind, like SQLite's -wal and -shm.
#include <chrono>
#include <memory>
#include <string>

namespace knightly::db {

class SqliteWriteQueue {
 public:
  // The queue of the database at `database_path`, or null when it cannot be used (the reason
  // is not an error: SQLite's busy handler still orders the writers).
  static std::unique_ptr<SqliteWriteQueue> open(const std::string& database_path);
  ~SqliteWriteQueue();
  SqliteWriteQueue(const SqliteWriteQueue&) = delete;
  SqliteWriteQueue& operator=(const SqliteWriteQueue&) = delete;

  enum class Entered {
    Yes,       // this thread holds the queue until leave()
    TimedOut,  // another writer held it until the deadline
    Skipped,   // not held, and not waited for: this thread already holds it (a second
               // connection to the same database), or the queue is broken; SQLite's busy
               // handler orders this writer
  };
  Entered enter(std::chrono::steady_clock::time_point deadline);
  void leave() noexcept;

  const std::string& path() const { return path_; }

  struct Shared;  // the file's contents

 private:
  SqliteWriteQueue(std::string path, int fd, Shared* shared);

  std::string path_;
  int fd_ = -1;
  Shared* shared_ = nullptr;  // mapped from the file
};

}  // namespace knightly::db
