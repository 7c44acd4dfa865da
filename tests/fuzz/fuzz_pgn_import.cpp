// PGN import into a store (a private in-memory SQLite database): any text imports its
// finished games and reports every other one with a place, never a crash or a store error.
// Importing the same text again adds nothing, and what was imported exports as PGN that reads
// back finished, and that imports again as games already present.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "db/store/store.h"
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "runner/import/pgn_import.h"
#include "tests/fuzz/fuzz_check.h"

using namespace knightly;
using runner::ImportOptions;

namespace {

// Opening a store applies the migrations (milliseconds under ASan): one store serves many
// inputs, each imported into a tournament of its own, and is replaced now and then so that it
// stays small. Inputs meet earlier inputs' games only as duplicates.
db::Store& store_for_next_input(int& input) {
  static std::optional<db::Store> store;
  static int served = 0;
  if (!store || served == 256) {
    store.reset();
    auto opened = db::Store::open(":memory:");
    fuzz::check(opened.has_value(), "an in-memory store opens");
    store = std::move(*opened);
    served = 0;
  }
  input = ++served;
  return *store;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  int input = 0;
  db::Store& store = store_for_next_input(input);
  const std::int64_t before = store.queries().count_games();
  // Every other input goes to the default tournament name ("import fuzz.pgn").
  const ImportOptions options{"fuzz.pgn", input % 2 ? "fuzz " + std::to_string(input) : ""};
  auto first = runner::import_pgn(store, text, options);
  if (!first) {
    fuzz::check(first.error().starts_with("fuzz.pgn:"), "a refused input is located",
                first.error());
    fuzz::check(first.error().find('\n') == std::string::npos, "a refusal is one line",
                first.error());
    return 0;
  }
  for (const auto& m : first->messages) {
    fuzz::check(m.starts_with("fuzz.pgn:"), "a skipped game is located", m);
    for (char c : m)
      fuzz::check(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F,
                  "a message holds no control character", m);
  }
  fuzz::check(
      first->messages.size() == static_cast<std::size_t>(first->unfinished + first->refused),
      "one message per game not imported");
  fuzz::check(store.queries().count_games() == before + first->inserted,
              "the store holds the games inserted");

  // Again in batches of a few bytes (each ends where a game starts, or the text does): the
  // same games, messages and lines as one batch, all of them already present.
  ImportOptions small = options;
  small.batch_bytes = 64;
  auto second = runner::import_pgn(store, text, small);
  fuzz::check(second.has_value(), "the same text imports again");
  fuzz::check(second->inserted == 0, "importing the same text again adds nothing");
  fuzz::check(second->duplicates == first->inserted + first->duplicates,
              "every game is recognised the second time");
  fuzz::check(second->messages == first->messages && second->refused == first->refused &&
                  second->unfinished == first->unfinished,
              "small batches read the games a whole text does", [&] {
                std::string both = std::string(text) + "\n-- one batch:\n";
                for (const auto& m : first->messages) both += m + "\n";
                both += "-- small batches:\n";
                for (const auto& m : second->messages) both += m + "\n";
                return both;
              }());

  std::string exported;
  int games = 0;
  db::GameFilter filter;
  filter.tournaments = {first->tournament};
  if (first->inserted == 0) return 0;
  store.queries().for_each_game(
      filter,
      [&](const db::StoredGame& g) {
        exported += g.record.pgn + "\n";
        ++games;
      },
      false);
  auto back = chess::read_pgn(exported);
  fuzz::check(back.errors.empty() && back.games.size() == static_cast<std::size_t>(games),
              "the export reads back", exported);
  auto third = runner::import_pgn(store, exported, ImportOptions{"export.pgn", "export"});
  fuzz::check(third.has_value() && third->inserted == 0 && third->refused == 0,
              "the export of imported games imports as already present", exported);
  for (const auto& g : back.games) {
    fuzz::check(g.terminated && g.result != "*", "an exported game is finished", exported);
    fuzz::check(g.tag("Termination") != "unterminated", "a finished game is not unterminated",
                exported);
  }
  return 0;
}
