#pragma once
// Reads of generated, unsaved artifacts (`id = gen_recipe_1`) are answered
// from the registry: the rows exist nowhere else until a write saves them.

#include <optional>
#include <string>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/registry/registry.h"

namespace alfred::detail {

/// The rows for a db_read of `tbl` whose `id` filters name only pending
/// `gen_` refs, as a JSON array; nothing when the read names none (it goes to
/// the database: saved artifacts are read from there). Naming pending and
/// saved rows together, pending refs of another table, or any other filter is
/// an error.
std::optional<result<std::string>> read_generated(const domain& dom, const ref_registry& registry, const table& tbl,
                                                  json_value params);

}  // namespace alfred::detail
