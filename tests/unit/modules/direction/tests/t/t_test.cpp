// Fixture for tests/unit/modules: a test program that links base but includes mid.
#include "lib/mid/mid.h"

int main() { return mid(); }
