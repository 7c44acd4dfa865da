#pragma once
// Outside text made safe to echo on a terminal or in a one-line message: control characters
// (C0, DEL and C1, U+0080..U+009F, which terminals read as CSI and OSC too) and bytes that are
// not UTF-8 are written as \xNN, so a binary file, a tag holding an escape sequence or a
// newline in a name can neither garble the terminal nor split one message into several lines.
//
// And the same for everything the program writes for people: install_printable_output()
// puts a filter on stderr (always: messages, also in logs) and on stdout when it is a
// terminal, which lets through newlines and tabs and escapes every other control byte, so
// that no text from a file, an engine or a name reaches the terminal raw, whichever message
// carries it. Knightly's own terminal control (the status line's "\r\033[K") goes around
// the filter through terminal_control().
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace knightly::runner {

std::string printable(std::string_view text);

// printable() for text of several lines: newlines and tabs kept.
std::string printable_lines(std::string_view text);

// Installs the filter on std::cerr, and on std::cout when standard output is a terminal.
// Once, at the program's start.
void install_printable_output();

// Writes `sequence` (terminal control of Knightly's own) to `out` unfiltered.
void terminal_control(std::ostream& out, std::string_view sequence);

// Where `text` holds a byte no text file has (NUL, or a control character other than tab,
// line feed, carriage return, form feed and vertical tab): its offset, or nullopt.
std::optional<std::size_t> first_binary_byte(std::string_view text);

// 1-based line and column of `offset` in `text` (columns count bytes), `text` starting at
// `from` (a block of a longer input: the position of the block's first byte in it).
struct TextPosition {
  int line = 1;
  int column = 1;
};
TextPosition text_position(std::string_view text, std::size_t offset, TextPosition from = {});

}  // namespace knightly::runner
