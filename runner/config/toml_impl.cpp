// TOML++'s implementation, compiled here once (TOML_IMPLEMENTATION) rather than taken from its
// shared library: the programs then load no C++ shared library, so they link libstdc++ and
// libgcc statically and no process pays for loading and relocating them (CMakeLists.txt).
#define TOML_IMPLEMENTATION
#include "runner/config/toml_library.h"
