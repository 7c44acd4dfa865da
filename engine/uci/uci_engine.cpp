#include "engine/uci/uci_engine.h"

#include <algorithm>
#include <cctype>

#include "engine/base/ascii.h"
#include "engine/chess/notation.h"
#include "engine/chess/perft.h"
#include "engine/uci/book_file.h"
#include "engine/uci/options.h"
#include "engine/uci/seed.h"

namespace knightly::engine {

namespace {

using base::lower;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The first word of `line`, and in `rest` what follows it (a `position` line carries the
// whole game: it is not split here).
std::string_view first_word(std::string_view line, std::string_view& rest) {
  line = trim(line);
  std::size_t end = 0;
  while (end < line.size() && !is_space(line[end])) ++end;
  rest = line.substr(end);
  return line.substr(0, end);
}

// The final result says nothing the last `info` did not (its time aside).
bool same_report(const search::SearchInfo& a, const search::SearchInfo& b) {
  return a.depth == b.depth && a.seldepth == b.seldepth && a.score == b.score &&
         a.nodes == b.nodes && a.pv == b.pv;
}

}  // namespace

UciEngine::UciEngine(Writer writer, Flush flush)
    : writer_(std::move(writer)),
      flush_(std::move(flush)),
      search_(config_),
      thread_([this] { search_loop(); }) {}

UciEngine::~UciEngine() {
  stop_search();
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void UciEngine::write(const std::string& line) {
  std::lock_guard lock(write_mutex_);
  writer_(line);
  unflushed_ = true;
}

void UciEngine::flush() {
  if (!unflushed_) return;  // `position` and `go` write nothing: no lock the search holds
  std::lock_guard lock(write_mutex_);
  if (flush_) flush_();
  unflushed_ = false;
}

void UciEngine::wait() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return !searching_ && !job_ready_; });
}

void UciEngine::stop_search() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
}

void UciEngine::apply_pending() {
  if (config_dirty_) {
    search::SearchConfig applied = config_;
    applied.seed = resolve_seed(config_.seed);
    search_.set_config(std::move(applied));
    config_dirty_ = false;
    // The book file is read when OwnBook is on and names a file not read yet.
    const std::string want = config_.own_book ? config_.book_file : "";
    if (want != book_loaded_) {
      book_loaded_ = want;
      search_.set_book(nullptr);
      if (!want.empty()) {
        if (auto book = load_book_file(want)) {
          search_.set_book(*book);
          write("info string book " + want + ": " + std::to_string((*book)->positions()) +
                ((*book)->is_polyglot() ? " entries (Polyglot)" : " positions"));
        } else {
          write("info string error: " + book.error());
        }
      }
    }
  }
  if (new_game_pending_) {
    if (config_.seed == 0) {  // a new game draws a new clock seed
      search::SearchConfig c = search_.config();
      c.seed = clock_seed();
      search_.set_config(std::move(c));
    }
    search_.new_game();
    new_game_pending_ = false;
  }
}

bool UciEngine::handle(std::string_view line) {
  std::string_view args;
  const std::string_view word = first_word(line, args);
  if (word.empty()) return true;
  const bool go_on = dispatch(lower(word), word, args);
  flush();
  return go_on;
}

