#include "runner/import/pgn_import.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <ostream>
#include <set>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "runner/import/pgn_record.h"
#include "runner/output/printable.h"

namespace knightly::runner {
namespace {

using pgn_import::game_fingerprint;
using pgn_import::item_of;

// A game longer than this (no game boundary within it) is not PGN: the import stops there.
constexpr std::size_t kMaxGameBytes = 64 << 20;
constexpr std::size_t kReadBlock = 1 << 20;
// The smallest batch of a file (ImportOptions::batch_bytes is the largest).
constexpr std::size_t kMinBatchBytes = 2 << 20;

// The batches of an input of `total` bytes: a 64th of it, 2 MB at least, up to batch_bytes.
// A tenth of a long file is several batches (progress), and a large file is fewer, larger
// transactions (each rewrites the index pages its games touch: 1 GB went 8% faster at 8 MB
// than at 2).
std::size_t batch_size(const ImportOptions& opt, std::uint64_t total) {
  return std::min(opt.batch_bytes, std::max(kMinBatchBytes, std::size_t(total / 64)));
}
// Files from this size on get progress lines (each tenth of the file).
constexpr std::uint64_t kProgressBytes = 16 << 20;
// Batches from this size on are parsed on a thread of their own, beside the commit before.
constexpr std::size_t kThreadedBatchBytes = 256 << 10;
// Batches parsed at once beside the commit of the one before them.
constexpr std::size_t kParsedAhead = 2;

struct Candidate {
  db::ImportItem item;
  std::string event;
};

// Where batches may be cut in a stream of PGN text so that the PGN reader
// (engine/chess/pgn.cpp) reads each batch exactly as it reads the whole text: the same games,
// errors and lines. That is at a '[' (outside a brace or ';' comment) right after a game that
// ended with its result token: the reader has returned that game and begins the next at the
// '[' whatever follows, as it does at the start of a batch. (A game cut off by the next
// game's tags is not a cut: the reader reads an end of text differently.) Tag lines are read
// as the reader reads them (a tag ends at its `"]`; what follows on the line is movetext),
// '%' lines are skipped. Fed the text as it arrives, whole lines at a time; the state
// carries over.
class GameSplitter {
 public:
  // Scans the whole lines of text[from, end), moving `from` past the last one, and returns
  // the offset of the last game start among them (0 when none); `starts` (if given) gets
  // every one. `text` is the whole buffer so far; offsets are into it.
  std::size_t scan(std::string_view text, std::size_t& from,
                   std::vector<std::size_t>* starts = nullptr, bool to_end = false) {
    std::size_t last = 0;
    while (from < text.size()) {
      std::size_t end = text.find('\n', from);
      if (end == std::string_view::npos) {
        if (!to_end) break;
        end = text.size();
      }
      scan_line(text, from, end, [&](std::size_t start) {
        last = start;
        if (starts) starts->push_back(start);
      });
      from = end == text.size() ? end : end + 1;
    }
    return last;
  }

 private:
  static bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
  // A blank or a delimiter: what ends a movetext word, as the reader splits them (a table:
  // the splitter's inner loop over every byte of the file).
  static bool word_end(char c) {
    static constexpr auto table = [] {
      std::array<bool, 256> t{};
      for (unsigned char e : std::string_view(" \t\r\f\v{}();[$")) t[e] = true;
      return t;
    }();
    return table[static_cast<unsigned char>(c)];
  }

  // Where the reader's tag at `i` ('[') ends on the line [i, end): after its `]` when it is a
  // well-formed tag, else the line's end (the reader takes the rest of the line).
  static std::size_t tag_end(std::string_view text, std::size_t i, std::size_t end) {
    std::size_t p = i + 1;
    while (p < end && (text[p] == ' ' || text[p] == '\t')) ++p;
    const std::size_t name = p;
    while (p < end && (std::isalnum(static_cast<unsigned char>(text[p])) || text[p] == '_')) ++p;
    const bool named = p > name;
    while (p < end && (text[p] == ' ' || text[p] == '\t')) ++p;
    if (!named || p >= end || text[p] != '"') return end;
    for (std::size_t q = p + 1; q < end; ++q) {
      if (text[q] == '\\' && q + 1 < end && (text[q + 1] == '"' || text[q + 1] == '\\')) {
        ++q;
        continue;
      }
      if (text[q] == '\r') return end;
      if (text[q] == '"') {
        std::size_t k = q + 1;
        while (k < end && (text[k] == ' ' || text[k] == '\t')) ++k;
        return k < end && text[k] == ']' ? k + 1 : end;
      }
    }
    return end;
  }

