// EngineProcess and LineChannel against real programs: coreutils and perl (Essential in
// Debian) started directly, no shell, their output read back through the channel.
#include "runner/players/engine_process.h"

#include <time.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "runner/players/line_channel.h"
#include "tests/integration/players/mock_paths.h"
#include "tests/support/process.h"

using namespace knightly;
using namespace knightly::runner;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

LineChannel::Deadline in(std::chrono::milliseconds d) {
  return Clock::now() + d;
}

// Every line the process writes until it closes its stdout (at most 5 s).
std::vector<std::string> all_lines(EngineProcess& p, LineChannel& c) {
  c.attach(p.stdout_fd(), p.stdin_fd(), p.pid());
  std::vector<std::string> lines;
  std::string_view line;
  auto until = in(5000ms);
  while (c.next_line(line, until) == LineChannel::Wait::Line) lines.emplace_back(line);
  return lines;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

long long ms_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

}  // namespace

TEST_CASE("process: argv reaches the program as given, and its exit is described", "[process]") {
  EngineProcess p;
  // A name without '/' is looked up in PATH; an argument with spaces and quotes stays one.
  REQUIRE_FALSE(p.start({"echo", {"one two", "'three'", "$HOME"}, "", {}, ""}));
  LineChannel c;
  CHECK(all_lines(p, c) == std::vector<std::string>{"one two 'three' $HOME"});
  CHECK(c.eof());
  CHECK(p.wait(2000ms) == "exit code 0");

  REQUIRE_FALSE(p.start({"false", {}, "", {}, ""}));
  CHECK(p.wait(2000ms) == "exit code 1");
  CHECK_FALSE(p.running());
}

TEST_CASE("process: what cannot start says which command and why", "[process]") {
  EngineProcess p;
  auto missing = p.start({"/no/such/engine", {}, "", {}, ""});
  REQUIRE(missing);
  CHECK(*missing == "cannot start /no/such/engine: No such file or directory");
  CHECK_FALSE(p.started());

  auto not_in_path = p.start({"no-such-engine-knightly", {}, "", {}, ""});
  REQUIRE(not_in_path);
  CHECK(*not_in_path == "command not found in PATH: no-such-engine-knightly");

  auto no_dir = p.start({"/bin/true", {}, "/no/such/directory", {}, ""});
  REQUIRE(no_dir);
  CHECK(*no_dir == "cannot start /bin/true: working directory /no/such/directory does not exist");

  // exec's own error: a file that is not executable.
  test::TempDir dir;
  std::ofstream(dir.file("engine")) << "not a program\n";
  auto no_exec = p.start({dir.file("engine"), {}, "", {}, ""});
  REQUIRE(no_exec);
  CHECK(*no_exec == "cannot start " + dir.file("engine") + ": Permission denied");
}

TEST_CASE("process: environment, working directory and stderr file", "[process]") {
  test::TempDir dir;
  const std::string work = dir.path().string();
  const std::string err_file = dir.file("stderr.log");
  EngineProcess p;
  REQUIRE_FALSE(p.start({"env", {}, work, {{"KNIGHTLY_PROCESS_VAR", "a b=c"}}, ""}));
  LineChannel c;
  auto env = all_lines(p, c);
  CHECK(contains(env, "KNIGHTLY_PROCESS_VAR=a b=c"));
  const char* path = std::getenv("PATH");
  REQUIRE(path);
  CHECK(contains(env, std::string("PATH=") + path));  // ours is inherited
  // A configured variable replaces ours rather than adding a second entry.
  REQUIRE_FALSE(p.start({"env", {}, "", {{"PATH", "/bin:/usr/bin"}}, ""}));
  auto replaced = all_lines(p, c);
  CHECK(std::count_if(replaced.begin(), replaced.end(),
                      [](const std::string& l) { return l.starts_with("PATH="); }) == 1);
  CHECK(contains(replaced, "PATH=/bin:/usr/bin"));

  REQUIRE_FALSE(p.start({"pwd", {"-P"}, work, {}, ""}));
  auto cwd = all_lines(p, c);
  REQUIRE(cwd.size() == 1);
  CHECK(std::filesystem::equivalent(cwd[0], work));

  REQUIRE_FALSE(p.start({"ls", {"/no/such/file/knightly"}, "", {}, err_file}));
  CHECK(all_lines(p, c).empty());
  CHECK(p.wait(2000ms) != "exit code 0");
  CHECK(test::read_file(err_file).find("/no/such/file/knightly") != std::string::npos);
}