bool UciEngine::dispatch(const std::string& cmd, std::string_view word, std::string_view args) {
  if (cmd == "quit") {
    stop_search();
    wait();
    return false;
  }
  if (cmd == "uci") {
    write("id name Knightly");
    write("id author the Knightly authors");
    for (const auto& l : option_lines()) write(l);
    write("uciok");
  } else if (cmd == "isready") {
    if (!searching_) {
      wait();
      apply_pending();
    }
    write("readyok");
  } else if (cmd == "ucinewgame") {
    new_game_pending_ = true;
    // The next `position` is built from its start, whatever it shares with this game's.
    pos_command_ = {};
    pos_text_.clear();
    pos_has_moves_ = false;
  } else if (cmd == "setoption") {
    // setoption name <id...> [value <x...>]; the name may contain spaces.
    auto w = split_words(args);
    if (w.empty() || lower(w[0]) != "name") {
      write("info string error: setoption expects 'name <id> [value <x>]'");
      return true;
    }
    std::string name, value;
    bool in_value = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (!in_value && lower(w[i]) == "value") {
        in_value = true;
        continue;
      }
      std::string& target = in_value ? value : name;
      if (!target.empty()) target += ' ';
      target += w[i];
    }
    if (lower(name) == "clear hash") {
      new_game_pending_ = true;
      return true;
    }
    search::SearchConfig next = config_;
    if (auto r = apply_option(next, name, value); !r) {
      write("info string error: " + r.error());
    } else {
      config_ = std::move(next);
      config_dirty_ = true;
    }
  } else if (cmd == "position") {
    set_position(args);
  } else if (cmd == "go") {
    GoArgs g = parse_go(args);
    for (const auto& w : g.warnings) write("info string " + w);
    if (searching_) {
      write("info string error: already searching, 'go' ignored");
    } else if (pos_error_) {
      write("info string error: 'go' refused: the last 'position' could not be read (" +
            *pos_error_ + ")");
      if (g.perft == 0) write("bestmove 0000");
    } else if (g.perft > 0) {
      wait();
      run_perft(g.perft);
    } else {
      start_search(g.limits);
    }
  } else if (cmd == "stop") {
    if (searching_) stop_search();
  } else if (cmd == "ponderhit") {
    // Pondering is not supported; a ponder search is an infinite one, ended by stop.
  } else if (cmd == "debug" || cmd == "register") {
    // Accepted and ignored.
  } else if (cmd == "d") {
    write(pos_error_ ? "info string no position: " + *pos_error_ : "info string fen " + pos_.fen());
  } else {
    write("info string unknown command '" + std::string(word) + "'");
  }
  return true;
}

void UciEngine::set_position(std::string_view args) {
  auto fail = [this](const std::string& why) {
    pos_error_ = why;
    pos_command_ = {};
    pos_text_.clear();
    pos_has_moves_ = false;
    write("info string error: " + why);
  };
  args = trim(args);
  // The last command's text followed by whole words: those words are the new moves (after
  // the word `moves` when the last text did not have it). Only the new part is split.
  if (!pos_error_ && !pos_text_.empty() && args.starts_with(pos_text_) &&
      (args.size() == pos_text_.size() || is_space(args[pos_text_.size()]))) {
    auto added = split_words(args.substr(pos_text_.size()));
    std::size_t skip = 0;
    if (!pos_has_moves_ && !added.empty()) skip = added[0] == "moves" ? 1 : added.size() + 1;
    if (skip <= added.size()) {
      const std::size_t seen = pos_command_.moves.size();
      for (std::size_t i = skip; i < added.size(); ++i) pos_command_.moves.emplace_back(added[i]);
      if (auto played = play_moves(pos_, pos_command_, seen); !played) return fail(played.error());
      pos_text_ = args;
      pos_has_moves_ = pos_has_moves_ || !added.empty();
      return;
    }
  }
  auto cmd = parse_position_command(args);
  if (!cmd) return fail(cmd.error());
  const bool has_moves = args.find("moves") != std::string_view::npos;
  if (!pos_error_ && !pos_text_.empty() && cmd->fen == pos_command_.fen) {
    // The same start: take back the moves after the common prefix, play the new ones.
    const auto& seen = pos_command_.moves;
    const std::size_t common =
        std::mismatch(seen.begin(), seen.end(), cmd->moves.begin(), cmd->moves.end()).first -
        seen.begin();
    for (std::size_t i = seen.size(); i > common; --i) pos_.undo_move();
    if (auto played = play_moves(pos_, *cmd, common); !played) return fail(played.error());
  } else {
    auto start = chess::Position::from_fen(cmd->fen);
    if (!start)
      return fail("bad FEN '" + cmd->fen + "' (field " + std::to_string(start.error().field) +
                  "): " + start.error().message);
    if (auto played = play_moves(*start, *cmd); !played) return fail(played.error());
    pos_ = std::move(*start);
  }
  pos_command_ = std::move(*cmd);
  pos_text_ = args;
  pos_has_moves_ = has_moves;
  pos_error_.reset();
}