  static bool result(std::string_view word) {
    return word == "1-0" || word == "0-1" || word == "1/2-1/2" || word == "*";
  }

  // A movetext token ended: a result at depth 0 ends the game; anything else is (or begins)
  // a game not yet ended.
  void token(std::string_view word) {
    if (word.empty()) return;
    ended_ = depth_ == 0 && result(word);
    if (ended_) depth_ = 0;
  }

  template <class Found>
  void scan_line(std::string_view text, std::size_t i, std::size_t end, Found found) {
    if (!in_brace_ && i < end && text[i] == '%') return;  // an escape line
    while (i < end) {
      if (in_brace_) {
        const std::size_t close = text.find('}', i);
        if (close == std::string_view::npos || close >= end) return;
        in_brace_ = false;
        i = close + 1;
        continue;
      }
      const char c = text[i];
      if (space(c)) {
        ++i;
      } else if (c == '[') {
        if (ended_) found(i);  // the next game's tags, right after a finished game
        ended_ = false;
        depth_ = 0;  // whichever way the last game ended, this is a new one
        i = tag_end(text, i, end);
      } else if (c == '{' || c == ';' || c == '(' || c == ')' || c == '$') {
        ended_ = false;  // a comment, variation or NAG: part of a game
        if (c == '{') in_brace_ = true;
        if (c == ';') return;
        if (c == '(') ++depth_;
        if (c == ')' && depth_ > 0) --depth_;
        ++i;
        if (c == '$')
          while (i < end && text[i] >= '0' && text[i] <= '9') ++i;
      } else {
        // A word: up to a blank or a delimiter, as the reader splits them (a stray '}'
        // begins one).
        const std::size_t start = i;
        if (c == '}') ++i;
        while (i < end && !word_end(text[i])) ++i;
        token(text.substr(start, i - start));
      }
    }
  }

  bool in_brace_ = false;
  bool ended_ = false;  // the last token was a game's result
  int depth_ = 0;       // open variations
};

// Games are parsed, checked and committed a batch at a time (each batch one transaction of
// the store), with what must outlive a batch kept small: the engines' ids by name, and the
// fingerprints of played tournaments the input's Events name.
class PgnImporter {
 public:
  PgnImporter(db::Store& store, const ImportOptions& options) : store_(store), opt_(options) {}

  // The tournament name and what it belongs to, before any game.
  std::expected<void, std::string> start() {
    report_.tournament = opt_.tournament;
    if (report_.tournament.empty()) {
      auto slash = opt_.file.find_last_of('/');
      report_.tournament =
          "import " +
          printable(slash == std::string::npos ? opt_.file : opt_.file.substr(slash + 1));
    } else if (first_binary_byte(report_.tournament) ||
               report_.tournament.find_first_of("\t\n\r\f\v") != std::string::npos) {
      return std::unexpected("tournament name \"" + printable(report_.tournament) +
                             "\" holds a control character");
    }
    existing_ = store_.catalog().find_tournament(report_.tournament);
    if (existing_ && existing_->kind != db::TournamentKind::Import)
      return std::unexpected("tournament '" + printable(report_.tournament) + "' in " +
                             store_.path() +
                             " was played by Knightly; import into another tournament name "
                             "(--tournament NAME)");
    return {};
  }

  // Whole games of the input, the first starting on line `first_line`: parsed and checked on
  // a thread of their own (two batches at once) while the batch before them is committed,
  // then committed in one transaction each, in order. The games of every batch given are committed
  // by finish() (or drain()).
  void add(std::string text, int first_line) {
    // A small batch (the tests' and fuzzers' few bytes) is parsed here when it is collected:
    // a thread would cost more than it saves.
    const auto policy =
        text.size() >= kThreadedBatchBytes ? std::launch::async : std::launch::deferred;
    pending_.push_back(std::async(
        policy, [this, owned = std::move(text), first_line] { return parse(owned, first_line); }));
    if (pending_.size() > kParsedAhead) commit_oldest();
  }

  // Commits the batches still being parsed, if any.
  void drain() {
    while (!pending_.empty()) commit_oldest();
  }

  int games() const { return committed_games_; }

  ImportReport finish() {
    drain();
    if (tournament_)
      store_.catalog().set_tournament_status(tournament_->id, db::TournamentStatus::Finished);
    return std::move(report_);
  }

