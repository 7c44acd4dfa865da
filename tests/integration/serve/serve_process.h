#pragma once
// `knightly serve` as a process for the tests: started in the background on a free loopback
// port with its output in a file, stopped and reaped by the destructor, so no test leaves it
// behind; and one GET (or other method) over a fresh connection.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/serve/http_client.h"
#include "tests/support/process.h"

namespace knightly::test {

class ServeProcess {
 public:
  // `extra`: more arguments of serve. The first line of its output names the address.
  ServeProcess(const std::string& db, const TempDir& dir, std::vector<std::string> extra = {})
      : out_(dir.file("serve.out")) {
    std::vector<std::string> argv = {knightly_binary(), "serve",      "--db", db,
                                     "--bind",          "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    pid_ = spawn_background(argv, "", false, out_, out_ + ".err");
    for (int i = 0; i < 300 && port_ == 0 && running(); ++i) {
      const std::string text = read_file(out_);
      const auto at = text.find("http://127.0.0.1:");
      if (at != std::string::npos && text.find('/', at + 7) != std::string::npos)
        port_ = std::stoi(text.substr(at + 17));
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  ~ServeProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  pid_t pid() const { return pid_; }
  int port() const { return port_; }  // 0 when it did not start listening
  // SIGTERM, then the exit code (-1 if it had to be killed).
  int terminate() {
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return -1;
  }
  std::string output() const { return read_file(out_); }
  std::string errors() const { return read_file(out_ + ".err"); }
  // The Host header a browser sends for it.
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  bool running() const {
    int status = 0;
    return pid_ > 0 && ::waitpid(pid_, &status, WNOHANG) == 0;
  }
  std::string out_;
  pid_t pid_ = -1;
  int port_ = 0;
};

// One request over a fresh connection, with the Host header a browser would send.
inline std::string get(int port, const std::string& method, const std::string& target) {
  RawConnection c(port);
  c.send(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
         "\r\nConnection: close\r\n\r\n");
  return c.receive([](const std::string&) { return false; });
}

}  // namespace knightly::test
