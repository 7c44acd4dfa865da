#pragma once
// Time-control text as cutechess-cli writes it: `[moves/]time[+increment]` with time in
// seconds (`60`, `0.5`) or `minutes:seconds` (`1:30`), increment in seconds, or `inf`.
// Fixed time per move (`st=0.1`) is parsed by parse_seconds_text into movetime_ms.
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "runner/config/config.h"

namespace knightly::runner {

// "40/60+0.6" -> {moves 40, 60000 ms, +600 ms}; errors say what is wrong with the text.
std::expected<TimeControl, std::string> parse_tc_text(std::string_view text);

// "0.25" -> 250, "1:30" -> 90000; negative, empty or malformed -> error.
std::expected<std::int64_t, std::string> parse_seconds_text(std::string_view text);

}  // namespace knightly::runner
