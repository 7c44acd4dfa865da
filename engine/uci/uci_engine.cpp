#include "engine/uci/uci_engine.h"

#include <cctype>

#include "engine/chess/notation.h"
#include "engine/chess/perft.h"
#include "engine/uci/options.h"
#include "engine/uci/protocol.h"

namespace knightly::uci {

namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string_view rest_after(std::string_view line, std::string_view word) {
  std::size_t p = line.find(word);
  if (p == std::string_view::npos) return {};
  return line.substr(p + word.size());
}

}  // namespace

UciEngine::UciEngine(Writer writer) : writer_(std::move(writer)), search_(config_) {}

UciEngine::~UciEngine() {
  stop_search();
  if (thread_.joinable()) thread_.join();
}

void UciEngine::write(const std::string& line) {
  std::lock_guard lock(write_mutex_);
  writer_(line);
}

void UciEngine::wait() {
  if (thread_.joinable()) thread_.join();
}

void UciEngine::stop_search() {
  {
    std::lock_guard lock(stop_mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
}

void UciEngine::apply_pending() {
  if (config_dirty_) {
    const std::string old_book = search_.config().own_book ? search_.config().book_file : "";
    search_.set_config(config_);
    config_dirty_ = false;
    if (config_.own_book && !config_.book_file.empty() && config_.book_file != old_book) {
      if (search_.book_status().empty())
        write("info string book " + config_.book_file + ": " + std::to_string(search_.book_positions()) +
              " positions");
      else
        write("info string error: book " + search_.book_status());
    }
  }
  if (new_game_pending_) {
    search_.new_game();
    new_game_pending_ = false;
  }
}

bool UciEngine::handle(std::string_view line) {
  auto words = split_words(line);
  if (words.empty()) return true;
  const std::string cmd = lower(words[0]);
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
  } else if (cmd == "setoption") {
    // setoption name <id...> [value <x...>]; the name may contain spaces.
    std::string_view args = rest_after(line, words[0]);
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
    auto p = parse_position(rest_after(line, words[0]));
    if (!p)
      write("info string error: " + p.error());
    else
      pos_ = std::move(*p);
  } else if (cmd == "go") {
    GoCommand g = parse_go(rest_after(line, words[0]));
    for (const auto& w : g.warnings) write("info string " + w);
    if (searching_) {
      write("info string error: already searching, 'go' ignored");
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
    write("info string fen " + pos_.fen());
  } else {
    write("info string unknown command '" + std::string(words[0]) + "'");
  }
  return true;
}

void UciEngine::run_perft(int depth) {
  chess::Position p = pos_;
  std::uint64_t total = 0;
  for (const auto& [m, n] : chess::perft_divide(p, depth)) {
    write(chess::to_uci(m) + ": " + std::to_string(n));
    total += n;
  }
  write("");
  write("Nodes searched: " + std::to_string(total));
}

void UciEngine::start_search(const search::Limits& limits) {
  wait();
  apply_pending();
  stop_ = false;
  searching_ = true;
  thread_ = std::thread([this, pos = pos_, limits] {
    search::SearchResult r = search_.go(pos, limits, stop_, [this](const search::SearchInfo& info) {
      write(format_info(info));
    });
    if (r.from_book)
      write("info string book move " + chess::to_uci(r.best));
    else
      write(format_info(r.info));
    // UCI: in infinite mode the bestmove waits for `stop`, even when the search is over.
    if (limits.infinite) {
      std::unique_lock lock(stop_mutex_);
      stop_cv_.wait(lock, [this] { return stop_.load(); });
    }
    // Cleared before the bestmove is written: a GUI may send the next `go` the moment it reads it.
    searching_ = false;
    write(format_bestmove(r));
  });
}

}  // namespace knightly::uci
