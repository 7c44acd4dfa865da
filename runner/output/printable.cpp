#include "runner/output/printable.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>

namespace knightly::runner {
namespace {

// Length of the well-formed UTF-8 sequence starting at text[i] (2 to 4), or 0 (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

// A valid UTF-8 sequence that is a C1 control (U+0080..U+009F: C2 80..C2 9F).
bool is_c1(std::string_view text, std::size_t i, std::size_t n) {
  return n == 2 && static_cast<unsigned char>(text[i]) == 0xC2 &&
         static_cast<unsigned char>(text[i + 1]) < 0xA0;
}

void escape_byte(std::string& out, unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  out += buf;
}

// Appends `text` made printable to `out`, keeping newlines and tabs when `lines`. Returns how
// many bytes at the end were left out because they may begin a UTF-8 sequence that continues
// in text not seen yet (only when `partial`).
std::size_t append_printable(std::string& out, std::string_view text, bool lines,
                             bool partial = false) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c >= 0x20 && c < 0x7F) || (lines && (c == '\n' || c == '\t'))) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (std::size_t n = utf8_length(text, i)) {
        if (is_c1(text, i, n)) {
          escape_byte(out, static_cast<unsigned char>(text[i]));
          escape_byte(out, static_cast<unsigned char>(text[i + 1]));
        } else {
          out.append(text.substr(i, n));
        }
        i += n;
        continue;
      }
      // The start of a sequence cut off by the end of what came: wait for the rest.
      if (partial && c >= 0xC2 && c <= 0xF4 && text.size() - i < 4) {
        bool prefix = true;
        for (std::size_t k = i + 1; k < text.size(); ++k)
          prefix = prefix && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80;
        const std::size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (prefix && text.size() - i < need) return text.size() - i;
      }
    }
    escape_byte(out, c);
    ++i;
  }
  return 0;
}

// The filter between a stream and its real buffer.
class PrintableBuf : public std::streambuf {
 public:
  explicit PrintableBuf(std::streambuf* out) : out_(out) {}
  std::streambuf* raw() { return out_; }

 protected:
  int_type overflow(int_type ch) override {
    if (ch != traits_type::eof()) {
      const char c = traits_type::to_char_type(ch);
      put(&c, 1);
    }
    return traits_type::not_eof(ch);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    put(s, static_cast<std::size_t>(n));
    return n;
  }
  int sync() override { return out_->pubsync(); }

 private:
  void put(const char* s, std::size_t n) {
    pending_.append(s, n);
    std::string text;
    const std::size_t kept = append_printable(text, pending_, true, true);
    pending_.erase(0, pending_.size() - kept);
    out_->sputn(text.data(), static_cast<std::streamsize>(text.size()));
  }

  std::streambuf* out_;
  std::string pending_;  // the start of a UTF-8 sequence whose rest has not come yet
};

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(out, text, false);
  return out;
}

std::string printable_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(out, text, true);
  return out;
}

void install_printable_output() {
  // Never destroyed: the streams may be written to until the very end of the program.
  std::cerr.rdbuf(new PrintableBuf(std::cerr.rdbuf()));
  if (::isatty(STDOUT_FILENO) == 1) std::cout.rdbuf(new PrintableBuf(std::cout.rdbuf()));
}

void terminal_control(std::ostream& out, std::string_view sequence) {
  out.flush();
  std::streambuf* buf = out.rdbuf();
  if (auto* filter = dynamic_cast<PrintableBuf*>(buf)) buf = filter->raw();
  buf->sputn(sequence.data(), static_cast<std::streamsize>(sequence.size()));
}

std::optional<std::size_t> first_binary_byte(std::string_view text) {
  const auto binary = [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7F;
  };
  // Eight bytes at a time (a whole PGN file is checked before an import): a word with no
  // byte below 0x20 and none equal to 0x7F is passed over; another is looked at byte by byte.
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t x;
    std::memcpy(&x, text.data() + i, 8);
    const std::uint64_t below_space = (x - 0x20 * ones) & ~x & highs;
    const std::uint64_t y = x ^ (0x7F * ones);
    const std::uint64_t del = (y - ones) & ~y & highs;
    if ((below_space | del) == 0) continue;
    for (std::size_t k = i; k < i + 8; ++k)
      if (binary(text[k])) return k;
  }
  for (; i < text.size(); ++i)
    if (binary(text[i])) return i;
  return std::nullopt;
}

TextPosition text_position(std::string_view text, std::size_t offset, TextPosition from) {
  TextPosition p = from;
  offset = std::min(offset, text.size());
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace knightly::runner
