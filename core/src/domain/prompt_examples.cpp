// The example slots of the Act templates, a domain's examples for them, and
// their substitution into template text.
#include "alfred/prompt_examples.h"

#include <algorithm>

namespace alfred {

const std::vector<prompt_example_slot>& prompt_example_slots() {
  static const std::vector<prompt_example_slot> slots = {
      {"note_example", "a note_for_next_step naming refs (base)"},
      {"ref_examples", "four refs of different tables (base)"},
      {"gen_ref", "a generated ref, bare (base, generate)"},
      {"ref_tables", "ref prefixes and their tables (base)"},
      {"ref_column", "a foreign key column (base)"},
      {"query_example", "an executed query as the prompt shows it (base)"},
      {"adjustment_example", "what an Effective: line may show (base, reply)"},
      {"complete_summary", "a step_complete summary (base)"},
      {"complete_note", "a step_complete note_for_next_step (base)"},
      {"op_eq", "a filter with = (crud)"},
      {"op_neq", "a filter with != (crud)"},
      {"op_compare", "a filter with a comparison (crud)"},
      {"op_in", "a filter with in over refs (crud)"},
      {"op_not_in", "a filter with not_in over refs (crud)"},
      {"op_like", "a filter with like (crud)"},
      {"op_ilike", "a filter with ilike (crud)"},
      {"op_not_like", "a filter with not_like (crud)"},
      {"op_not_ilike", "a filter with not_ilike (crud)"},
      {"op_is_null", "a filter with is_null (crud)"},
      {"op_is_not_null", "a filter with is_not_null (crud)"},
      {"op_contains", "a filter with contains on an array column (crud, read)"},
      {"op_contained_by", "a filter with contained_by (crud)"},
      {"op_overlaps", "a filter with overlaps (crud)"},
      {"op_similar_row", "the operator table's row for similar, or nothing (crud)"},
      {"exclude_not_in", "leaving refs out with not_in (crud)"},
      {"exclude_in", "keeping refs with in (crud)"},
      {"exclude_complex", "exclusions left to an analyze step (crud)"},
      {"reuse_by_ref", "selecting rows in context by ref (crud)"},
      {"read_scope", "what a read step reads and what not (read)"},
      {"read_call", "a complete db_read decision (read)"},
      {"read_by_ref", "a read by refs (read)"},
      {"read_either_or", "or_filters over two values (read)"},
      {"read_date_range", "a date range as two filters (read)"},
      {"read_by_meaning", "the semantic search pattern, or nothing (read)"},
      {"read_columns", "columns with a related table (read)"},
      {"read_long_columns", "which long columns to fetch only when needed (read)"},
      {"create_call", "a complete db_create decision (write)"},
      {"save_generated_steps", "saving a gen_ artifact and its linked rows (write)"},
      {"saved_as_example", "how a saved artifact is marked (write)"},
      {"write_ref_filter", "a filter on one ref (write)"},
      {"write_update_example", "an update by ref (write)"},
      {"write_delete_example", "a delete of several refs (write)"},
      {"write_cascade_note", "what a delete also deletes, or nothing (write)"},
      {"write_fk_columns", "foreign key columns (write)"},
      {"analyze_examples", "what analysis looks like (analyze)"},
      {"analyze_complete", "a step_complete with data (analyze)"},
      {"generate_intro", "what a generate step creates (generate)"},
      {"generate_shape", "generated content grouped by table (generate)"},
      {"generate_link_example", "a generated row pointing at an existing ref (generate)"},
      {"generate_quality", "what good generated content is (generate)"},
      {"reply_query_example", "an empty read with its tip (reply)"},
      {"reply_ref_example", "a ref never shown to the user (reply)"},
      {"assistant_role", "who answers the user (reply prompt of the loop)"},
      {"planner_generate_example", "what a generate step makes (planner)"},
  };
  return slots;
}

bool is_prompt_example_slot(std::string_view name) {
  const auto& slots = prompt_example_slots();
  return std::any_of(slots.begin(), slots.end(), [&](const prompt_example_slot& slot) { return slot.name == name; });
}

namespace {

const std::string* text_of(const example_texts& examples, std::string_view name) {
  for (const auto& [slot, text] : examples)
    if (slot == name) return &text;
  return nullptr;
}

}  // namespace

std::string fill_examples(std::string_view text, const example_texts& examples) {
  std::string out;
  out.reserve(text.size() + text.size() / 2);
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find("{{", at);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    const std::string* value = text_of(examples, text.substr(open + 2, close - open - 2));
    if (!value) {
      out.append(text.substr(at, close + 2 - at));
      at = close + 2;
      continue;
    }
    // A placeholder alone on its line with nothing to say takes the line with it.
    const bool line_start = open == 0 || text[open - 1] == '\n';
    const bool line_end = close + 2 == text.size() || text[close + 2] == '\n';
    out.append(text.substr(at, open - at));
    if (value->empty() && line_start && line_end) {
      at = close + 2 < text.size() ? close + 3 : close + 2;
      continue;
    }
    out.append(*value);
    at = close + 2;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace alfred
