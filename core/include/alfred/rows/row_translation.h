#pragma once
/// Output translation: rows returned by PostgREST become rows the model may
/// see. Every key the domain declares (a row's key of any type, foreign keys,
/// uuid[] columns, embedded rows) becomes a ref, the signed-in user's id
/// becomes `me`, another user's id and hidden columns (and the owner column
/// of an owner-scoped table) are dropped, every row is registered with its
/// label and last action, and a foreign key whose target row has a label gets
/// `_<column>_label` after it — unless it points at a row it is embedded in
/// (an embedded recipe_ingredients row's `recipe_id`) whose own text shows
/// that label. `current_user` is the signed-in user's id ("" for none).
///
/// Labels of foreign-key targets the registry has not seen come with the
/// read itself where the database can join them (`label_embeds`: each
/// foreign key's row embedded under an alias the translation leaves out,
/// `apply_embedded_labels` registers them), else from one lookup per target
/// table, run by the executor before translating: `unlabeled_references`
/// says which rows, `label_select` what to select, `apply_labels` registers
/// what came back. A failed lookup only means fewer labels: translation does
/// not depend on it.
///
///     auto rows = translate_rows(dom, reg, *dom.find_table("inventory"), body, ref_action::read, user_id);
///     // [{"id":"inv_1","name":"milk",…,"ingredient_id":"ing_1"}]: no UUID, no owner column; inv_1 in reg
///
/// Translation reads the domain and writes the session's registry while it
/// runs and returns text the caller owns. `tbl` must be a table of `dom`,
/// and a `label_lookup`'s `target` points into the domain, which must
/// outlive it.

#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/registry/registry.h"