 private:
  // What is said about a game that is not imported: "HEAD: game N TAIL", N counted over the
  // whole input when its batch is committed (batches are parsed side by side).
  struct Note {
    int game = 0;  // 1-based within its batch
    std::string head, tail;
  };
  // A batch parsed: the games to commit, and what was said about the others, in order.
  struct Parsed {
    std::vector<Candidate> candidates;
    std::vector<Note> notes;
    int games = 0, refused = 0, unfinished = 0;
  };

  // Reads one batch; touches no member but the options (batches are parsed side by side).
  Parsed parse(std::string_view text, int first_line) const {
    const int lines_before = first_line - 1;
    Parsed out;
    const auto note = [&](int line, std::string tail) {
      out.notes.push_back({out.games, opt_.file + ":" + std::to_string(line), std::move(tail)});
    };
    chess::PgnReader reader(text);
    while (auto next = reader.next()) {
      ++out.games;
      if (!*next) {
        const chess::PgnError& e = next->error();
        note(e.line + lines_before,
             (e.move.empty() ? "" : ", move \"" + e.move + "\"") + ": " + e.message + " (skipped)");
        ++out.refused;
        continue;
      }
      chess::PgnGame& g = **next;
      g.line += lines_before;
      const std::string players = " (" + g.tag("White") + " vs " + g.tag("Black") + ")";
      if (!g.terminated) {
        note(g.line, players + ": cut off after " + std::to_string(g.moves.size()) +
                         " plies: no termination marker (1-0, 0-1, 1/2-1/2 or *) ends its "
                         "moves (skipped)");
        ++out.refused;
        continue;
      }
      const Result result = parse_result(g.result).value_or(Result::None);
      if (result == Result::None) {
        note(g.line, players + ": result '*', not a finished game (skipped)");
        ++out.unfinished;
        continue;
      }
      Candidate c;
      c.event = g.tag("Event");
      c.item = item_of(g, result);
      out.candidates.push_back(std::move(c));
    }
    return out;
  }

  // The oldest batch given, once parsed, committed.
  void commit_oldest() {
    Parsed ready = pending_.front().get();
    pending_.pop_front();
    commit(std::move(ready));
  }

  // The new games of a parsed batch committed in one transaction (on the caller's thread,
  // the store's owner).
  void commit(Parsed parsed) {
    for (const Note& n : parsed.notes)
      report_.messages.push_back(
          printable(n.head + ": game " + std::to_string(committed_games_ + n.game) + n.tail));
    committed_games_ += parsed.games;
    report_.refused += parsed.refused;
    report_.unfinished += parsed.unfinished;
    std::vector<Candidate>& candidates = parsed.candidates;
    drop_own_games(candidates);
    if (candidates.empty()) return;

    // Engines are matched by name; a name never seen before becomes an imported engine.
    for (const auto& c : candidates)
      for (const std::string* n : {&c.item.record.white, &c.item.record.black})
        if (!engine_ids_.count(*n)) {
          auto id = store_.catalog().find_engine(*n);
          if (!id) {
            db::EngineInfo info;
            info.name = *n;
            id = store_.catalog().upsert_engine(info);
          }
          engine_ids_[*n] = *id;
        }
    std::vector<db::ImportItem> items;
    items.reserve(candidates.size());
    for (auto& c : candidates) {
      c.item.white_engine_id = engine_ids_[c.item.record.white];
      c.item.black_engine_id = engine_ids_[c.item.record.black];
      items.push_back(std::move(c.item));
    }
    if (!tournament_)
      tournament_ =
          existing_
              ? *existing_
              : store_.catalog().create_tournament(
                    {report_.tournament, db::TournamentKind::Import, "import " + opt_.file, 0, ""});
    for (auto o : store_.games().import_games(tournament_->id, items))
      ++(o == db::ImportOutcome::Inserted ? report_.inserted : report_.duplicates);
  }

