#pragma once
// Fixture for tests/unit/modules: mid links base, a lower layer.
#include "lib/base/base.h"

inline int mid() { return base(); }
