#pragma once
// An xboard (CECP 2) engine as a subprocess: `xboard` + `protover 2` and the feature
// negotiation, `new`/`force`/`variant`/`setboard` and the time control (`level`, `st`, `sd`)
// once per game, the moves the engine has not seen (`usermove` or plain, coordinate notation
// or SAN), `time`/`otim` + `go` for each of its moves, `ping`/`pong` as the ready check,
// thinking output as the move's evaluation, result claims (the match judges them), `result`
// at the end and `quit`. The process and the lines are the UCI player's: an EngineConnection;
// the parsing is xboard_parser (pure).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/players/player.h"
#include "runner/players/player_options.h"
#include "runner/players/xboard_parser.h"

namespace knightly::runner {

class XboardPlayer final : public Player {
 public:
  explicit XboardPlayer(EngineConfig config, PlayerOptions options = {});
  ~XboardPlayer() override;  // quit()
  XboardPlayer(const XboardPlayer&) = delete;
  XboardPlayer& operator=(const XboardPlayer&) = delete;

  const std::string& name() const override;
  std::optional<std::string> start() override;
  bool alive() const override;
  bool new_game(std::chrono::milliseconds timeout) override;
  MoveReply go(const MoveRequest& request, std::chrono::milliseconds deadline) override;
  void end_game(const std::string& result) override;
  void kill() override;
  void quit() override;
  std::string id_name() const override;    // feature myname
  std::string id_author() const override;  // "" (CECP has no author)
  std::vector<std::string> take_warnings() override;

  // What the engine announced with `feature`.
  const xboard::Features& features() const;
  int pid() const;  // 0 when no process is running
  // Lines that were neither CECP nor expected at that point (logged and ignored).
  std::uint64_t garbage_lines() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightly::runner
