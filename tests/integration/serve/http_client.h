#pragma once
// A raw HTTP/1.1 client for the tests: what is sent is exactly what the test writes.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace knightly::test {

class RawConnection {
 public:
  // `source`: the loopback address to connect from (a client of its own to the server).
  explicit RawConnection(int port, const char* source = nullptr) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ >= 0 && source) {
      sockaddr_in from{};
      from.sin_family = AF_INET;
      ::inet_pton(AF_INET, source, &from.sin_addr);
      if (::bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0)
        throw std::runtime_error(std::string("cannot bind to ") + source);
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<unsigned short>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
      throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  void send(const std::string& text) {
    std::size_t at = 0;
    while (at < text.size()) {
      const ssize_t n = ::send(fd_, text.data() + at, text.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return;  // the server may close first (a refused request)
      at += static_cast<std::size_t>(n);
    }
  }

  // Reads until the peer closes, `enough` returns true for what came, or `limit` passes.
  template <class Enough>
  std::string receive(Enough enough, std::chrono::milliseconds limit = std::chrono::seconds(20)) {
    std::string got;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    closed_ = false;
    while (!enough(got)) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[65536];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        closed_ = true;
        break;
      }
      got.append(buf, static_cast<std::size_t>(n));
    }
    return got;
  }
  // One whole response (headers and Content-Length bytes of body; none for a HEAD).
  std::string response(bool head = false) {
    return receive([head](const std::string& s) {
      const auto end = s.find("\r\n\r\n");
      if (end == std::string::npos) return false;
      if (head) return true;
      const auto cl = s.find("Content-Length: ");
      if (cl == std::string::npos || cl > end) return true;
      return s.size() >= end + 4 + std::stoul(s.substr(cl + 16));
    });
  }
  bool closed() const { return closed_; }

 private:
  int fd_ = -1;
  bool closed_ = false;
};

inline std::string status_line(const std::string& response) {
  return response.substr(0, response.find("\r\n"));
}

inline std::string body_of(const std::string& response) {
  const auto end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

}  // namespace knightly::test
