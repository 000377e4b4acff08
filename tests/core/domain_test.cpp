#include "support.h"
TEST_CASE("kitchen domain loads") { CHECK(alfred::test::kitchen().tables.size() == 9); }
