#pragma once
// An output file derived from the database: the PGN file (and any other per-game text
// output), holding the stored games of one tournament in schedule order, so that at the start
// and at the end of every run it equals `knightly export --tournament NAME`. With `append`
// (fastchess's and cutechess's way) the games follow whatever the file held before the
// tournament's first game: that prefix is kept as it is and the rest equals the export.
//
// - rebuild() rewrites it from the store: a temporary file in the same directory, fsynced,
//   renamed over the old one. A killed run loses nothing: its games are in the database and
//   the next run rebuilds the file first.
// - add() appends a game this process stored once every game between the file's end and it
//   is in (c-chess-cli's sequential writer); games another worker stores, or that fill a gap
//   left earlier, arrive with the next rebuild (at most every few seconds, and at the end).
// - Several processes may share the path (workers of one tournament on one machine): every
//   write happens under an exclusive flock on the file, and a process that finds the file
//   changed by another rebuilds instead of appending.
// Every write is checked: a full disk or an I/O error is an error value naming the file.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <string>

#include "db/records/game_record.h"
#include "db/store/store.h"

namespace knightly::runner {

// One file, one writer: a run holds its output files' claims for as long as it runs. The
// claim is a lock on a file beside the output (PATH.writer) that names the tournament writing
// it (its database and name): any number of workers of that tournament share it, and a run of
// another tournament (or match) that names the same file is refused, naming the one that
// writes it, instead of one tournament's games silently never reaching the file. A process
// that dies lets go of its claim with it (the lock is the kernel's).
class OutputClaim {
 public:
  // `owner`: what identifies the tournament ("DATABASE\nNAME"); `named_by`: the options
  // that name this kind of file, for the refusal ("--pgn, -pgnout, [output] pgn").
  static std::expected<OutputClaim, std::string> take(const std::string& path,
                                                      const std::string& owner,
                                                      const std::string& named_by);
  OutputClaim(OutputClaim&& other) noexcept;
  OutputClaim& operator=(OutputClaim&& other) noexcept;
  OutputClaim(const OutputClaim&) = delete;
  OutputClaim& operator=(const OutputClaim&) = delete;
  ~OutputClaim();

 private:
  explicit OutputClaim(int fd) : fd_(fd) {}
  int fd_ = -1;
};

class GameFile {
 public:
  using Format = std::function<std::string(const GameRecord&)>;
  // `needs_moves`: the format reads record.moves (else only the stored PGN text is read back).
  // `sync`: fsync every write (the run's "full" sync) so the file survives power loss too.
  // `append`: keep what the file holds before this tournament's games (see above).
  GameFile(std::string path, Format format, bool needs_moves, bool sync, bool append = false);

  const std::string& path() const { return path_; }

  // For a new tournament: without `append` the file is emptied (fastchess's append=false);
  // with it the file is left as it is and the games go after it.
  std::expected<void, std::string> start_new();

  std::expected<void, std::string> rebuild(const db::Store& store, std::int64_t tournament_id);

  // `held_here(index)`: the game is being played by this process (a gap that will fill).
  std::expected<void, std::string> add(const db::Store& store, std::int64_t tournament_id,
                                       int schedule_index, const GameRecord& record,
                                       const std::function<bool(int)>& held_here);

  // At the end of a run: rebuilds unless the file is known to hold exactly the stored games.
  std::expected<void, std::string> finish(const db::Store& store, std::int64_t tournament_id);

 private:
  struct Locked;  // an exclusive flock on the file the path names now
  std::expected<Locked, std::string> lock();
  // rebuild(): the stored games as text, written to `fd` as they come (without append).
  struct Collected;
  Collected collect(const db::Store& store, std::int64_t tournament_id, int fd,
                    const std::string& old);
  // rebuild() has replaced the file: what it now holds.
  std::expected<void, std::string> rebuilt(int next, std::int64_t games,
                                           std::chrono::steady_clock::duration cost);
  std::expected<void, std::string> flush_pending(const db::Store& store, std::int64_t tid,
                                                 const std::function<bool(int)>& held_here);
  std::string error(const std::string& what, int err) const;

  std::string path_;
  Format format_;
  bool needs_moves_;
  bool sync_;
  bool append_;
  // What this process last left in the file: anything else means another process wrote it.
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  off_t size_ = -1;
  int next_ = 0;  // schedule index after the last game in the file
  std::int64_t games_in_file_ = 0;
  bool stale_ = false;                  // a stored game is known to be missing from the file
  std::map<int, std::string> pending_;  // own games waiting for the gap before them
  std::chrono::steady_clock::time_point last_rebuild_{};
  std::chrono::steady_clock::duration rebuild_cost_{};
};

}  // namespace knightly::runner
