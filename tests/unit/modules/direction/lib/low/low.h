#pragma once
// Fixture for tests/unit/modules: low links high, a higher layer.
#include "lib/high/high.h"
