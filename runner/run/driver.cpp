#include "runner/run/driver.h"

#include <optional>

namespace knightly::runner {

void play_game(Game& game, Player& white, Player& black, const DriverOptions& options,
               const StopToken* stop, DriverStats* stats,
               const std::function<void(const Game&)>& on_move) {
  using SteadyClock = std::chrono::steady_clock;
  std::optional<SteadyClock::time_point> last_reply;
  Player* players[2] = {&white, &black};
  std::vector<std::string> ponder_moves;  // the request start_ponder views
  for (chess::Color c : {chess::White, chess::Black}) {
    if (game.finished()) break;
    if (!players[c]->new_game(options.ready_timeout)) {
      bool dead = !players[c]->alive();
      game.forfeit(c, dead ? Termination::Disconnect : Termination::Stall);
      players[c]->kill();
    }
  }
  while (!game.finished()) {
    if (stop && stop->abandoning()) {
      game.interrupt();
      break;
    }
    MoveRequest request = game.next_command();
    Player& mover = *players[request.side];
    std::chrono::milliseconds deadline =
        request.budget_ms ? std::chrono::milliseconds(*request.budget_ms) + options.stall_grace
                          : options.untimed_deadline;
    if (stats && last_reply)
      stats->latency_ns.push_back(
          std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now() - *last_reply)
              .count());
    MoveReply reply = mover.go(request, deadline);
    if (stats) {
      last_reply = SteadyClock::now();
      ++stats->moves;
    }
    game.on_reply(reply);
    if (on_move && !game.finished()) on_move(game);
    // A faulty engine is killed here and restarted for its next game; the game is over.
    if (reply.status != MoveReply::Status::Move || game.termination() == Termination::IllegalMove) {
      mover.kill();
    } else if (!reply.ponder.empty()) {
      // It thinks on the reply it expects while the opponent thinks (if it ponders at all).
      if (auto ponder = game.ponder_command(reply.ponder, ponder_moves))
        mover.start_ponder(*ponder);
    }
  }
  const std::string result = std::string(result_token(game.result())) + " {" + game.reason() + "}";
  for (Player* p : players)
    if (p->alive()) p->end_game(result);
}

}  // namespace knightly::runner
