// The middleware stages before the main request: catalog lookups that
// resolve names, and semantic search (embedding, the search RPC, the ranking).
#include <algorithm>
#include <optional>

#include "../json/format.h"
#include "../json/stable_order.h"
#include "../tool_call/middleware.h"
#include "../tool_call/param_path.h"
#include "../tool_call/row_key.h"
#include "alfred/json/json.h"
#include "alfred/rows/row_translation.h"
#include "alfred/tool_call/tool_call.h"
#include "db_error.h"
#include "execution_state.h"
#include "query_record.h"

namespace alfred {

using detail::query_source;

bool execution::state::consume_catalog(pending_need& lookup) {
  need_response& answer = *lookup.answer;
  apply_limits(answer);
  const table& tbl = *effective->tbl;
  const std::string catalog = tbl.middleware.catalog->catalog;
  if (!succeeded(answer)) {
    fail(detail::database_error(answer, "looking the name up in " + catalog));
    return false;
  }
  auto entries = detail::read_catalog_rows(dom, registry, tbl, answer.body);
  if (!entries) {
    fail(entries.err());
    return false;
  }
  for (auto& entry : *entries) {
    const bool known = std::any_of(catalog_found.begin(), catalog_found.end(),
                                   [&](const detail::catalog_entry& e) { return e.key == entry.key; });
    if (!known) catalog_found.push_back(std::move(entry));
  }
  return true;
}

void execution::state::link_catalog() {
  const table& tbl = *effective->tbl;
  if (effective->kind == tool_kind::read)
    detail::link_read_filters(tbl, *effective, terms, catalog_found, record.notes);
  else
    detail::link_write_rows(tbl, *effective, catalog_found, record.notes);
  catalog_found.clear();
}

bool execution::state::consume_embedding(pending_need& embedding) {
  const need_response& answer = *embedding.answer;
  const table& tbl = *effective->tbl;
  if (answer.status < 200 || answer.status >= 300) {
    fail({codes::embedding_failed, "filters", "embedding the search text failed: " + answer.body,
          "semantic search is unavailable; filter with ilike on name or description instead"});
    return false;
  }
  auto doc = json_document::parse(answer.body);
  bool numbers = doc && doc->root().is_array() && !doc->root().empty();
  std::string vector_text;
  if (numbers) {
    json_writer w(vector_text);
    w.begin_array();
    doc->root().for_each_element([&](std::size_t, json_value item) {
      numbers = numbers && item.is_number();
      if (numbers) w.raw_value(item.raw());
    });
    w.end_array();
  }
  if (!numbers) {
    fail({codes::embedding_failed, "filters", "the embedder returned something other than an array of numbers", ""});
    return false;
  }
  const semantic_search& search = *tbl.middleware.semantic;
  std::string body;
  json_writer w(body);
  w.begin_object();
  w.key(search.embedding_arg);
  w.string(vector_text);
  w.key(search.count_arg);
  w.integer(search.limit);
  w.key(search.distance_arg);
  w.raw_value(search.max_distance);
  w.end_object();
  return add_request(build_rpc_request(search.rpc, std::move(body), options), &state::consume_ranking);
}

bool execution::state::consume_ranking(pending_need& rpc) {
  need_response& answer = *rpc.answer;
  apply_limits(answer);
  tool_call& call = *effective;
  const table& tbl = *call.tbl;
  if (!succeeded(answer)) {
    fail(detail::database_error(answer, "semantic search"));
    return false;
  }
  auto doc = json_document::parse(answer.body);
  if (!doc || !doc->root().is_array()) {
    fail({codes::invalid_response, "", "semantic search returned no rows array", ""});
    return false;
  }
  const column& key_col = *tbl.key_column();
  std::vector<std::string> ids;
  doc->root().for_each_element([&](std::size_t, json_value item) {
    auto key = detail::row_key_text(tbl, item);
    if (!key) return;
    const bool known = key_col.type == column_type::uuid ? registry.find_by_uuid(*key, tbl.ref_prefix) != nullptr
                                                         : registry.find_by_key(tbl.ref_prefix, *key) != nullptr;
    if (!known)
      registry.register_keyed_row(tbl.name, tbl.ref_prefix, key_col.type, *key, ref_action::linked,
                                  row_label(tbl, item));
    ids.push_back(std::move(*key));
  });
  // The model's text, as the record echoes it (no UUID of its own shown).
  const std::string query = detail::echoed_text(call.semantic_query);
  call.filters.erase(std::remove_if(call.filters.begin(), call.filters.end(),
                                    [](const filter& f) { return f.field == kSemanticField; }),
                     call.filters.end());
  call.semantic_query.clear();
  const semantic_search& search = *tbl.middleware.semantic;
  if (ids.empty()) {
    record.notes.push_back(textfmt::format("semantic search for \"{}\" found no {} within distance {}", query, tbl.name,
                                           search.max_distance));
    record.source = query_source::database;
    finish("[]", nullptr, 0LL);
    return false;
  }
  call.filters.insert(call.filters.begin(), detail::key_in_filter(key_col, ids));
  record.notes.push_back(
      textfmt::format("semantic search for \"{}\" ranked {} {} (best first, at most {}, distance ≤ {})", query,
                      ids.size(), tbl.name, search.limit, search.max_distance));
  // The ranking is the order; a limit sent with `id in (…)` would keep
  // arbitrary rows instead of the best ones, so it is applied afterwards.
  if (call.order_by.empty()) {
    ranking = std::move(ids);
    semantic_limit = call.limit;
    call.limit.reset();
  }
  return true;
}

std::string execution::state::ranked(std::string_view body) const {
  auto doc = json_document::parse(body);
  if (!doc || !doc->root().is_array()) return std::string(body);
  std::vector<std::pair<std::size_t, json_value>> rows;
  doc->root().for_each_element([&](std::size_t, json_value item) {
    const std::string key = detail::row_key_text(*effective->tbl, item).value_or(std::string());
    const auto at = std::find(ranking->begin(), ranking->end(), key);
    rows.emplace_back(std::size_t(at - ranking->begin()), item);
  });
  const auto order = detail::stable_order(
      rows.size(),
      [](const void* c, std::size_t a, std::size_t b) {
        const auto& ranks = *static_cast<const decltype(rows)*>(c);
        return ranks[a].first < ranks[b].first;
      },
      &rows);
  detail::apply_order(rows, order);
  if (semantic_limit && rows.size() > std::size_t(*semantic_limit)) rows.resize(std::size_t(*semantic_limit));
  std::string out;
  json_writer w(out);
  w.begin_array();
  for (const auto& [rank, item] : rows) w.value(item);
  w.end_array();
  return out;
}

}  // namespace alfred
