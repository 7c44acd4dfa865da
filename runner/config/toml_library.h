#pragma once
// TOML++ as every source of Knightly includes it. Its implementation is compiled into the
// config module (toml_impl.cpp) rather than linked from its shared library, and its internal
// assertions are off in every build type, as they are in Debian's build of that library:
// TOML++ 3.3 asserts on some malformed documents (a key that starts with a character it does
// not expect, found by tests/fuzz/fuzz_config_toml), which its parser then reports as the
// parse error they are ("expected bare key starting character or string delimiter").
#ifndef TOML_ASSERT
#define TOML_ASSERT(expr) static_cast<void>(0)
#endif
#include <toml++/toml.h>