TEST_CASE("process: its own process group, killed with it, and reaped", "[process]") {
  EngineProcess p;
  REQUIRE_FALSE(p.start({"sleep", {"30"}, "", {}, ""}));
  const pid_t pid = p.pid();
  CHECK(p.running());
  CHECK(::getpgid(pid) == pid);  // a terminal's Ctrl-C to the runner's group misses it
  auto t0 = Clock::now();
  CHECK(p.wait(100ms) == "process still running");
  CHECK(ms_since(t0) >= 100);
  p.kill();
  CHECK_FALSE(p.started());
  CHECK(test::process_gone(pid));  // reaped: no zombie left
  p.kill();                        // again: nothing to do

  // A process that has exited is described, then kill() only reaps and closes.
  REQUIRE_FALSE(p.start({"perl", {"-e", "kill 'TERM', $$"}, "", {}, ""}));
  CHECK(p.wait(2000ms) == "killed by signal 15 (Terminated)");
  const pid_t perl = p.pid();
  p.kill();
  CHECK(test::process_gone(perl));
}

TEST_CASE("channel: lines, CR LF, a last line without a newline, then EOF", "[channel]") {
  EngineProcess p;
  REQUIRE_FALSE(p.start({"printf", {"a\\nb\\r\\n\\nlast"}, "", {}, ""}));
  LineChannel c;
  CHECK(all_lines(p, c) == std::vector<std::string>{"a", "b", "", "last"});
  std::string_view line;
  CHECK(c.next_line(line, in(100ms)) == LineChannel::Wait::Eof);
  CHECK(c.read_error().empty());
}

TEST_CASE("channel: a round trip through cat, and a deadline without an answer", "[channel]") {
  EngineProcess p;
  REQUIRE_FALSE(p.start({"cat", {}, "", {}, ""}));
  LineChannel c;
  c.attach(p.stdout_fd(), p.stdin_fd(), p.pid());
  REQUIRE(c.write("uci\nisready\n", in(1000ms)) == LineChannel::Wait::Line);
  std::string_view line;
  REQUIRE(c.next_line(line, in(2000ms)) == LineChannel::Wait::Line);
  CHECK(line == "uci");
  REQUIRE(c.next_line(line, in(2000ms)) == LineChannel::Wait::Line);
  CHECK(line == "isready");
  auto t0 = Clock::now();
  CHECK(c.next_line(line, in(150ms)) == LineChannel::Wait::Timeout);
  CHECK(ms_since(t0) >= 150);
  CHECK(ms_since(t0) < 1500);
  // A deadline already past: Timeout at once, even with a line on its way.
  REQUIRE(c.write("late\n", in(1000ms)) == LineChannel::Wait::Line);
  CHECK(c.next_line(line, Clock::now() - 1ms) == LineChannel::Wait::Timeout);
  REQUIRE(c.next_line(line, in(2000ms)) == LineChannel::Wait::Line);
  CHECK(line == "late");
}

TEST_CASE("channel: the read-deadline timer is disarmed when the thread turns to other work",
          "[channel]") {
  // A read answered before its deadline leaves the thread's timer armed for that deadline. Its
  // signal would then interrupt whatever the thread does next (stdio does not retry a write it
  // cuts short): disarm_read_deadline() stops it. Each case on a thread of its own, with a
  // timer of its own; a 400 ms nanosleep(2) is interrupted or not by the 150 ms deadline.
  auto sleep_interrupted = [](bool disarm) {
    bool interrupted = false, answered = false;
    std::thread t([&] {
      EngineProcess p;
      if (p.start({"echo", {"ready"}, "", {}, ""})) return;
      LineChannel c;
      c.attach(p.stdout_fd(), p.stdin_fd(), p.pid());
      std::string_view line;
      answered = c.next_line(line, in(150ms)) == LineChannel::Wait::Line && line == "ready";
      if (disarm) disarm_read_deadline();
      timespec ts{0, 400'000'000};
      interrupted = ::nanosleep(&ts, nullptr) != 0 && errno == EINTR;
    });
    t.join();
    CHECK(answered);
    return interrupted;
  };
  CHECK(sleep_interrupted(false));  // left armed, the deadline's signal comes after the read
  CHECK_FALSE(sleep_interrupted(true));
}

