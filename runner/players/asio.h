#pragma once
// Boost 1.74's Asio uses std::exchange/std::forward without including <utility>, which breaks
// under C++20 and later: every Asio user includes this header first.
// clang-format off
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
// clang-format on
