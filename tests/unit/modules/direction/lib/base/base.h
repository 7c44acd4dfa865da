#pragma once
// Fixture for tests/unit/modules: base (layer 1) includes mid (layer 2) without linking it.
#include "lib/mid/mid.h"

inline int base() { return 1; }