TEST_CASE("channel: a read outlives an earlier, shorter deadline and ends at its own",
          "[channel]") {
  // Reads block in read(2), each ended at its deadline by this thread's timer signal. The
  // timer stays armed for the earliest deadline it covered: when that passes during a later
  // read with a later deadline, the read must go on until its own.
  EngineProcess p;
  REQUIRE_FALSE(
      p.start({"perl",
               {"-e", "$|=1; print qq(first\n); select(undef,undef,undef,0.6); print qq(late\n);"},
               "",
               {},
               ""}));
  LineChannel c;
  c.attach(p.stdout_fd(), p.stdin_fd(), p.pid());
  std::string_view line;
  REQUIRE(c.next_line(line, in(250ms)) == LineChannel::Wait::Line);  // arms the timer at +250 ms
  CHECK(line == "first");
  auto t0 = Clock::now();
  REQUIRE(c.next_line(line, in(3000ms)) == LineChannel::Wait::Line);
  CHECK(line == "late");
  CHECK(ms_since(t0) >= 400);
  // And a deadline that is shorter than the armed one still ends its read on time.
  LineChannel quiet;
  EngineProcess sleeper;
  REQUIRE_FALSE(sleeper.start({"sleep", {"30"}, "", {}, ""}));
  quiet.attach(sleeper.stdout_fd(), sleeper.stdin_fd(), sleeper.pid());
  REQUIRE(c.next_line(line, in(5000ms)) == LineChannel::Wait::Eof);  // arms nothing earlier
  t0 = Clock::now();
  CHECK(quiet.next_line(line, in(120ms)) == LineChannel::Wait::Timeout);
  CHECK(ms_since(t0) >= 120);
  CHECK(ms_since(t0) < 1500);
  // Reads on another thread have their own timer (Catch2 checks stay on this thread).
  bool started = false;
  LineChannel::Wait got = LineChannel::Wait::Line;
  long long waited = 0;
  std::thread other([&] {
    EngineProcess q;
    started = !q.start({"sleep", {"30"}, "", {}, ""});
    if (!started) return;
    LineChannel oc;
    oc.attach(q.stdout_fd(), q.stdin_fd(), q.pid());
    std::string_view l;
    const auto start = Clock::now();
    got = oc.next_line(l, in(150ms));
    waited = ms_since(start);
  });
  other.join();
  REQUIRE(started);
  CHECK(got == LineChannel::Wait::Timeout);
  CHECK(waited >= 150);
  CHECK(waited < 1500);
}

TEST_CASE("channel: a full pipe is a write timeout, a dead reader is EOF", "[channel]") {
  EngineProcess p;
  REQUIRE_FALSE(p.start({"sleep", {"30"}, "", {}, ""}));  // never reads its stdin
  LineChannel c;
  c.attach(p.stdout_fd(), p.stdin_fd(), p.pid());
  const std::string big(4 << 20, 'x');
  auto t0 = Clock::now();
  CHECK(c.write(big, in(200ms)) == LineChannel::Wait::Timeout);
  CHECK(ms_since(t0) >= 200);
  CHECK(ms_since(t0) < 2000);
  p.kill();
  c.detach();

  REQUIRE_FALSE(p.start({"true", {}, "", {}, ""}));
  c.attach(p.stdout_fd(), p.stdin_fd(), p.pid());
  CHECK(p.wait(2000ms) == "exit code 0");
  CHECK(c.write("quit\n", in(500ms)) == LineChannel::Wait::Eof);  // EPIPE, and no SIGPIPE death
}

TEST_CASE("channel: a line over 1 MiB is dropped and counted, the next one kept", "[channel]") {
  EngineProcess p;
  REQUIRE_FALSE(p.start({"perl", {"-e", "print 'x' x 3000000, \"\\nok\\n\""}, "", {}, ""}));
  LineChannel c;
  CHECK(all_lines(p, c) == std::vector<std::string>{"ok"});
  CHECK(c.dropped_lines() == 1);
}

TEST_CASE("channel: the logs have every line sent and received, tagged with the pid", "[channel]") {
  test::TempDir dir;
  EngineProcess p;
  REQUIRE_FALSE(p.start({"cat", {}, "", {}, ""}));
  {
    LineChannel c(ChannelLog{dir.file("engine.log"), dir.file("all.log"), "sf", true});
    c.attach(p.stdout_fd(), p.stdin_fd(), p.pid());
    REQUIRE(c.write("position startpos\ngo depth 1\n", in(1000ms)) == LineChannel::Wait::Line);
    std::string_view line;
    REQUIRE(c.next_line(line, in(2000ms)) == LineChannel::Wait::Line);
    REQUIRE(c.next_line(line, in(2000ms)) == LineChannel::Wait::Line);
    c.note("warning:", "a note");
  }
  const std::string tag = "[" + std::to_string(p.pid()) + "] ";
  // Two commands written at once are two log lines.
  const std::string own = tag + "> position startpos\n" + tag + "> go depth 1\n" + tag +
                          "< position startpos\n" + tag + "< go depth 1\n" + tag +
                          "warning: a note\n";
  CHECK(test::read_file(dir.file("engine.log")) == own);
  std::string shared;
  std::istringstream lines(own);
  for (std::string l; std::getline(lines, l);) shared += "sf " + l + "\n";
  CHECK(test::read_file(dir.file("all.log")) == shared);
  // Without a file, nothing is logged and nothing fails.
  LineChannel quiet;
  CHECK_FALSE(quiet.logging());
  quiet.note("warning:", "dropped");
}
