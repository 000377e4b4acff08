#include "generated_read.h"

#include <algorithm>
#include <vector>

#include "../json/format.h"

namespace alfred::detail {
namespace {

struct id_clauses {
  /// The string refs of `<key> = …` and `<key> in […]` clauses, in order.
  std::vector<std::string> refs;
  /// Whether some clause is not one of those.
  bool other_clauses = false;
};

id_clauses read_id_clauses(json_value filters, std::string_view key) {
  id_clauses out;
  filters.for_each_element([&](std::size_t, json_value clause) {
    auto field = clause.find("field");
    auto op = clause.find("op");
    auto value = clause.find("value");
    const bool on_id = field && field->is_string() && field->str() == key && op && op->is_string() && value;
    if (on_id && (op->str() == "=" || op->str() == "eq") && value->is_string()) {
      out.refs.emplace_back(value->str());
    } else if (on_id && op->str() == "in" && value->is_array()) {
      value->for_each_element([&](std::size_t, json_value item) {
        if (item.is_string()) out.refs.emplace_back(item.str());
      });
    } else {
      out.other_clauses = true;
    }
  });
  return out;
}

}  // namespace

std::optional<result<std::string>> read_generated(const domain& dom, const ref_registry& registry, const table& tbl,
                                                  json_value params) {
  auto filters = params.find("filters");
  if (!filters || !filters->is_array()) return std::nullopt;
  const column* key_col = tbl.key_column();
  if (!key_col) return std::nullopt;
  const id_clauses clauses = read_id_clauses(*filters, key_col->name);
  const std::vector<std::string>& refs = clauses.refs;
  std::vector<const ref_entry*> pending;
  std::vector<std::string> others;
  for (const auto& ref : refs) {
    const ref_entry* entry = registry.find(ref);
    if (entry && entry->pending())
      pending.push_back(entry);
    else
      others.push_back(ref);
  }
  if (pending.empty()) return std::nullopt;
  if (!others.empty())
    return result<std::string>(
        error{codes::mixed_refs, "filters",
              textfmt::format("{} are generated and not saved, {} are database rows; one read cannot mix them",
                              pending.front()->ref, textfmt::join(others, ", ")),
              "read the generated refs and the saved rows in two separate db_read calls"});
  for (const ref_entry* entry : pending)
    if (entry->type != tbl.ref_prefix) {
      const table* owner = dom.find_table_by_prefix(entry->type);
      return result<std::string>(error{codes::ref_type_mismatch, "filters",
                                       textfmt::format("{} is generated {} content, not a row of {}", entry->ref,
                                                       owner ? owner->name : entry->type, tbl.name),
                                       textfmt::format("read it with table {}", owner ? owner->name : entry->type)});
    }
  auto or_filters = params.find("or_filters");
  if (clauses.other_clauses || (or_filters && or_filters->is_array() && !or_filters->empty()))
    return result<std::string>(error{codes::generated_filter, "filters",
                                     "generated artifacts are read by id only; other filters cannot apply to them",
                                     "filter on id alone, or save the artifact first"});

  std::string out;
  json_writer w(out);
  w.begin_array();
  for (const ref_entry* entry : pending) {
    const std::string content_text = entry->content.value_or("{}");
    auto content = json_document::parse(content_text);
    w.begin_object();
    w.key(key_col->name);
    w.string(entry->ref);
    if (content && content->root().is_object())
      content->root().for_each_member([&](std::string_view key, json_value value) {
        if (key == key_col->name) return;
        w.key(key);
        w.value(value);
      });
    w.end_object();
  }
  w.end_array();
  return result<std::string>(std::move(out));
}

}  // namespace alfred::detail