namespace alfred {

/// The display label of a row: `label_format` when all of its columns have
/// values, else the first non-empty `label_columns` value, else "".
std::string row_label(const table& tbl, json_value row);

/// Translates an array of rows (or one row object) of `tbl`, registering keys
/// with `action` and foreign keys as `linked`. Values that are not keys of
/// the declared type are dropped rather than shown. Columns the domain
/// does not declare are dropped, so an undeclared UUID can never leak.
/// Strings are written escaped as `JSON.stringify` would, without whitespace.
/// Invalid JSON is an `invalid_json` error and leaves the registry unchanged.
/// A single pass over the text, with no document built. `rows_written`,
/// when given, gets the number of rows written (1 for one row object).
/// A UUID inside a text value is kept as written (the rows are the
/// developer's too); `quotes_uuid`, when given, says whether the text holds
/// one, so that a caller can skip the pass of `scrub_uuids` when it would
/// change nothing:
///
///     bool quotes_uuid = true;
///     auto rows = translate_rows(dom, reg, tbl, body, ref_action::read, user_id, nullptr, &quotes_uuid);
///     if (rows && quotes_uuid) scrub_uuids(*rows, reg);  // the model's copy
///
/// An array of more than `max_rows` elements is a `response_too_large` error
/// ("more than N rows") and leaves the registry unchanged: the rows are
/// counted in the same pass.
result<std::string> translate_rows(const domain& dom, ref_registry& registry, const table& tbl,
                                   std::string_view rows_json, ref_action action, std::string_view current_user = {},
                                   std::size_t* rows_written = nullptr, bool* quotes_uuid = nullptr,
                                   std::size_t max_rows = std::size_t(-1));

/// The rows of one table whose labels a response refers to but the registry
/// lacks.
struct label_lookup {
  const table* target = nullptr;
  /// Keys as the registry holds them (canonical lower-case UUIDs, integer
  /// digits, text), distinct, in the order first referenced.
  std::vector<std::string> keys;
};

/// For each table that foreign keys of `rows_json` point to (nested rows
/// too; `uuid[]` columns are not labeled), the UUIDs whose row has no label
/// in `registry`, leaving out rows that the response itself contains with a
/// label. Tables in the order first referenced; none when all are labeled.
/// Reads only: the registry is not changed.
result<std::vector<label_lookup>> unlabeled_references(const domain& dom, const ref_registry& registry,
                                                       const table& tbl, std::string_view rows_json,
                                                       std::string_view current_user = {});

/// `translate_rows` when every foreign key of the rows points at a row whose
/// label the registry has (or that the rows themselves label): `rows` holds
/// the translation and `missing` is empty. Otherwise `missing` is what
/// `unlabeled_references` would say, `rows` is empty and the registry is as
/// it was. One pass over the text in the usual case, where the labels are
/// known, instead of a survey and a translation.
struct labeled_translation {
  std::string rows;
  std::vector<label_lookup> missing;
  /// The rows written (1 for one row object).
  std::size_t count = 0;
  /// Whether `rows` holds a UUID inside a text value (scrub_uuids would
  /// change it), as translate_rows says.
  bool quotes_uuid = true;
};
result<labeled_translation> translate_rows_if_labeled(const domain& dom, ref_registry& registry, const table& tbl,
                                                      std::string_view rows_json, ref_action action,
                                                      std::string_view current_user = {},
                                                      std::size_t max_rows = std::size_t(-1));

/// The PostgREST `select` for a label lookup of `tbl`: its key column, then
/// the columns its label reads ("id,date,meal_type" for meal plans, "id,name"
/// for recipes). Without `with_key`, the columns its label reads alone
/// ("name"): a label embed's, whose foreign key holds the key.
std::string label_select(const table& tbl, bool with_key = true);

/// Registers the labels of rows a label lookup of `target` returned: a known
/// row gets its label (its action and ref stay), an unknown one becomes a
/// `linked` ref with its label. Rows without an id or a label are skipped;
/// invalid JSON is an `invalid_json` error and changes nothing.
status apply_labels(const domain& dom, ref_registry& registry, const table& target, std::string_view rows_json);

/// A foreign key of a read whose target row's label the read brings along:
/// `select` is the item (`_label_recipe_id:recipe_id(name)`: the row the
/// column points at, by the column, which names one relationship even when
/// two columns point at one table or a table at itself; its label's columns,
/// the key only where the label reads it, since `column` beside it holds
/// it), `alias` the member it arrives under (no column's name starts with
/// `_`, so the translation does not know it and it never reaches the model).
struct label_embed {
  std::string alias;
  std::string select;
  const table* target = nullptr;
  /// The foreign key (a column of the rows the embed is in): the target row's
  /// key. A name of the domain's, as `target` points into it.
  std::string_view column;
  /// For rows embedded in the read's rows, the member they arrive under
  /// (`recipe_ingredients`, a name of the domain's): the item goes inside
  /// that embed's select. Empty for the read's own rows.
  std::string_view within;
};

/// The label embeds of a read of `tbl` with `columns` (the call's select
/// items as validated; empty or "*" for every column the model sees): one
/// per foreign key among them that the model sees, to a table of `dom` with
/// a one-column key and a label of more than that key, and the same for the
/// rows of each embed among the items (`recipe_ingredients(…,ingredient_id)`).
/// None for a foreign key that is the row's one-column key (a one-to-one
/// table's), to a table the API does not serve, or whose alias would be
/// longer than PostgreSQL's names.
std::vector<label_embed> label_embeds(const domain& dom, const table& tbl, const std::vector<std::string>& columns);

/// Registers the labels that a read's rows (`rows_json`, as PostgREST
/// returned them with `embeds` selected) carry under the embeds' aliases,
/// as `apply_labels` does for a lookup's rows; the signed-in user's own row
/// (`current_user`'s, in a table keyed by user ids: `me` to the model) gets
/// no ref. Each label's row is the one its foreign key beside it names (the
/// embed brings no key of its own). A row without the member or that foreign
/// key, or with null (no row, or one row-level security hides), adds
/// nothing; invalid JSON is an `invalid_json` error and changes nothing.
status apply_embedded_labels(ref_registry& registry, const std::vector<label_embed>& embeds, std::string_view rows_json,
                             std::string_view current_user = {});

}  // namespace alfred
