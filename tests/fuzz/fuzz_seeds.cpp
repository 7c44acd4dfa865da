// Writes the seed corpora of the fuzz targets from the project's test data (tests/data) and
// the project's own configs, at fuzz time, into the build directory:
//   fuzz_seeds DATA_DIR SOURCE_DIR OUT_DIR
// makes OUT_DIR/<target>/<n> files, one input each. Nothing here is copied into the project.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/chess/epd.h"
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"

namespace fs = std::filesystem;
using namespace knightly;

namespace {

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class Corpus {
 public:
  explicit Corpus(fs::path dir) : dir_(std::move(dir)) { fs::create_directories(dir_); }
  void add(const std::string& input) {
    std::ofstream(dir_ / std::to_string(count_++), std::ios::binary) << input;
  }
  int count() const { return count_; }

 private:
  fs::path dir_;
  int count_ = 0;
};

// Every n-th of the first `limit` lines of a book: positions spread over the file.
std::vector<std::string> sample_lines(const fs::path& file, std::size_t limit, std::size_t step) {
  std::vector<std::string> out;
  std::ifstream in(file);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line) && out.size() < limit; ++n)
    if (n % step == 0) out.push_back(line);
  return out;
}

// Games of a PGN file as separate texts: the reader gives their first lines.
std::vector<std::string> pgn_games(const std::string& text, std::size_t limit) {
  std::vector<int> starts;
  chess::PgnReader reader(text);
  while (auto game = reader.next()) {
    if (*game) starts.push_back((*game)->line);
    if (starts.size() > limit) break;
  }
  const auto lines = lines_of(text);
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
    std::string game;
    for (int l = starts[i]; l < starts[i + 1] && l <= int(lines.size()); ++l)
      game += lines[l - 1] + "\n";
    out.push_back(game);
  }
  return out;
}

// Lines an engine writes, as the UCI specification shows them (its examples are quoted or
// indented), plus a few with every field.
std::vector<std::string> uci_lines(const std::string& spec) {
  std::vector<std::string> out;
  const char* words[] = {"id ",   "option ", "info ",          "bestmove ",
                         "uciok", "readyok", "copyprotection", "registration"};
  for (std::string line : lines_of(spec)) {
    line.erase(0, line.find_first_not_of(" \t\""));
    for (std::size_t q; (q = line.find("\\n")) != std::string::npos;) line.erase(q);
    while (!line.empty() && (line.back() == '"' || line.back() == ' ' || line.back() == '\r'))
      line.pop_back();
    for (const char* w : words)
      if (line.starts_with(w)) out.push_back(line);
  }
  for (const char* line :
       {"info depth 12 seldepth 20 multipv 1 score cp 35 nodes 123456 nps 100000 hashfull 10 "
        "tbhits 0 time 1234 pv e2e4 e7e5 g1f3",
        "info depth 30 score mate -3 upperbound nodes 5 time 1 pv h7h8q",
        "info depth 9 score cp -120 lowerbound wdl 100 200 700 currmove e2e4 currmovenumber 1",
        "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
        "bestmove e7e8q ponder (none)", "bestmove 0000",
        "option name Threads type spin default 1 min 1 max 1024",
        "option name UCI_ShowWDL type check default false",
        "option name Debug Log File type string default", "option name Clear Hash type button"})
    out.push_back(line);
  return out;
}

// What an xboard engine writes, after a FEN line: a feature exchange, moves in both notations,
// thinking output, pongs, claims and the noise real engines print (fairymax, phalanx, GNU
// Chess, hoichess).
std::vector<std::string> xboard_transcripts() {
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
  const std::string castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n";
  return {
      start +
          "feature done=0\nfeature ping=1 setboard=1 san=0 usermove=1 time=1 "
          "myname=\"Fairy-Max 5.0b\" variants=\"normal,fischerandom\" colors=0 sigint=0 "
          "sigterm=0\nfeature option=\"Resign -check 0\" option=\"Hash -spin 32 1 512\"\n"
          "feature done=1\npong 1\n",
      start +
          "tellics say Phalanx\n# debug output\n1 12 0 20 e2e4\n2 -5 1 120 e2e4 e7e5\n"
          "3+ 100007 3 900 e2e4 e7e5 d1h5.\nmove e2e4\nmove e7e5\nMy move is : Nf3\n",
      start +
          "move e2e4\nIllegal move: e2e4\nIllegal move (not legal now): e7e5\n"
          "Error (unknown command): foo\nresign\n",
      castle +
          "move e1g1\nmove O-O-O\nmove e1c1\n1-0 {White mates}\n0-1 {Black resigns}\n"
          "1/2-1/2 {Draw by repetition}\n",
      "rn1qkbnr/pP1ppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1\nmove b7a8q\nmove b7b8=N+\n"
      "offer draw\ntelluser hello\n",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\nfeature variants=\""
      "fischerandom\" done=1\nmove O-O\nmove g1h1\n",
  };
}

