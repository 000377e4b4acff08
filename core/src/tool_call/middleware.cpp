#include "middleware.h"

#include <algorithm>
#include <utility>

#include "../json/format.h"
#include "../json/text.h"
#include "alfred/json/json.h"
#include "alfred/tool_call/like_pattern.h"
#include "alfred/uuid/uuid.h"
#include "row_key.h"

namespace alfred::detail {
namespace {

using detail::trimmed_lower;

// "tomatoes" → "tomato", "berries" → "berry", "eggs" → "egg"; the catalog
// names things in the singular.
std::string singular(const std::string& name) {
  auto ends_with = [&](std::string_view suffix) {
    return name.size() > suffix.size() + 1 && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with("ies")) return name.substr(0, name.size() - 3) + "y";
  if (ends_with("oes")) return name.substr(0, name.size() - 2);
  if (ends_with("s") && !ends_with("ss")) return name.substr(0, name.size() - 1);
  return name;
}

bool names_match(const std::string& wanted, const catalog_entry& entry) {
  const std::string wanted_singular = singular(wanted);
  auto same = [&](std::string_view candidate) {
    const std::string lower = fold_latin(candidate);
    return lower == wanted || lower == wanted_singular || singular(lower) == wanted_singular;
  };
  return same(entry.name) || std::any_of(entry.aliases.begin(), entry.aliases.end(), same);
}

std::vector<const catalog_entry*> matches(const std::vector<catalog_entry>& entries, const std::string& name) {
  const std::string wanted = fold_latin(name);
  std::vector<const catalog_entry*> out;
  for (const auto& entry : entries)
    if (names_match(wanted, entry)) out.push_back(&entry);
  return out;
}

filter text_filter(const column& col, filter_op op, std::string text) {
  filter f;
  f.field = col.name;
  f.col = &col;
  f.op = op;
  f.values.push_back({scalar::kind::text, std::move(text)});
  return f;
}

// Turns `f` into the fuzzy name match: `ilike *name*`, ignoring accents as
// far as the request-size budget allows (like_pattern.h).
void match_part_of_name(filter& f, std::string_view name) {
  f.op = filter_op::ilike;
  f.values.front().text = "*" + like_literal(name) + "*";
  f.accents = folding_within(f.values.front().text, accent_folding::exact, kAccentFoldBudget);
}

const row_field* find_field(const row& fields, std::string_view name) {
  for (const auto& field : fields)
    if (field.column == name) return &field;
  return nullptr;
}

// The text of a JSON string value ("" for anything else).
std::string json_string_text(const std::string& json) {
  auto doc = json_document::parse(json);
  return doc && doc->root().is_string() ? std::string(doc->root().str()) : std::string();
}

}  // namespace

void apply_read_rewrites(const table& tbl, tool_call& call, notes& out) {
  const table_middleware& mw = tbl.middleware;
  for (auto& f : call.filters) {
    if (f.op != filter_op::eq || !f.col || f.value().is_null() ||
        std::find(mw.fuzzy_columns.begin(), mw.fuzzy_columns.end(), f.field) == mw.fuzzy_columns.end())
      continue;
    const std::string text = f.value().text;
    match_part_of_name(f, text);
    out.push_back(textfmt::format("{} = \"{}\" matched as a part of the name, ignoring case{} ({} ilike *{}*)", f.field,
                                  text, f.accents != accent_folding::none ? " and accents" : "", f.field, text));
  }
  const bool own_columns =
      !call.columns.empty() && std::find(call.columns.begin(), call.columns.end(), "*") == call.columns.end();
  if (own_columns) return;
  if (!mw.include.empty() && call.columns.empty()) call.columns.push_back("*");
  for (const auto& item : mw.include) {
    const std::string_view relation = std::string_view(item).substr(0, item.find('('));
    const bool chosen = std::any_of(call.columns.begin(), call.columns.end(), [&](const std::string& c) {
      return c.size() > relation.size() && c.compare(0, relation.size(), relation) == 0 && c[relation.size()] == '(';
    });
    if (!chosen) call.columns.push_back(item);
  }
}

std::vector<catalog_term> catalog_terms(const table& tbl, const tool_call& call) {
  std::vector<catalog_term> out;
  const auto& link = tbl.middleware.catalog;
  if (!link) return out;
  for (std::size_t i = 0; i < call.filters.size(); ++i) {
    const filter& f = call.filters[i];
    if (f.field == link->name_column && f.op == filter_op::eq && !f.value().is_null() &&
        !trimmed_lower(f.value().text).empty())
      out.push_back({i, f.value().text});
  }
  return out;
}

std::vector<std::string> unlinked_names(const table& tbl, const tool_call& call) {
  std::vector<std::string> out;
  const auto& link = tbl.middleware.catalog;
  if (!link) return out;
  for (const auto& fields : call.rows) {
    if (find_field(fields, link->link_column)) continue;
    const row_field* name = find_field(fields, link->name_column);
    if (!name) continue;
    std::string text = json_string_text(name->json);
    if (!trimmed_lower(text).empty() && std::find(out.begin(), out.end(), text) == out.end())
      out.push_back(std::move(text));
  }
  return out;
}

namespace {

// A read of the catalog's key, name, alias and copied columns, with no
// names in it yet.
tool_call catalog_read(const table& catalog, const catalog_link& link) {
  tool_call call;
  call.kind = tool_kind::read;
  call.tbl = &catalog;
  call.columns = {catalog.key_column()->name, link.name_column};
  if (!link.alias_column.empty()) call.columns.push_back(link.alias_column);
  for (const auto& copy : link.copy_columns) call.columns.push_back(copy);
  return call;
}

// The filters that look `name` up in `call` (on the name column, and the
// alias column when there is one), and in `size` what they add to its URL.
std::vector<filter> name_filters(const tool_call& call, const std::string& name, const column& name_col,
                                 const column* alias_col, std::size_t& size) {
  // The singular ignores accents, loosely (like_pattern.h): `matches` then
  // keeps only the entries it agrees with. A plural is also matched as
  // typed, ignoring case.
  std::vector<filter> filters;
  const std::string lower = trimmed_lower(name);
  const std::string one = singular(lower);
  size = 0;
  for (const auto& [form, folds] : {std::pair{&one, true}, std::pair{&lower, false}}) {
    const std::string pattern = like_literal(*form);
    auto same = [&](const filter& f) { return f.col == &name_col && f.value().text == pattern; };
    if (std::any_of(call.or_filters.begin(), call.or_filters.end(), same) ||
        std::any_of(filters.begin(), filters.end(), same))
      continue;
    filters.push_back(text_filter(name_col, filter_op::ilike, pattern));
    filter& match = filters.back();
    if (folds) match.accents = folding_within(pattern, accent_folding::loose, kLookupFoldBudget);
    size += match.accents == accent_folding::none ? pattern.size()
                                                  : encode_like_pattern(pattern, true, match.accents).value.size();
    if (alias_col) {
      filters.push_back(text_filter(*alias_col, filter_op::contains, *form));
      size += form->size();
    }
  }
  return filters;
}

}  // namespace

std::vector<tool_call> catalog_lookups(const domain& dom, const table& tbl, const std::vector<std::string>& names) {
  const catalog_link& link = *tbl.middleware.catalog;
  const table& catalog = *dom.find_table(link.catalog);
  const column& name_col = *catalog.find_column(link.name_column);
  const column* alias_col = link.alias_column.empty() ? nullptr : catalog.find_column(link.alias_column);
  std::vector<tool_call> out;
  std::size_t bytes = 0;      // of filter values in the last lookup
  std::size_t looked_up = 0;  // names in the last lookup
  out.push_back(catalog_read(catalog, link));
  for (const auto& name : names) {
    std::size_t size = 0;
    auto filters = name_filters(out.back(), name, name_col, alias_col, size);
    if (looked_up > 0 && bytes + size > kLookupRequestBytes) {
      out.push_back(catalog_read(catalog, link));
      bytes = 0;
      looked_up = 0;
      filters = name_filters(out.back(), name, name_col, alias_col, size);
    }
    tool_call& call = out.back();
    for (filter& f : filters) call.or_filters.push_back(std::move(f));
    bytes += size;
    ++looked_up;
    call.limit = std::min<long>(dom.max_rows, long(looked_up) * 5);
  }
  return out;
}

result<std::vector<catalog_entry>> read_catalog_rows(const domain& dom, ref_registry& registry, const table& tbl,
                                                     std::string_view rows_json) {
  const catalog_link& link = *tbl.middleware.catalog;
  const table& catalog = *dom.find_table(link.catalog);
  auto doc = json_document::parse(rows_json);
  if (!doc || !doc->root().is_array())
    return error{codes::invalid_response, "", textfmt::format("the {} lookup returned no rows array", catalog.name),
                 ""};
  const column_type key_type = catalog.key_column()->type;
  std::vector<catalog_entry> out;
  doc->root().for_each_element([&](std::size_t, json_value item) {
    auto key = row_key_text(catalog, item);
    auto name = item.find(link.name_column);
    if (!key || !name || !name->is_string()) return;
    catalog_entry entry;
    entry.key = std::move(*key);
    entry.name = std::string(name->str());
    if (auto aliases = item.find(link.alias_column); aliases && aliases->is_array())
      aliases->for_each_element([&](std::size_t, json_value alias) {
        if (alias.is_string()) entry.aliases.emplace_back(alias.str());
      });
    for (const auto& copy : link.copy_columns) {
      auto value = item.find(copy);
      entry.copies.push_back(value && !value->is_null() ? std::string(value->raw()) : std::string());
    }
    const ref_entry* known = key_type == column_type::uuid ? registry.find_by_uuid(entry.key, catalog.ref_prefix)
                                                           : registry.find_by_key(catalog.ref_prefix, entry.key);
    entry.ref = known ? known->ref
                      : registry.register_keyed_row(catalog.name, catalog.ref_prefix, key_type, entry.key,
                                                    ref_action::linked, entry.name);
    if (entry.ref.empty()) return;  // no ref number left: not linked
    out.push_back(std::move(entry));
  });
  return out;
}

void link_read_filters(const table& tbl, tool_call& call, const std::vector<catalog_term>& terms,
                       const std::vector<catalog_entry>& entries, notes& out) {
  const catalog_link& link = *tbl.middleware.catalog;
  const column& link_col = *tbl.find_column(link.link_column);
  std::vector<filter> kept;
  std::vector<std::vector<filter>> groups;
  for (std::size_t i = 0; i < call.filters.size(); ++i) {
    auto term = std::find_if(terms.begin(), terms.end(), [&](const catalog_term& t) { return t.filter_index == i; });
    if (term == terms.end()) {
      kept.push_back(std::move(call.filters[i]));
      continue;
    }
    filter name_match = std::move(call.filters[i]);
    match_part_of_name(name_match, term->name);
    const auto found = matches(entries, term->name);
    if (found.empty()) {
      out.push_back(textfmt::format("no catalog entry is named \"{}\"; matched {} ilike *{}*", term->name,
                                    link.name_column, term->name));
      kept.push_back(std::move(name_match));
      continue;
    }
    std::vector<std::string> keys;
    std::vector<std::string_view> refs;
    for (const catalog_entry* entry : found) {
      keys.push_back(entry->key);
      refs.push_back(entry->ref);
    }
    filter linked = key_in_filter(link_col, std::move(keys));
    out.push_back(textfmt::format("\"{}\" is catalog {} ({}); matched rows linked to it or named like it", term->name,
                                  textfmt::join(refs, ", "), found.front()->name));
    groups.push_back({std::move(linked), std::move(name_match)});
  }
  call.filters = std::move(kept);
  for (auto& group : groups) {
    if (call.or_filters.empty())
      call.or_filters = std::move(group);
    else
      call.or_groups.push_back(std::move(group));
  }
}

void link_write_rows(const table& tbl, tool_call& call, const std::vector<catalog_entry>& entries, notes& out) {
  const catalog_link& link = *tbl.middleware.catalog;
  const column& link_col = *tbl.find_column(link.link_column);
  for (auto& fields : call.rows) {
    if (find_field(fields, link.link_column)) continue;
    const row_field* name = find_field(fields, link.name_column);
    if (!name) continue;
    const std::string text = json_string_text(name->json);
    const auto found = matches(entries, text);
    if (found.empty()) continue;
    const catalog_entry& entry = *found.front();
    fields.push_back({link_col.name, link_col.type == column_type::integer ? entry.key : json_quote(entry.key)});
    for (std::size_t i = 0; i < link.copy_columns.size(); ++i) {
      const column& col = *tbl.find_column(link.copy_columns[i]);
      if (!entry.copies[i].empty() && !find_field(fields, col.name)) fields.push_back({col.name, entry.copies[i]});
    }
    out.push_back(textfmt::format("\"{}\" linked to catalog {} ({})", text, entry.ref, entry.name));
  }
}

void dedupe_batch(const table& tbl, tool_call& call, notes& out) {
  const auto& link = tbl.middleware.catalog;
  if (!link || !link->dedupe_batches || !call.batch || call.rows.size() < 2) return;
  std::vector<std::string> keys;
  for (const auto& fields : call.rows) {
    std::string key;
    if (const row_field* linked = find_field(fields, link->link_column); linked && linked->json != "null")
      key = linked->json;
    else if (const row_field* name = find_field(fields, link->name_column))
      key = trimmed_lower(json_string_text(name->json));
    keys.push_back(std::move(key));
  }
  // Decide first, move after: a batch without duplicates stays as it is.
  std::vector<bool> later_duplicate(keys.size(), false);
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    later_duplicate[i] = !keys[i].empty() && std::find(keys.begin() + long(i) + 1, keys.end(), keys[i]) != keys.end();
    if (later_duplicate[i]) ++dropped;
  }
  if (!dropped) return;
  std::vector<row> rows;
  std::vector<std::string> saves;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (later_duplicate[i]) continue;
    rows.push_back(std::move(call.rows[i]));
    saves.push_back(std::move(call.saves[i]));
  }
  call.rows = std::move(rows);
  call.saves = std::move(saves);
  out.push_back(textfmt::format(
      "{} duplicate row(s) of the same item dropped from the batch; the last one of each was kept", dropped));
}

}  // namespace alfred::detail
