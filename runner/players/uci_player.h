#pragma once
// A UCI engine as a subprocess: the UCI dialogue (uci/uciok, options, isready/readyok,
// ucinewgame, position + go/bestmove, stop, quit) and its faults. The process and the lines
// to and from it (started, read and written with deadlines on the calling thread, logged,
// ended) are an EngineConnection, the same as the xboard player's.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/players/player.h"
#include "runner/players/player_options.h"
#include "runner/players/uci_parser.h"

namespace knightly::runner {

class UciPlayer final : public Player {
 public:
  explicit UciPlayer(EngineConfig config, PlayerOptions options = {});
  ~UciPlayer() override;  // quit()
  UciPlayer(const UciPlayer&) = delete;
  UciPlayer& operator=(const UciPlayer&) = delete;

  const std::string& name() const override;
  std::optional<std::string> start() override;
  bool alive() const override;
  bool new_game(std::chrono::milliseconds timeout) override;
  MoveReply go(const MoveRequest& cmd, std::chrono::milliseconds deadline) override;
  // With EngineConfig::ponder: `go ponder` (Player::start_ponder); the game's end stops it.
  void start_ponder(const MoveRequest& cmd) override;
  void end_game(const std::string& result) override;
  void kill() override;
  void quit() override;
  std::string id_name() const override;
  std::string id_author() const override;
  std::vector<std::string> take_warnings() override;

  // What the engine listed between `uci` and `uciok`.
  const std::vector<uci::OptionDecl>& engine_options() const;
  int pid() const;  // 0 when no process is running
  // Number of lines that were neither UCI nor expected at that point (logged and ignored).
  std::uint64_t garbage_lines() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `position ...` and `go ...` lines for `cmd`, appended to `out` (exposed for tests).
void append_position_and_go(const MoveRequest& cmd, std::string& out);

}  // namespace knightly::runner