// Typical `knightly play` command lines (cutechess-cli's and fastchess's), one argument per
// line.
std::vector<std::string> play_command_lines() {
  const std::vector<std::vector<std::string>> commands = {
      {"-engine", "cmd=/usr/games/stockfish", "name=sf", "option.Hash=16", "option.Threads=1",
       "-engine", "builtin=ab", "option.Search=alphabeta", "-each", "tc=40/60", "proto=uci",
       "-games", "2", "-rounds", "10", "-repeat", "-concurrency", "2"},
      {"-engine",      "builtin=a",     "option.Search=random",
       "-engine",      "builtin=b",     "depth=3",
       "-each",        "st=0.1",        "timemargin=50",
       "-openings",    "file=book.epd", "format=epd",
       "order=random", "plies=8",       "start=3",
       "-draw",        "movenumber=40", "movecount=8",
       "score=10",     "-resign",       "movecount=3",
       "score=900",    "twosided=true", "-maxmoves",
       "200",          "-srand",        "42"},
      {"-engine",  "cmd=./engine", "arg=--uci", "dir=/tmp", "env.X=1",   "nodes=1000",
       "-engine",  "cmd=./other",  "tc=10+0.1", "-engine",  "builtin=c", "-tournament",
       "gauntlet", "-seeds",       "1",         "-event",   "night run", "-pgnout",
       "out.pgn",  "-db",          "k.db",      "-recover"},
      {"-engine", "builtin=new", "-engine", "builtin=base", "-each", "tc=inf", "depth=4", "-sprt",
       "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", "model=normalized", "-games", "2"},
      // fastchess's dialect.
      {"-engine",
       "cmd=./sf",
       "name=sf",
       "-engine",
       "cmd=./x",
       "name=x",
       "-each",
       "tc=10+0.1",
       "proto=uci",
       "-rounds",
       "100",
       "-repeat",
       "-concurrency",
       "4",
       "-openings",
       "file=book.epd",
       "format=epd",
       "order=random",
       "-pgnout",
       "file=out.pgn",
       "notation=san",
       "nodes=true",
       "-sprt",
       "elo0=0",
       "elo1=5",
       "alpha=0.05",
       "beta=0.05",
       "-draw",
       "movenumber=40",
       "movecount=8",
       "score=10",
       "-resign",
       "movecount=3",
       "score=600",
       "twosided=true",
       "-log",
       "file=log.txt",
       "level=info",
       "-output",
       "format=fastchess",
       "-report",
       "penta=true",
       "-ratinginterval",
       "10",
       "-scoreinterval",
       "5",
       "-use-affinity",
       "0-3",
       "-tournament",
       "roundrobin",
       "-site",
       "here",
       "-autosaveinterval",
       "20",
       "-crc32",
       "pgn=true",
       "-epdout",
       "file=out.epd"},
      {"--tournament", "nightly", "-engine", "builtin=a", "-engine", "builtin=b", "-games", "4",
       "-noswap", "-reverse", "-wait", "10", "-recover", "-quick", "-variant", "standard"},
  };
  std::vector<std::string> out;
  for (const auto& args : commands) {
    std::string text;
    for (const auto& a : args) text += a + "\n";
    out.push_back(text);
  }
  for (const char* spec : {"./engine", "cmd=./sf option.Hash=16 name=sf",
                           "builtin=ab option.Search=alphabeta option.Eval=material+pst"})
    out.push_back(spec);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: fuzz_seeds DATA_DIR SOURCE_DIR OUT_DIR\n";
    return 2;
  }
  const fs::path data = argv[1], source = argv[2], out = argv[3];
  if (!fs::is_directory(data)) {
    std::cerr << "fuzz_seeds: no test data directory " << data << "\n";
    return 2;
  }
  fs::remove_all(out);

  // FEN/EPD lines.
  Corpus fen(out / "fuzz_fen");
  std::vector<std::string> positions;
  for (const char* f : {"perft.epd", "wac.epd"})
    for (const auto& l : lines_of(read(data / f))) positions.push_back(l);
  for (const char* f : {"books/2moves_v1.epd", "books/noob_3moves.epd", "books/startpos.epd"})
    for (const auto& l : sample_lines(data / f, 150, 97)) positions.push_back(l);
  for (const auto& p : positions) fen.add(p);

  // Move text: a FEN, then moves as SAN and UCI lines (the book games, the WAC solutions).
  Corpus moves(out / "fuzz_move_text");
  const std::string book = read(data / "books/8moves_v3.pgn");
  const std::vector<std::string> book_games = pgn_games(book, 300);
  for (std::size_t i = 0; i < book_games.size() && i < 150; ++i) {
    auto read_back = chess::read_pgn(book_games[i]);
    if (read_back.games.empty()) continue;
    const chess::PgnGame& g = read_back.games[0];
    std::string text = g.start_fen + "\n";
    for (std::size_t k = 0; k < g.moves.size(); ++k)
      text += (k % 2 ? chess::to_uci(g.moves[k].move) : g.moves[k].san) + "\n";
    moves.add(text);
  }
  for (const auto& l : lines_of(read(data / "wac.epd"))) {
    auto epd = chess::parse_epd(l);
    if (!epd) continue;
    if (const auto* bm = epd->find("bm"))
      for (const auto& san : *bm) moves.add(epd->position.fen() + "\n" + san + "\n");
  }

  // PGN text, for the reader and for import: the edge cases, book games, several at once.
  for (const char* target : {"fuzz_pgn", "fuzz_pgn_import"}) {
    Corpus pgn(out / target);
    for (const auto& entry : fs::directory_iterator(data / "pgn")) pgn.add(read(entry.path()));
    for (std::size_t i = 0; i < book_games.size() && i < 100; ++i) pgn.add(book_games[i]);
    std::string several;
    for (std::size_t i = 100; i < book_games.size() && i < 110; ++i) several += book_games[i];
    pgn.add(several);
  }

  Corpus uci(out / "fuzz_uci_line");
  for (const auto& l : uci_lines(read(data / "uci-spec-2006.txt"))) uci.add(l);

  Corpus xboard(out / "fuzz_xboard_line");
  for (const auto& t : xboard_transcripts()) xboard.add(t);

  Corpus toml(out / "fuzz_config_toml");
  for (const auto& entry : fs::directory_iterator(source / "configs"))
    if (entry.path().extension() == ".toml") toml.add(read(entry.path()));

  Corpus flags(out / "fuzz_play_flags");
  for (const auto& l : play_command_lines()) flags.add(l);

  // HTTP requests as browsers and scripts send them to `knightly serve`, and ones it refuses.
  Corpus http(out / "fuzz_http_request");
  for (const char* request :
       {"GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Mozilla/5.0\r\nAccept: "
        "text/html\r\nConnection: keep-alive\r\n\r\n",
        "GET /api/query/games?limit=100000&engine=a%20b HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "HEAD /api/summary HTTP/1.0\r\nHost: [::1]:8080\r\n\r\n",
        "GET /api/games?before=12&limit=50 HTTP/1.1\r\nHost: knightly.lab\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n",
        "POST /api HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello",
        "GET / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET /%3Cscript%3E HTTP/1.1\r\nHost: localhost\r\nHost: evil\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n"})
    http.add(request);

  // Database locations in every form libpq accepts, and paths.
  Corpus locations(out / "fuzz_db_location");
  for (const char* location :
       {"knightly.db", "/var/lib/knightly/k.db", ":memory:", "env:KNIGHTLY_DB",
        "file:/etc/knightly/db.url", "postgresql://knightly@db.lab:5432/knightly",
        "postgresql://alice:s3cret@db.lab/knightly", "postgres://alice:p@ss@db.lab/k",
        "postgresql://a:p%40ss@h1,h2:5432,5433/d?sslmode=require&password=two",
        "postgresql://[::1]:5432/k?pass%77ord=zz&application_name=x@y",
        "postgresql://h/d?options=-csearch_path%3Dtest", "host=db.lab password=hunter2 dbname=k",
        "host=h password = 'a b\\' c' user=u", "postgresql://u:p/s?s@h/d"})
    locations.add(location);

  for (const auto& entry : fs::directory_iterator(out)) {
    std::size_t n = std::distance(fs::directory_iterator(entry.path()), fs::directory_iterator{});
    std::cout << entry.path().filename().string() << ": " << n << " seeds\n";
    if (n == 0) {
      std::cerr << "fuzz_seeds: no seeds for " << entry.path().filename() << "\n";
      return 1;
    }
  }
  return 0;
}
