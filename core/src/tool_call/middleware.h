#pragma once
// The domain's middleware (domain.h `table_middleware`) applied to validated
// calls: fuzzy name matches, included relations, catalog links for reads and
// writes, and batch de-duplication. Lookups are planned here as calls and
// their rows consumed here; the executor performs them.

#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/registry/registry.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::detail {

using notes = std::vector<std::string>;

/// Rewrites that need no lookup: `=` on a fuzzy column becomes a
/// case-insensitive substring match, and configured relations are embedded
/// into reads that do not choose their own columns.
void apply_read_rewrites(const table& tbl, tool_call& call, notes& out);

/// Indices of read filters that name a catalog entry (`name = milk` on
/// inventory), with the names.
struct catalog_term {
  std::size_t filter_index = 0;
  std::string name;
};
std::vector<catalog_term> catalog_terms(const table& tbl, const tool_call& call);

/// Names of rows a create or update leaves without a catalog link.
std::vector<std::string> unlinked_names(const table& tbl, const tool_call& call);

/// The catalog reads that look `names` up (case and accents ignored, plurals
/// and aliases included): one, or several when the names would make a
/// request line longer than gateways accept (`kLookupRequestBytes`).
std::vector<tool_call> catalog_lookups(const domain& dom, const table& tbl, const std::vector<std::string>& names);

struct catalog_entry {
  /// The catalog row's key as the registry holds it, and its ref.
  std::string key;
  std::string ref;
  std::string name;
  std::vector<std::string> aliases;
  /// Values of the link's copy columns, as JSON text ("" for null).
  std::vector<std::string> copies;
};

/// The rows of a catalog lookup; they are registered (as linked rows with
/// their names as labels) so that they can be shown as refs.
result<std::vector<catalog_entry>> read_catalog_rows(const domain& dom, ref_registry& registry, const table& tbl,
                                                     std::string_view rows_json);

/// Replaces each catalog name filter with "linked to a matching catalog
/// entry, or named like it"; without a match, with the name match alone
/// (never with nothing: that would widen the read to every row).
void link_read_filters(const table& tbl, tool_call& call, const std::vector<catalog_term>& terms,
                       const std::vector<catalog_entry>& entries, notes& out);

/// Fills the catalog link (and copy columns) of rows that name a catalog entry.
void link_write_rows(const table& tbl, tool_call& call, const std::vector<catalog_entry>& entries, notes& out);

/// Batch creates on tables configured to: one row per catalog entry (or per
/// name), the last one given, in the order the rows were given.
void dedupe_batch(const table& tbl, tool_call& call, notes& out);

}  // namespace alfred::detail
