#include "row_plan.h"

#include <algorithm>
#include <functional>

#include "../json/format.h"
#include "../uuid/uuid_search.h"
#include "alfred/json/json.h"

namespace alfred::detail {
namespace {

const table* embed_target(const domain& dom, const table& tbl, std::string_view key) {
  if (const relation* rel = tbl.find_relation(key)) return dom.find_table(rel->table);
  for (const auto& col : tbl.columns)
    if (col.type != column_type::uuid_array && col.references == key && key != tbl.name) return dom.find_table(key);
  return nullptr;
}

// The rule for member `key` of rows of `tbl`, in the order the checks have
// always been made: owner column, hidden columns, declared columns, embeds.
member_rule rule_for(const domain& dom, const table& tbl, std::string_view key) {
  member_rule rule;
  rule.name = std::string(key);
  const bool hidden = std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), key) != tbl.hidden_columns.end();
  if (tbl.hides_owner(key) || hidden) return rule;
  if (const column* col = tbl.find_column(key)) {
    if (col == tbl.key_column()) {
      rule.kind = member_kind::row_id;
      rule.target = &tbl;
      rule.key_type = col->type;
    } else if (col->type != column_type::uuid_array && !col->references.empty()) {
      rule.target = dom.find_table(col->references);
      rule.kind = rule.target ? member_kind::foreign_key : member_kind::drop;
      rule.key_type = col->type;
    } else if (col->user_id) {
      // A user id is a foreign key to the domain's users: `me`, or another user's ref.
      rule.target = dom.users_table();
      rule.kind = rule.target ? member_kind::foreign_key : member_kind::drop;
      rule.key_type = column_type::uuid;
    } else if (col->type == column_type::uuid) {
      rule.kind = member_kind::drop;  // a uuid the domain cannot name
    } else if (col->type == column_type::uuid_array) {
      rule.target = dom.find_table(col->references);
      rule.kind = rule.target ? member_kind::uuid_array : member_kind::drop;
    } else {
      rule.kind = member_kind::copy;
    }
  } else if (const table* target = embed_target(dom, tbl, key)) {
    rule.kind = member_kind::embed;
    rule.target = target;
  }
  return rule;
}

}  // namespace

std::unique_ptr<table_plan> make_plan(const domain& dom, const table& tbl) {
  auto plan = std::make_unique<table_plan>();
  plan->tbl = &tbl;
  plan->label = compile_label(tbl);
  if (tbl.labelled_by_key())
    plan->own_label_key_text = textfmt::format(",{}:", json_quote(textfmt::format("_{}_label", tbl.key.front())));
  auto add = [&](std::string_view key) {
    for (const auto& rule : plan->rules)
      if (rule.name == key) return;
    member_rule rule = rule_for(dom, tbl, key);
    if (rule.kind == member_kind::drop) return;
    rule.key_text = json_quote(key) + ':';
    if (rule.kind == member_kind::foreign_key)
      rule.label_key_text = textfmt::format(",{}:", json_quote(textfmt::format("_{}_label", key)));
    plan->rules.push_back(std::move(rule));
  };
  for (const auto& col : tbl.columns) add(col.name);
  for (const auto& rel : tbl.relations) add(rel.name);
  for (const auto& col : tbl.columns)
    if (col.type != column_type::uuid_array && !col.references.empty()) add(col.references);
  // Label columns the model does not see still feed the label.
  for (std::size_t slot = 0; slot < plan->label.names.size(); ++slot) {
    const std::string& name = plan->label.names[slot];
    auto it =
        std::find_if(plan->rules.begin(), plan->rules.end(), [&](const member_rule& r) { return r.name == name; });
    if (it == plan->rules.end()) {
      member_rule rule;
      rule.name = name;
      plan->rules.push_back(std::move(rule));
      it = plan->rules.end() - 1;
    }
    it->label_slot = int(slot);
    plan->label_shown = plan->label_shown && it->kind == member_kind::copy;
  }
  plan->index();
  // Member names are the domain's: whether a key's text holds a UUID is known here.
  for (const member_rule& rule : plan->rules)
    for (const std::string& key : {rule.key_text, rule.label_key_text})
      if (find_uuid(key.data(), key.size(), 0) != key.size()) plan->quotes_uuid = true;
  return plan;
}

}  // namespace alfred::detail

namespace alfred {

void table_plans::make(const domain& dom) {
  auto plans = std::make_shared<std::vector<std::unique_ptr<detail::table_plan>>>();
  plans->reserve(dom.tables.size());
  for (const table& tbl : dom.tables) plans->push_back(detail::make_plan(dom, tbl));
  plans_ = std::move(plans);
}

const detail::table_plan* table_plans::find(const domain& dom, const table& tbl) const {
  // A table of this domain (std::less orders any two pointers) that the plans were made for.
  const std::less<const table*> before;
  if (!plans_ || plans_->size() != dom.tables.size() || before(&tbl, dom.tables.data()) ||
      !before(&tbl, dom.tables.data() + dom.tables.size()))
    return nullptr;
  const auto& plan = (*plans_)[std::size_t(&tbl - dom.tables.data())];
  return plan->tbl == &tbl ? plan.get() : nullptr;
}

}  // namespace alfred
