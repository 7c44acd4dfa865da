#pragma once
// Fixture for tests/unit/modules.
int high();
