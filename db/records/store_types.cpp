#include "db/records/store_types.h"

namespace knightly::db {

const char* kind_text(TournamentKind kind) {
  switch (kind) {
    case TournamentKind::Run:
      return "run";
    case TournamentKind::Sprt:
      return "sprt";
    case TournamentKind::Import:
      return "import";
  }
  return "run";
}

const char* status_text(TournamentStatus status) {
  switch (status) {
    case TournamentStatus::Running:
      return "running";
    case TournamentStatus::Finished:
      return "finished";
    case TournamentStatus::Aborted:
      return "aborted";
    case TournamentStatus::Restarted:
      return "restarted";
  }
  return "running";
}

std::optional<TournamentKind> parse_kind(std::string_view text) {
  for (auto k : {TournamentKind::Run, TournamentKind::Sprt, TournamentKind::Import})
    if (text == kind_text(k)) return k;
  return std::nullopt;
}

std::optional<TournamentStatus> parse_status(std::string_view text) {
  for (auto s : {TournamentStatus::Running, TournamentStatus::Finished, TournamentStatus::Aborted,
                 TournamentStatus::Restarted})
    if (text == status_text(s)) return s;
  return std::nullopt;
}

}  // namespace knightly::db