  // Drops the candidates that are games Knightly played and stored in this database (its own
  // export read back): their Event names a played tournament that holds the same game.
  void drop_own_games(std::vector<Candidate>& candidates) {
    for (const auto& c : candidates) {
      if (c.event.empty() || played_.count(c.event)) continue;
      std::set<std::string>& prints = played_[c.event];
      auto t = store_.catalog().find_tournament(c.event);
      if (!t || t->kind == db::TournamentKind::Import) continue;
      db::GameFilter filter;
      filter.tournament_ids = {t->id};
      store_.queries().for_each_game(
          filter, [&](const db::StoredGame& g) { prints.insert(game_fingerprint(g.record)); });
    }
    std::erase_if(candidates, [&](const Candidate& c) {
      // Only a game whose Event names a played tournament with games is hashed (a copy of
      // the record and a hash of its moves: not to be paid for every imported game).
      auto it = played_.find(c.event);
      if (it == played_.end() || it->second.empty() ||
          !it->second.count(game_fingerprint(c.item.record, c.item.move_lists())))
        return false;
      ++report_.duplicates;
      return true;
    });
  }

  db::Store& store_;
  const ImportOptions& opt_;
  ImportReport report_;
  std::optional<db::Tournament> existing_;
  std::optional<db::Tournament> tournament_;
  int committed_games_ = 0;  // games of the batches committed (read before the next batch)
  std::map<std::string, std::int64_t> engine_ids_;
  std::map<std::string, std::set<std::string>> played_;  // event -> fingerprints
  // The batches being parsed, in input order; the last member, waited for first.
  std::deque<std::future<Parsed>> pending_;
};

// `imported_before`: the line before which the games are imported already (a pipe's batches
// read before the byte), 1 when none is.
std::string binary_error(const ImportOptions& opt, const TextPosition& p, unsigned char byte,
                         int imported_before = 1) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", byte);
  return opt.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": byte " +
         hex + ": not a PGN text file (binary data?); " +
         (imported_before > 1
              ? "the games before line " + std::to_string(imported_before) + " are imported"
              : std::string("nothing imported"));
}

int count_lines(std::string_view text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// Calls `block` with the file's bytes a block at a time; an error names the file.
std::expected<void, std::string> read_blocks(int fd, const std::string& shown,
                                             const std::function<bool(std::string_view)>& block) {
  std::string buf(kReadBlock, '\0');
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::unexpected("cannot read " + shown + ": " + std::strerror(errno));
    if (n == 0) return {};
    if (!block(std::string_view(buf.data(), std::size_t(n)))) return {};
  }
}

}  // namespace

std::expected<ImportReport, std::string> import_pgn(db::Store& store, std::string_view text,
                                                    const ImportOptions& opt) {
  if (auto bad = first_binary_byte(text))
    return std::unexpected(
        binary_error(opt, text_position(text, *bad), static_cast<unsigned char>(text[*bad])));
  PgnImporter importer(store, opt);
  if (auto started = importer.start(); !started) return std::unexpected(started.error());
  // The same batches as a file's, a game never split.
  const std::size_t batch_bytes = batch_size(opt, text.size());
  std::vector<std::size_t> starts;
  std::size_t scanned = 0;
  GameSplitter().scan(text, scanned, &starts, true);
  std::size_t at = 0, next = 0;  // next: the first start after `at`
  int line = 1;
  while (at < text.size()) {
    while (next < starts.size() && starts[next] <= at) ++next;
    std::size_t cut = text.size();
    if (text.size() - at > batch_bytes && next < starts.size()) {
      // The last game start within a batch's length, else the first one after it.
      cut = starts[next];
      for (std::size_t k = next; k < starts.size() && starts[k] <= at + batch_bytes; ++k)
        cut = starts[k];
    }
    const std::string_view batch = text.substr(at, cut - at);
    importer.add(std::string(batch), line);
    line += count_lines(batch);
    at = cut;
  }
  return importer.finish();
}

