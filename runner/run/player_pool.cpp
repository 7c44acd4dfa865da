#include "runner/run/player_pool.h"

#include <algorithm>

#include "runner/players/player_factory.h"

namespace knightly::runner {

PlayerPool::PlayerPool(const Config& config, const PlayerOptions& options, EngineStarts& shared)
    : config_(config),
      options_(options),
      shared_(shared),
      players_(config.engines.size()),
      made_for_(config.engines) {}

PlayerPool::~PlayerPool() {
  for (auto& p : players_) {
    try {
      if (p) p->quit();
    } catch (...) {
    }
  }
}

void PlayerPool::use(std::vector<EngineConfig> engines) {
  for (std::size_t i = 0; i < players_.size(); ++i)
    if (players_[i] && !(engines[i] == made_for_[i])) {
      players_[i]->quit();
      players_[i].reset();
    }
  made_for_ = std::move(engines);
}

bool PlayerPool::start(Game& game, int white, int black) {
  for (int idx : {white, black}) {
    auto& p = players_[std::size_t(idx)];
    if (!p) p = make_player(made_for_[std::size_t(idx)], options_);
    if (p->alive()) continue;
    const std::string& name = config_.engines[std::size_t(idx)].name;
    if (auto e = p->start()) {
      if (shared_.ever_started_[idx].load()) {
        forfeit(game, idx, idx == white ? chess::White : chess::Black, *e);
        continue;
      }
      shared_.events_.fail(Failure::Engine, "engine '" + name + "' could not be started: " + *e);
      return false;
    }
    shared_.ever_started_[idx] = true;
    shared_.versions_.identified(idx, p->id_name(), p->id_author());
    for (const auto& w : p->take_warnings()) {
      std::lock_guard lock(shared_.events_.mutex());
      shared_.events_.observer().on_warning(name + ": " + w);
      shared_.events_.log().line("Warning: " + name + ": " + w);
    }
  }
  return true;
}

void PlayerPool::forfeit(Game& game, int engine, chess::Color side, const std::string& why) {
  const std::string& name = config_.engines[std::size_t(engine)].name;
  game.forfeit(side, Termination::Disconnect, "could not be restarted: " + why);
  std::lock_guard lock(shared_.events_.mutex());
  auto& failures = shared_.failures_;
  auto it = std::find_if(failures.begin(), failures.end(),
                         [&](const EngineFailure& f) { return f.engine == name; });
  if (it == failures.end()) {
    failures.push_back({name, why, 0});
    it = failures.end() - 1;
    shared_.events_.observer().on_warning("engine '" + name + "' could not be restarted: " + why +
                                          "; its games are lost by forfeit until it starts again");
  }
  ++it->games_lost;
}

void PlayerPool::game_over(int white, int black) {
  for (int idx : {white, black})
    if (config_.engines[std::size_t(idx)].restart && players_[std::size_t(idx)])
      players_[std::size_t(idx)]->quit();
}

}  // namespace knightly::runner
