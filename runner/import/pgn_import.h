#pragma once
// PGN text into a store: what `knightly import` does. Each game is
// replayed by the PGN reader; a finished game becomes a record whose ending comes from the
// reason cutechess and fastchess write in the last comment, else the Termination tag, else the
// final position (a mate, a stalemate...). A game is not imported, and is reported with its
// file:line, when it cannot be read, when it is cut off (no termination marker after its
// moves), or when it is unfinished (`*`). Games already in the database are recognised: an
// earlier import of the same game (same content hash), or a game Knightly played and exported
// (same tournament, players, start position, moves, result and start time).
#include <expected>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "db/store/store.h"

namespace knightly::runner {

struct ImportOptions {
  std::string file;                  // names the input in messages
  std::string tournament;            // where new games go ("" = "import " + the file's name)
  std::ostream* progress = nullptr;  // import_pgn_file: a line at each tenth of a long file
  // At most about this much text per batch (a game is never split). A file of known size is
  // cut in batches of a 64th of it, 2 MB at least, up to this.
  std::size_t batch_bytes = 8 << 20;
};

struct ImportReport {
  std::string tournament;  // where the games went
  int inserted = 0;
  int duplicates = 0;  // already in the database
  int unfinished = 0;  // result `*`: skipped
  int refused = 0;     // unreadable or cut off: skipped; the import is an error
  // The input was not read to its end (64 MB in which no game ends): the games after that
  // point are not imported, and the import fails (exit 1) once those before are stored.
  bool cut_short = false;
  // One line per game not imported: `file:line: game N (White vs Black): why (skipped)`,
  // with every byte from the input made printable.
  std::vector<std::string> messages;
};

// The input as a whole is refused (nothing imported) when it is not text (a NUL or another
// control character: `file:line:column: byte 0x00: not a PGN text file`), when the tournament
// name holds a control character, or when that name belongs to a tournament Knightly played.
// Store failures throw db::StoreException.
//
// Games are parsed, checked and committed in batches of 2 to 8 MB of text, each one
// transaction: memory does not grow with the input, an import that fails half way keeps the
// batches committed, and running it again skips the games already there (the content hash).
std::expected<ImportReport, std::string> import_pgn(db::Store& store, std::string_view text,
                                                    const ImportOptions& options);

// The same, streamed from a file (or a pipe): read a block at a time, after a first pass that
// checks the whole file is text. 64 MB in which no game ends with its result (an unterminated
// comment) end the import there with a message, the games before them imported.
std::expected<ImportReport, std::string> import_pgn_file(db::Store& store, const std::string& path,
                                                         const ImportOptions& options);

}  // namespace knightly::runner
