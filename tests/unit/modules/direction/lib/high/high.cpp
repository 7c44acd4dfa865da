// Fixture for tests/unit/modules: high links mid, and reaches base only through it.
#include "lib/high/high.h"

#include "lib/base/base.h"
#include "lib/mid/mid.h"

int high() { return mid() + base(); }
