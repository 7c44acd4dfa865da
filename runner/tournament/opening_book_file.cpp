// The only part of the opening books that reads files.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/tournament/opening_book.h"

namespace knightly::runner {

std::expected<OpeningBook, BookError> load_opening_book(const OpeningsConfig& openings) {
  if (openings.file.empty()) return std::unexpected(BookError{"", 0, "no opening file configured"});
  std::ifstream in(openings.file, std::ios::binary);
  if (!in)
    return std::unexpected(BookError{
        openings.file, 0, std::string("cannot read the opening book: ") + std::strerror(errno)});
  std::string text;
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0) {
    text.resize(static_cast<std::size_t>(size));
    in.read(text.data(), size);
  }
  const std::string label = std::filesystem::path(openings.file).filename().string();
  if (openings.format == BookFormat::Bin) {
    auto book = OpeningBook::from_polyglot(text, label);
    if (!book) return std::unexpected(BookError{openings.file, 0, book.error().message});
    return book;
  }
  OpeningBook book = openings.format == BookFormat::Pgn
                         ? OpeningBook::from_pgn(std::move(text), label, openings.plies)
                         : OpeningBook::from_epd(std::move(text), label);
  if (book.size() == 0)
    return std::unexpected(BookError{openings.file, 0, "the opening book has no openings"});
  return book;
}

}  // namespace knightly::runner
