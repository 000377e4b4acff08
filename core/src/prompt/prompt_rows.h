#pragma once
// Rows as the Act prompt shows them: one `- \`ref\` | key: value` line per
// row, long lists as numbered lines, embedded rows indented below their
// parent. Empty values are left out.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/json/json.h"
#include "prompt_input.h"

namespace alfred::detail {

/// Refs whose rows a prompt already shows in full: top-level rows, and rows
/// embedded in another row (`ri_` rows inside a recipe).
struct shown_refs {
  /// Refs added while rows are rendered, looked up once they are: a vector
  /// sorted at the first lookup (cheaper than a tree node per ref).
  class ref_set {
   public:
    void insert(std::string_view ref) {
      refs_.push_back(ref);
      sorted_ = false;
    }
    bool count(std::string_view ref) const {
      if (!sorted_) {
        std::sort(refs_.begin(), refs_.end());
        sorted_ = true;
      }
      return std::binary_search(refs_.begin(), refs_.end(), ref);
    }
    bool empty() const { return refs_.empty(); }

   private:
    mutable std::vector<std::string_view> refs_;
    mutable bool sorted_ = true;
  };
  ref_set rows;
  ref_set embedded;

  bool contains(std::string_view ref) const { return rows.count(ref) || embedded.count(ref); }
};

/// Appends one row object. Records its ref and those of embedded rows in
/// `shown` when given. `parent_ref` is set for rows embedded in another row
/// (their foreign key back to it is left out).
void render_row(std::string& out, json_value row, const prompt_limits& limits, std::string_view indent,
                shown_refs* shown, std::string_view parent_ref = {});

/// Appends a list of rows (or one row object): at most
/// `limits.rows_per_result`, then one line listing the refs of the rest.
void render_rows(std::string& out, json_value data, const prompt_limits& limits, std::string_view indent,
                 shown_refs* shown, std::string_view parent_ref = {});

/// The row's ref (its `id` string), or "".
std::string_view row_ref(json_value row);

}  // namespace alfred::detail
