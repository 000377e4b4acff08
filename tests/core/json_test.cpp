#include <nlohmann/json.hpp>

#include "support.h"