void UciEngine::run_perft(int depth) {
  chess::Position p = pos_;
  std::uint64_t total = 0;
  for (const auto& [m, n] : chess::perft_divide(p, depth)) {
    write(chess::to_uci(m, config_.chess960) + ": " + std::to_string(n));
    total += n;
  }
  write("");
  write("Nodes searched: " + std::to_string(total));
}

void UciEngine::start_search(const search::Limits& limits) {
  wait();
  apply_pending();
  std::unique_lock lock(mutex_);
  stop_ = false;
  searching_ = true;
  job_.pos = pos_;  // a copy assignment: the storage of the last job's history is reused
  job_.limits = limits;
  job_.chess960 = config_.chess960;
  if (searches_inline(limits)) {
    lock.unlock();
    run_job(job_);
    return;
  }
  job_ready_ = true;
  lock.unlock();
  cv_.notify_all();
}

void UciEngine::search_loop() {
  while (true) {
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [this] { return job_ready_ || quit_; });
      if (!job_ready_) return;  // quit with nothing to do
      job_ready_ = false;
    }
    run_job(job_);
  }
}

bool UciEngine::searches_inline(const search::Limits& l) {
  // A search this small ends before a `stop` or `isready` behind it would be read: it runs on
  // the command thread, which writes its bestmove without waking another thread first.
  if (l.infinite || l.movetime_ms > 0 || l.has_clock()) return false;
  return (l.depth > 0 && l.depth <= kInlineDepth) || (l.nodes > 0 && l.nodes <= kInlineNodes);
}

void UciEngine::run_job(const Job& job) {
  // An `info` leaves at once when the search has taken a millisecond or more, or is
  // infinite (a GUI shows it while the engine thinks); a faster one leaves with the next
  // line that does, at the latest with `bestmove`.
  std::optional<search::SearchInfo> reported;
  // No exception leaves this thread: a search that fails (out of memory) still ends with a
  // bestmove (0000), so that the GUI is not left waiting.
  search::SearchResult r;
  std::optional<std::string> failure;
  try {
    r = search_.go(job.pos, job.limits, stop_,
                   [this, &job, &reported](const search::SearchInfo& info) {
                     std::lock_guard out(write_mutex_);
                     writer_(format_info(info, job.chess960));
                     if (flush_ && (info.time_ms > 0 || job.limits.infinite)) flush_();
                     reported = info;
                   });
  } catch (const std::exception& e) {
    r = {};
    failure = e.what();
  }
  {
    std::lock_guard out(write_mutex_);
    if (failure)
      writer_("info string error: the search failed: " + *failure);
    else if (r.from_book)
      writer_("info string book move " + chess::to_uci(r.best, job.chess960));
    else if (!reported || !same_report(*reported, r.info))
      writer_(format_info(r.info, job.chess960));  // unless the last `info` said it all
    if (flush_ && job.limits.infinite) flush_();
  }
  // UCI: in infinite mode the bestmove waits for `stop`, even when the search is over.
  if (job.limits.infinite) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return stop_.load() || quit_; });
  }
  // Searching ends before the bestmove is written (a GUI may send the next `go` the moment
  // it reads it), and under the output lock, so that no `readyok` overtakes it.
  std::lock_guard out(write_mutex_);
  const std::string best = format_bestmove(r, job.chess960);
  {
    std::lock_guard lock(mutex_);
    searching_ = false;
  }
  cv_.notify_all();
  writer_(best);
  if (flush_) flush_();
}

}  // namespace knightly::engine
