// What the parts of a Store share (store_core.h): the engine-name cache, the tournament
// row reader, the move row reader.
#include "db/store/store_core.h"

#include <algorithm>
#include <bit>

namespace knightly::db {

const std::string& StoreCore::engine_name(std::int64_t id) const {
  auto it = engine_names.find(id);
  if (it == engine_names.end()) {
    Statement st(db, "SELECT id, name FROM engines");
    while (st.step()) engine_names[st.int64(0)] = st.text(1);
    it = engine_names.find(id);
    if (it == engine_names.end()) it = engine_names.emplace(id, "?").first;
  }
  return it->second;
}

Tournament StoreCore::read_tournament(const Statement& st) const {
  Tournament t;
  t.id = st.int64(0);
  t.name = st.text(1);
  t.kind = parse_kind(st.text(2)).value_or(TournamentKind::Run);
  t.config_text = st.text(3);
  t.config_hash = st.text(4);
  t.seed = std::bit_cast<std::uint64_t>(st.int64(5));
  t.status = parse_status(st.text(6)).value_or(TournamentStatus::Running);
  t.started_at = st.text(7);
  t.finished_at = st.text(8);
  return t;
}

std::optional<Tournament> StoreCore::tournament(std::int64_t id) const {
  Statement st(db, std::string("SELECT ") + kTournamentColumns + " FROM tournaments WHERE id = ?");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return read_tournament(st);
}

std::string game_text(std::int64_t tournament_id, const GameId& id) {
  return "storing game (round " + std::to_string(id.round) + ", pair " + std::to_string(id.pair) +
         ", game " + std::to_string(id.game_in_pair) + ") of tournament " +
         std::to_string(tournament_id);
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

MoveRecord read_move(const Statement& ms) {
  MoveRecord m;
  m.uci = ms.text(0);
  m.san = ms.text(1);
  if (!ms.is_null(2)) m.eval.score_cp = ms.int32(2);
  if (!ms.is_null(3)) m.eval.mate = ms.int32(3);
  m.eval.depth = ms.int32(4);
  m.eval.seldepth = ms.int32(5);
  m.eval.nodes = std::bit_cast<std::uint64_t>(ms.int64(6));
  m.time_ms = ms.int64(7);
  m.clock_left_ms = ms.is_null(8) ? -1 : ms.int64(8);
  m.book = ms.int64(9) != 0;
  if (!ms.is_null(10)) m.eval.nps = std::bit_cast<std::uint64_t>(ms.int64(10));
  if (!ms.is_null(11)) m.eval.hashfull = ms.int32(11);
  if (!ms.is_null(12)) m.eval.tbhits = std::bit_cast<std::uint64_t>(ms.int64(12));
  if (!ms.is_null(13)) m.latency_ms = ms.int64(13);
  if (!ms.is_null(14)) m.eval.pv = ms.text(14);
  if (!ms.is_null(15)) {
    const std::string lines = ms.text(15);
    for (std::size_t at = 0; at <= lines.size();) {
      const std::size_t end = std::min(lines.find('\n', at), lines.size());
      m.lines.push_back(lines.substr(at, end - at));
      at = end + 1;
    }
  }
  return m;
}

std::string pair_text(const Claim& c) {
  return "pair (round " + std::to_string(c.round) + ", pair " + std::to_string(c.pair) +
         ") of tournament " + std::to_string(c.tournament_id);
}

}  // namespace knightly::db