std::expected<ImportReport, std::string> import_pgn_file(db::Store& store, const std::string& path,
                                                         const ImportOptions& opt) {
  const std::string shown = "'" + printable(path) + "'";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::unexpected("cannot read " + shown + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return std::unexpected("cannot read " + shown + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return std::unexpected("cannot read " + shown + ": it is a directory, not a PGN file");
  const bool seekable = S_ISREG(st.st_mode);

  // First the whole input is checked to be text (a NUL after good games refuses it whole,
  // with nothing imported), a block at a time. A pipe is read once: it is checked as it is
  // read, and a binary byte stops the import with the batches before it kept.
  if (seekable) {
    std::uint64_t offset = 0;  // of the block
    std::optional<std::uint64_t> bad;
    unsigned char bad_byte = 0;
    auto scanned = read_blocks(fd, shown, [&](std::string_view block) {
      if (auto at = first_binary_byte(block)) {
        bad = offset + *at;
        bad_byte = static_cast<unsigned char>(block[*at]);
        return false;
      }
      offset += block.size();
      return true;
    });
    if (!scanned) return std::unexpected(scanned.error());
    if (bad) {
      // Where it is, the file read again up to it: lines are counted only for the message.
      if (::lseek(fd, 0, SEEK_SET) != 0)
        return std::unexpected("cannot read " + shown + ": " + std::strerror(errno));
      TextPosition p;
      std::uint64_t at = 0;
      auto again = read_blocks(fd, shown, [&](std::string_view block) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(block.size(), *bad - at));
        p = text_position(block, n, p);
        at += n;
        return at < *bad;
      });
      if (!again) return std::unexpected(again.error());
      return std::unexpected(binary_error(opt, p, bad_byte));
    }
    if (::lseek(fd, 0, SEEK_SET) != 0)
      return std::unexpected("cannot read " + shown + ": " + std::strerror(errno));
  }

  // The records of a batch are built on a parsing thread and freed on this one after the
  // commit: memory handed back to the kernel after each batch would be faulted in again for
  // the next (a sixth of the import's time). glibc keeps it for reuse instead, in two arenas
  // (this thread's and the parsing threads'): an arena per new thread would each keep its
  // own (1 GB: 204 MB peak RSS with one per thread, 120 MB with two).
  mallopt(M_ARENA_MAX, 2);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  PgnImporter importer(store, opt);
  if (auto started = importer.start(); !started) return std::unexpected(started.error());
  // Then game by game, a batch at a time: memory stays what a batch takes, whatever the
  // file's size (a pipe's unknown: the largest batches).
  const std::size_t batch_bytes =
      seekable ? batch_size(opt, std::uint64_t(st.st_size)) : opt.batch_bytes;
  std::string buffer;
  GameSplitter splitter;
  std::size_t scanned = 0;  // of buffer
  int line = 1;
  std::uint64_t done = 0;
  const std::uint64_t total = seekable ? std::uint64_t(st.st_size) : 0;
  int reported = 0;  // tenths of the file reported
  std::optional<std::string> failure;
  std::optional<std::string> binary;  // a pipe's binary byte: the import stops there
  const auto flush = [&](std::size_t cut) {
    // The batch takes the buffer; what follows the cut (part of a game) starts the next one.
    std::string batch = std::move(buffer);
    buffer.reserve(batch_bytes + kReadBlock);  // filled to a batch without growing
    buffer.assign(batch, cut);
    batch.resize(cut);
    const int first_line = line;
    line += count_lines(batch);
    importer.add(std::move(batch), first_line);
    done += cut;
    scanned -= cut;
    // Progress for long files: a line at each tenth.
    if (opt.progress && total >= kProgressBytes && done * 10 / total > std::uint64_t(reported)) {
      reported = int(done * 10 / total);
      *opt.progress << "knightly: import: " << opt.file << ": " << reported * 10 << "% ("
                    << done / (1 << 20) << " of " << total / (1 << 20) << " MB), "
                    << importer.games() << " games read" << std::endl;
    }
  };
  auto read = read_blocks(fd, shown, [&](std::string_view block) {
    if (!seekable)
      if (auto at = first_binary_byte(block)) {
        // The buffer starts a line (batches end with whole lines): the line the batches
        // before it ended at.
        const TextPosition block_start = text_position(buffer, buffer.size(), {line, 1});
        binary = binary_error(opt, text_position(block, *at, block_start),
                              static_cast<unsigned char>(block[*at]), line);
        return false;
      }
    buffer.append(block);
    if (buffer.size() < batch_bytes) return true;
    const std::size_t boundary = splitter.scan(buffer, scanned);  // whole lines
    if (boundary > 0) {
      flush(boundary);
    } else if (buffer.size() > kMaxGameBytes) {
      failure = opt.file + ":" + std::to_string(line) + ": no game ends with its result in the " +
                std::to_string(kMaxGameBytes >> 20) +
                " MB from here (an unterminated comment?); the games before it are imported";
      return false;
    }
    return true;
  });
  if (!read || binary) {
    importer.drain();  // the batches read before the error are kept
    return std::unexpected(read ? *binary : read.error());
  }
  if (failure) {
    auto report = importer.finish();
    report.messages.push_back(*failure);
    ++report.refused;
    report.cut_short = true;
    return report;
  }
  if (!buffer.empty()) flush(buffer.size());
  return importer.finish();
}

}  // namespace knightly::runner
