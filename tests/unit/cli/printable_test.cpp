// Text from outside made safe to echo: control characters and non-UTF-8 bytes escaped.
#include "runner/output/printable.h"

#include <catch2/catch.hpp>

#include "runner/output/table.h"

using namespace knightly::runner;

TEST_CASE("printable escapes control characters and bytes that are not UTF-8", "[cli][printable]") {
  CHECK(printable("Stockfish 16") == "Stockfish 16");
  CHECK(printable(std::string("a\nb\tc\0d", 7)) == "a\\x0ab\\x09c\\x00d");
  CHECK(printable("\x1b[31mred") == "\\x1b[31mred");  // no terminal escape gets through
  CHECK(printable("back\\slash") == "back\\slash");   // printable text is kept as it is
  CHECK(printable("\x7f") == "\\x7f");
  // UTF-8 is kept; a Latin-1 byte, a lone continuation byte, an overlong form, a surrogate
  // and a truncated sequence are not UTF-8.
  CHECK(printable("B\xc3\xb6hm \xe2\x99\x9e \xf0\x9f\x90\xb4") ==
        "B\xc3\xb6hm \xe2\x99\x9e \xf0\x9f\x90\xb4");
  CHECK(printable("B\xf6hm") == "B\\xf6hm");
  CHECK(printable("\x80") == "\\x80");
  CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");
  CHECK(printable("\xe2\x99") == "\\xe2\\x99");
  // C1 controls are UTF-8 but terminal control too (U+009B is CSI, U+009D OSC).
  CHECK(printable("a\xc2\x9b"
                  "2Jb\xc2\xa0") == "a\\xc2\\x9b2Jb\xc2\xa0");
}

TEST_CASE("printable_lines keeps newlines and tabs, nothing else", "[cli][printable]") {
  CHECK(printable_lines("a\n\tb\r\x1b]0;t\x07") == "a\n\tb\\x0d\\x1b]0;t\\x07");
}

TEST_CASE("first_binary_byte finds what no text file holds, text_position says where",
          "[cli][printable]") {
  CHECK_FALSE(first_binary_byte("[Event \"x\"]\r\n\t1. e4 *\f\v\n"));
  CHECK_FALSE(first_binary_byte("B\xf6hm"));  // Latin-1 text is text
  const std::string elf(
      "\x7f"
      "ELF\x02\x01",
      6);
  CHECK(first_binary_byte(elf) == 0u);
  const std::string nul = std::string("1. e4 e5\n2. Nf3 ") + '\0' + "Nc6";
  REQUIRE(first_binary_byte(nul) == 16u);
  const TextPosition p = text_position(nul, 16);
  CHECK(p.line == 2);
  CHECK(p.column == 8);
  CHECK(text_position("abc", 0).line == 1);
  CHECK(text_position("abc", 0).column == 1);
  // A block of a longer input, from where the block starts: a line the block boundary cuts
  // goes on counting columns, the next lines start again.
  for (std::size_t cut = 0; cut <= 16; ++cut) {
    const TextPosition first = text_position(nul, cut, {3, 5});
    const TextPosition q = text_position(std::string_view(nul).substr(cut), 16 - cut, first);
    INFO(cut);
    CHECK(q.line == 4);
    CHECK(q.column == 8);
  }
  CHECK(text_position("ab", 2, {3, 5}).column == 7);
}

TEST_CASE("a text table is one line per row whatever the names hold", "[cli][printable]") {
  Table t({"Engine", "Games"});
  t.add_row({cell(std::string("evil\nname\x1b[2J")), cell(3LL)});
  t.add_row({cell(std::string("B\xc3\xb6hm")), cell(4LL)});
  const std::string text = t.render(OutputFormat::Table, "t");
  CHECK(text == "Engine" + std::string(15, ' ') +
                    "Games\n"
                    "evil\\x0aname\\x1b[2J      3\n"
                    "B\xc3\xb6hm                    4\n");
  // CSV and JSON keep their own escaping.
  CHECK(t.render(OutputFormat::Csv, "t").find("\"evil\nname") != std::string::npos);
  CHECK(t.render(OutputFormat::Json, "t").find("evil\\nname") != std::string::npos);
}

TEST_CASE("a 100% score over two games is +inf with its bound, though the bound is below 0",
          "[cli][table][elo]") {
  stats::Trinomial won;
  won.wins = 2;
  const EloCells w = elo_cells(stats::get_elo(won), 1);
  CHECK(w.elo.text == "+inf");
  CHECK(w.error.text == ">=-290.5");
  CHECK(w.note == "100% score: no finite Elo; >=-290.5 at 95%");
  stats::Trinomial lost;
  lost.losses = 2;
  const EloCells l = elo_cells(stats::get_elo(lost), 1);
  CHECK(l.elo.text == "-inf");
  CHECK(l.error.text == "<=290.5");
  CHECK(l.note == "0% score: no finite Elo; <=290.5 at 95%");
}

TEST_CASE("an even score's Elo is 0.0 in a table, never -0.0", "[cli][table][elo]") {
  const EloCells even = elo_cells(stats::get_elo(stats::Trinomial{2, 1, 2}), 1);
  CHECK(even.elo.text == "0.0");
  CHECK(cell(-0.04, 1).text == "0.0");
  CHECK(cell(-0.05, 1).text == "-0.1");
  CHECK(cell(-3.0, 0).text == "-3");
}
