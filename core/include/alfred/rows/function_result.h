#pragma once
/// A database function's answer as rows the model may see
/// (docs/functions.md): values and JSON that are not rows of a domain table.
/// Rows of a domain table go through `translate_rows` instead.
///
///     auto rows = translate_function_json(dom, reg, R"([{"account_id":"6f1c…","name":"Acme"}])", user_id);
///     // [{"account_id":"account_1","name":"Acme"}]: account_1 in reg, labelled "Acme"
///
/// Every result is a list of rows: a JSON array of objects as it is, one
/// object as a list of one, a value as `{"value": …}`. A field named like a
/// foreign-key column of the domain (`account_id`) whose value is a key of the
/// table that column references becomes that table's ref (registered as
/// linked; an object without an `id` of its own describes one such row and
/// labels it: the one under `user_id`, else the first other, else the first
/// user's); a field named like a user-id column (and `user_id` where nothing
/// else says) holds `me` for the signed-in user and a ref of the domain's
/// users for anyone else (docs/keys-and-owners.md, Other users). Other UUIDs
/// stay as they are here: the caller scrubs what the model reads.
///
/// Reads the domain and writes the registry while it runs; returns text the
/// caller owns.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/registry/registry.h"

namespace alfred {

/// A `json` result (or a record, or a `returns table (…)`) as rows.
/// `rows_written`, when given, gets the number of rows. Invalid JSON is an
/// `invalid_json` error and leaves the registry unchanged.
/// `subjects`: the keys the call named (its arguments that take refs); an
/// object that describes one of those rows relabels it, where otherwise only
/// a row without a label gets one.
result<std::string> translate_function_json(const domain& dom, ref_registry& registry, std::string_view body,
                                            std::string_view current_user = {}, std::size_t* rows_written = nullptr,
                                            std::span<const std::string> subjects = {});

/// A value result (`returns integer`, `returns setof uuid`) as rows of
/// `{"value": …}`; a value that is a key of `returns.references` becomes its
/// ref.
result<std::string> translate_function_values(const domain& dom, ref_registry& registry, const db_function& fn,
                                              std::string_view body, std::size_t* rows_written = nullptr);

}  // namespace alfred
