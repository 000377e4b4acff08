// Planning an execution: the call validated (reads of pending artifacts answered
// at once), save claims, the caller's row ids, and the first round of needs.
#include <algorithm>
#include <optional>

#include "../json/echo.h"
#include "../json/format.h"
#include "../postgrest/content_range.h"
#include "../tool_call/call_stage.h"
#include "../tool_call/middleware.h"
#include "../tool_call/param_path.h"
#include "../tool_call/row_key.h"
#include "alfred/json/json.h"
#include "alfred/rows/row_translation.h"
#include "alfred/tool_call/tool_call.h"
#include "alfred/uuid/uuid.h"
#include "db_error.h"
#include "execution_state.h"
#include "generated_read.h"
#include "query_record.h"

namespace alfred {

using detail::byte_size;
using detail::oversized_string;
using detail::query_source;

void execution::state::start(std::string_view tool_text) {
  tool = std::string(tool_text);
  auto kind = parse_tool_name(tool);
  record.tool = kind ? tool_name(*kind) : std::string_view("unknown");
  // The refs are one signed-in user's: their labels and data are that user's
  // rows, which another user's call (a session that changed, a state restored
  // for the wrong user), or a call after the user signed out, may neither use
  // nor show (docs/sessions.md, "One user's refs"). The first signed-in call
  // that succeeds binds them (finish).
  if (auto refused = registry.refused_user(me())) return fail(*refused);
  if (!read_params()) return;
  const json_value params = params_doc->root();
  if (kind == tool_kind::read && !answer_from_generated(params)) return;

  auto call = parse_tool_call(dom, registry, tool, params, me(), settings.fixed);
  if (!call) return fail(call.err());
  if (call->kind == tool_kind::call) return start_call(std::move(*call));
  if (call->kind == tool_kind::aggregate) return start_aggregate(std::move(*call));
  // The model's read never reads a whole table: without a limit, or with
  // one over the cap, it is made with the cap (and an exact count, so the
  // result can say how many rows match), as if the model had asked so.
  if (const auto& caps = settings.for_model;
      caps && call->kind == tool_kind::read && (!call->limit || *call->limit > long(caps->rows))) {
    call->limit = long(caps->rows);
    if (call->count.empty()) call->count = "exact";
    model_limited = true;
  }
  requested.emplace(*call);
  effective.emplace(std::move(*call));
  const table& tbl = *effective->tbl;
  record.table = tbl.name;
  record.raw_params.reset();
  // Before any request: without a user's token the call would run as anon
  // and row-level security would answer with nothing, not with an error.
  if (auto signed_in = require_signed_in(tbl, options); !signed_in) return fail(signed_in.err());
  if (!plan_lookups()) return;
  if (round.empty()) plan_main();
}

// The params parsed and held to the size limits; the record names the table
// they give, so that a refusal from here on says which.
bool execution::state::read_params() {
  const execution_limits& limits = settings.limits;
  if (params_text.size() > limits.max_params_bytes) {
    fail({codes::params_too_large, "",
          textfmt::format("the size of the params is {} bytes, over the limit of {} bytes", params_text.size(),
                          limits.max_params_bytes),
          "split the work into smaller calls, or raise the limit"});
    return false;
  }
  auto doc = json_document::parse(params_text);
  if (!doc) {
    fail({codes::invalid_json, "", "params are not valid JSON: " + doc.err().message, ""});
    return false;
  }
  params_doc = std::move(*doc);
  const json_value params = params_doc->root();
  if (auto at = oversized_string(params, nullptr, limits.max_string_bytes)) {
    params_doc.reset();
    fail({codes::value_too_large, *at,
          textfmt::format("a text in the params is over the limit of {}", byte_size(limits.max_string_bytes)),
          "shorten it, or keep long content out of the database call"});
    return false;
  }
  record.raw_params = params;
  // The table a call names, as the record and the model's text show it: a
  // name the domain does not have is the model's text, shown as (uuid) when
  // it shows one (a table is never named by an id).
  if (auto table_name = params.is_object() ? params.find("table") : std::nullopt; table_name && table_name->is_string())
    record.table =
        dom.find_table(table_name->str()) ? std::string(table_name->str()) : detail::echoed_text(table_name->str());
  // The function a refused call names, when the domain has it (a name the
  // model made up is not echoed: it may hold anything, a UUID included).
  if (auto function = params.is_object() ? params.find("function") : std::nullopt;
      function && function->is_string() && dom.find_function(function->str()))
    record.function = std::string(function->str());
  return true;
}

// A read of generated artifacts not saved yet is answered from the registry,
// with no request: false when it was (or was refused).
bool execution::state::answer_from_generated(json_value params) {
  if (!params.is_object()) return true;
  const table* tbl = dom.find_table(record.table);
  if (!tbl) return true;
  auto generated = detail::read_generated(dom, registry, *tbl, params);
  if (!generated) return true;
  if (!*generated) {
    fail(generated->err());
    return false;
  }
  record.source = query_source::generated;
  record.notes.push_back("answered from generated content that is not saved yet; no database call");
  auto rows = json_document::parse(**generated);
  finish(**generated, nullptr, rows ? (long long)(rows->root().size()) : 0LL);
  return false;
}

// The needs before the main request: a read's catalog lookups (names the
// model wrote for rows of a catalog table) and its embedding; a write's
// lookups of the catalog names it links. False when the call was refused.
bool execution::state::plan_lookups() {
  const table& tbl = *effective->tbl;
  if (effective->kind == tool_kind::read) {
    detail::apply_read_rewrites(tbl, *effective, record.notes);
    terms = detail::catalog_terms(tbl, *effective);
    if (!terms.empty()) {
      std::vector<std::string> names;
      for (const auto& term : terms) names.push_back(term.name);
      for (const tool_call& lookup : detail::catalog_lookups(dom, tbl, names))
        if (!add_read_need(lookup, &state::consume_catalog, &state::link_catalog)) return false;
    }
    // Only a table with semantic search has one (filter_reader refuses it elsewhere).
    if (!effective->semantic_query.empty()) {
      add_need({.ask = {.type = need::kind::embed, .text = effective->semantic_query},
                .consume = &state::consume_embedding});
    }
  } else if (effective->kind == tool_kind::create || effective->kind == tool_kind::update) {
    if (effective->kind == tool_kind::create && !claim_saves()) return false;
    if (effective->kind == tool_kind::create) assign_row_ids();
    auto names = detail::unlinked_names(tbl, *effective);
    if (!names.empty())
      for (const tool_call& lookup : detail::catalog_lookups(dom, tbl, names))
        if (!add_read_need(lookup, &state::consume_catalog, &state::link_catalog)) return false;
  }
  return true;
}

bool execution::state::claim_saves() {
  const tool_call& call = *effective;
  for (std::size_t i = 0; i < call.saves.size(); ++i) {
    std::string ref = call.saves[i];
    const bool marked = !ref.empty();
    if (!marked)
      if (const ref_entry* pending = registry.find_pending_by_label(call.tbl->ref_prefix, label_of(call.rows[i])))
        ref = pending->ref;
    if (ref.empty() || std::find(claims.begin(), claims.end(), ref) != claims.end()) continue;
    if (!registry.claim_save(ref)) {
      const std::string path =
          (call.batch ? textfmt::format("data[{}]", i) : std::string("data")) + (marked ? ".id" : "");
      fail({codes::save_in_progress, path,
            textfmt::format("{} is being saved by another call that has not finished", ref),
            "wait for that call's result; if it failed, save again"});
      return false;
    }
    claims.push_back(ref);
  }
  return true;
}

std::string execution::state::label_of(const row& fields) const {
  std::string text;
  json_writer w(text);
  w.begin_object();
  for (const auto& field : fields) {
    w.key(field.column);
    w.raw_value(field.json);
  }
  w.end_object();
  auto doc = json_document::parse(text);
  return doc ? row_label(*effective->tbl, doc->root()) : std::string();
}

void execution::state::assign_row_ids() {
  tool_call& call = *effective;
  // Only a uuid key can be drawn by the caller; identity, serial and text
  // keys come from the database.
  const column* id_col = call.tbl->key_column();
  if (!id_col || id_col->type != column_type::uuid || call.tbl->is_key(call.tbl->owner) ||
      settings.row_ids.size() < call.rows.size())
    return;
  // A row that gives its key (a one-to-one table's: its parent's) keeps it.
  row_ids_drawn = true;
  for (std::size_t i = 0; i < call.rows.size(); ++i) {
    auto& row = call.rows[i];
    if (std::none_of(row.begin(), row.end(), [&](const auto& field) { return field.column == id_col->name; }))
      row.push_back({id_col->name, json_quote(settings.row_ids[i])});
    else
      row_ids_drawn = false;
  }
}

bool execution::state::add_request(alfred::result<http_request> request, pending_need::handler consume,
                                   pending_need::round_step after_round) {
  if (!request) {
    fail(request.err());
    return false;
  }
  add_need({.ask = {.request = std::move(*request)}, .consume = consume, .after_round = after_round});
  return true;
}

bool execution::state::add_read_need(const tool_call& call, pending_need::handler consume,
                                     pending_need::round_step after_round) {
  return add_request(build_request(dom, call, options), consume, after_round);
}

error execution::state::too_many_rows(long long count) const {
  const tool_call& call = *effective;
  return {codes::too_many_rows, "filters",
          textfmt::format("this {} would change {} rows of {}, over the limit of {} (maxAffected); nothing was changed",
                          call.kind == tool_kind::update ? "update" : "delete", count, call.tbl->name,
                          settings.max_affected),
          textfmt::format("narrow the filters to the rows meant (by ref; {}), or change at most {} rows per call",
                          detail::narrowing_example(*call.tbl), settings.max_affected)};
}

// The most rows whose keys a counted write is restricted to (as an approved
// write's previewed rows): the keys go in the write's URL.
constexpr std::size_t kMaxPinnedRows = 100;

tool_call execution::state::affected_count_call() const {
  const tool_call& call = *effective;
  tool_call count = filtered_read();
  count.columns = {call.tbl->key.empty() ? call.tbl->columns.front().name : call.tbl->key.front()};
  // With a one-column key, the keys of the rows counted (when within what a
  // URL can name) restrict the write to them.
  count.limit = call.tbl->key_column() ? long(std::min(settings.max_affected, kMaxPinnedRows)) : 1;
  count.count = "exact";
  return count;
}

bool execution::state::plan_affected_count() {
  return add_read_need(affected_count_call(), &state::consume_affected_count);
}

// A key that may hold NULL (a view's, a unique column given as the key, a
// hand-written one not declared NOT NULL) does not name one row per value:
// `= null` selects every row without one. A NOT NULL key is trusted to be
// unique, as refs trust it (docs/keys-and-owners.md).
bool execution::state::names_its_rows(std::size_t most) const {
  const tool_call& call = *effective;
  const column* key = call.tbl->key_column();
  return key && !key->nullable && std::any_of(call.filters.begin(), call.filters.end(), [&](const filter& f) {
           return f.col == key && (f.op == filter_op::in || f.op == filter_op::eq) && f.values.size() <= most &&
                  std::none_of(f.values.begin(), f.values.end(), [](const scalar& v) { return v.is_null(); });
         });
}

bool execution::state::consume_count_after(pending_need& counted) {
  need_response& answer = *counted.answer;
  apply_limits(answer);
  // Without a count the write's result stands as it is, and its note says
  // why no row changed could not be told.
  count_after_failed = true;
  if (succeeded(answer))
    if (auto total = detail::content_range_total(answer.content_range); total && *total) {
      count_after_failed = false;
      affected_counted = true;
      counted_rows = **total;
    }
  complete_main(alfred::result<std::string>(std::string("[]")), 0);
  return false;
}

namespace {

// The keys of the rows the count read, or nothing when one is missing.
std::optional<std::vector<std::string>> counted_row_keys(const table& tbl, std::string_view body, long long total) {
  auto doc = json_document::parse(body);
  if (!doc || !doc->root().is_array() || static_cast<long long>(doc->root().size()) != total) return std::nullopt;
  std::vector<std::string> keys;
  bool complete = true;
  doc->root().for_each_element([&](std::size_t, json_value row) {
    auto key = detail::row_key_text(tbl, row);
    if (key)
      keys.push_back(std::move(*key));
    else
      complete = false;
  });
  if (!complete) return std::nullopt;
  return keys;
}

}  // namespace

bool execution::state::consume_affected_count(pending_need& counted) {
  need_response& answer = *counted.answer;
  apply_limits(answer);
  if (!succeeded(answer)) {
    fail(detail::database_error(answer, textfmt::format("counting the rows of {} to change", effective->tbl->name)));
    return false;
  }
  auto total = detail::content_range_total(answer.content_range);
  if (!total || !*total) {
    fail({codes::invalid_response, "",
          "the database did not say how many rows the filters select (Content-Range), so the limit on changed rows "
          "cannot be checked; nothing was changed",
          ""});
    return false;
  }
  if (**total > static_cast<long long>(settings.max_affected)) {
    fail(too_many_rows(**total));
    return false;
  }
  affected_counted = true;
  counted_rows = **total;
  if (effective->tbl->key_column() && counted_rows <= static_cast<long long>(kMaxPinnedRows))
    counted_keys = counted_row_keys(*effective->tbl, answer.body, counted_rows);
  if (counted_keys && counted_keys->empty()) {
    // Nothing matched: a write restricted to no row is not sent.
    record.source = query_source::database;
    main_status = 200;
    main_body = "[]";
    complete_main(std::nullopt, 0);
    return false;
  }
  record.notes.push_back(textfmt::format("{} {} counted before changing {} (at most {})", **total,
                                         **total == 1 ? "row" : "rows", **total == 1 ? "it" : "them",
                                         settings.max_affected));
  return true;
}

void execution::state::plan_main() {
  tool_call& call = *effective;
  const bool changes_rows = effect_of(call.kind).changes_rows;
  // A write that names its rows by key (by ref, or an approved one pinned
  // to its preview), no more of them than the limit, changes no row beyond
  // them: it needs neither a count (one round trip, not two) nor the
  // preference (which PostgREST 12 refuses: a first write in a process that
  // has not yet seen the server's version is not sent twice).
  if (changes_rows && settings.max_affected > 0 && !names_its_rows(settings.max_affected)) {
    if (settings.max_affected_by == max_affected_check::header)
      call.max_affected = settings.max_affected;
    else if (!affected_counted)
      return void(plan_affected_count());
  }
  if (call.kind == tool_kind::create) {
    detail::dedupe_batch(*call.tbl, call, record.notes);
    for (const auto& fields : call.rows)
      for (const auto& field : fields)
        if (call.tbl->key_column() && field.column == call.tbl->key_column()->name &&
            call.tbl->key_column()->type == column_type::uuid && field.json.size() > 2)
          created_ids.push_back(field.json.substr(1, field.json.size() - 2));  // a quoted UUID: no escapes
    if (created_ids.size() != call.rows.size() || !row_ids_drawn) created_ids.clear();
  }
  if (call.kind == tool_kind::read) plan_label_embeds(call);
  if (counted_keys && call.tbl->key_column()) {
    // The write changes only the rows counted: the request is built with
    // their keys added to its filters (the record shows the call as given).
    tool_call pinned = call;
    pinned.filters.push_back(detail::key_in_filter(*call.tbl->key_column(), *counted_keys));
    return void(add_request(build_request(dom, pinned, options), &state::consume_main));
  }
  auto request = build_request(dom, call, options);
  if (!request && !label_embeds.empty()) {
    // The embeds made the URL too long: the read goes as the call asked.
    label_embeds_refused = true;
    plan_label_embeds(call);
    request = build_request(dom, call, options);
  }
  add_request(std::move(request), &state::consume_main);
}

// The labels of the rows a read's foreign keys point at, brought along by
// the read (label_embeds): a read that meets rows the session has not met
// is one request, not a lookup after it. Every read asks for them, since
// which rows it meets is known only once it answered; where they are all
// known already, the translation skips them. None for a table whose read the
// database refused to join (the registry remembers it, consume_rows sends
// that read again without), or once the embeds made the URL too long.
void execution::state::plan_label_embeds(tool_call& call) {
  label_embeds.clear();
  call.extra_select.clear();
  call.extra_within.clear();
  call.extra_filters.clear();
  if (!call.select_text.empty() || label_embeds_refused || registry.refuses_joins(call.tbl->name)) return;
  label_embeds = alfred::label_embeds(dom, *call.tbl, call.columns);
  // A table scoped to its owner is read with the owner's filter, embedded
  // too (its lookup is); without the user's id, not at all.
  const std::string user = is_uuid_syntax(me()) ? canonical_uuid(me()) : std::string();
  std::erase_if(label_embeds, [&](const label_embed& embed) {
    return embed.target->owner_scoped && embed.target->has_owner() && user.empty();
  });
  for (const auto& embed : label_embeds) {
    if (embed.target->owner_scoped && embed.target->has_owner()) {
      std::string key(embed.within);
      key.append(key.empty() ? "" : ".").append(embed.alias).append(".").append(embed.target->owner);
      call.extra_filters.emplace_back(std::move(key), "eq." + user);
    }
    std::string* items = &call.extra_select;
    if (!embed.within.empty()) {
      // One entry per embed, in the order the items come.
      if (call.extra_within.empty() || call.extra_within.back().first != embed.within)
        call.extra_within.emplace_back(embed.within, std::string());
      items = &call.extra_within.back().second;
    }
    items->append(items->empty() ? "" : ",").append(embed.select);
  }
}

}  // namespace alfred
