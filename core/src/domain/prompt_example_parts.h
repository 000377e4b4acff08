#pragma once
// The pieces derived prompt examples are made of (prompt_examples_derived.cpp
// writes one example per slot from them): the tables and columns chosen once
// per domain, and the writers of refs, filters, rows and decisions. They
// use only what the domain declares, so every example is a valid call of it.

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

#include "alfred/domain/domain.h"

namespace alfred::detail {

/// A column the model may use in filters and writes of `tbl`.
bool usable(const domain& dom, const table& tbl, const column& col);
/// The column a table's refs are written in ("id" for most tables).
std::string key_of(const table& tbl);
/// A column holding a ref to another table (a foreign key of any key type).
bool is_reference(const column& col);
/// "organizations" → "organization", "shopping_list" → "shopping list".
std::string singular(std::string_view name);
/// "shopping_list" → "shopping list".
std::string plain(std::string_view name);
/// `<prefix>_<number>`: a ref of `tbl`.
std::string ref(const table& tbl, int number);
/// `["<ref>", …]`: refs of `tbl` as a JSON list.
std::string refs_json(const table& tbl, std::initializer_list<int> numbers);
/// `{"field": …, "op": …, "value": <value_json>}`.
std::string filter(std::string_view field, std::string_view op, std::string_view value_json);
/// `text` in backticks.
std::string code(std::string_view text);

/// The columns and tables the examples are made of, chosen once per domain.
struct picks {
  const table* main = nullptr;    // the table most examples use
  const table* second = nullptr;  // another table, for variety
  const table* child = nullptr;   // a table that belongs to main (a relation)
  const column* child_fk = nullptr;
  const table* create = nullptr;  // a table taking creates, for their examples
  const table* update = nullptr;  // one taking updates (create's where it does)
  const table* remove = nullptr;  // one taking deletes (create's where it does)
  const column* label = nullptr;  // main's text label column
  const table* enum_table = nullptr;
  const column* enum_col = nullptr;
  const table* number_table = nullptr;
  const column* number = nullptr;
  const table* date_table = nullptr;
  const column* date = nullptr;
  const table* array_table = nullptr;
  const column* array = nullptr;
  const table* fk_table = nullptr;
  const column* fk = nullptr;
  const table* semantic = nullptr;
};

/// A table's text label column, or the first free text column, or null.
const column* text_label(const table& tbl);
/// The picks for `dom`, which has at least one table.
picks pick(const domain& dom);

/// The n-th allowed value of an enum column (wrapping).
std::string enum_value(const column& col, std::size_t n);
/// Array values for examples: allowed values when the column has them.
std::string array_json(const column& col, std::size_t from, std::size_t count);
/// `<which> <singular of the table>`: "New deal".
std::string new_value(const table& tbl, std::string_view which = "New");
/// A row for a create example: the label, every other required plain column,
/// and `extra` (ready JSON members); with `dom`, also each required foreign
/// key `extra` does not give, as a ref of its table (`me` for a user id).
std::string example_row(const table& tbl, std::string_view which, std::string_view extra = "",
                        const domain* dom = nullptr);
/// A decision in the strict shape: every field, null where unused ("" for
/// null).
std::string decision(std::string_view tool, std::string_view table_name, std::string_view filters_json,
                     std::string_view limit, std::string_view order_by, std::string_view order_dir,
                     std::string_view data_json);

/// A filter that selects some rows of `p.enum_table` (or of main by label).
struct sample_filter {
  const table* tbl;
  std::string shown;  // as a Query: line shows it
  std::string json;   // the filter clause
};

/// The sample filter of `p`.
sample_filter sample(const picks& p);

}  // namespace alfred::detail
