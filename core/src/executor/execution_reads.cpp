// The main rows: checked, their foreign keys' labels looked up, translated
// for the model, and the result written.
#include <algorithm>
#include <optional>

#include "../json/array_elements.h"
#include "../json/format.h"
#include "../json/text.h"
#include "../postgrest/content_range.h"
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

namespace {

// Whether `answer` refuses what a read's label embeds asked for: no such
// relationship (PGRST200: a foreign key the domain declares and the database
// does not), an ambiguous one (PGRST201, a 300), or a table the role may not
// read (42501, a 401 or 403).
bool refuses_label_embeds(const need_response& answer) {
  if (answer.failure != transport_failure::none ||
      (answer.status != 300 && answer.status != 400 && answer.status != 401 && answer.status != 403))
    return false;
  auto doc = json_document::parse(answer.body);
  const auto code = doc && doc->root().is_object() ? doc->root().find("code") : std::nullopt;
  if (!code || !code->is_string()) return false;
  return code->str() == "PGRST200" || code->str() == "PGRST201" || code->str() == "42501";
}

}  // namespace

bool execution::state::rows_counted_in_translation() const { return effective->kind == tool_kind::read && !ranking; }

bool execution::state::consume_main(pending_need& main) {
  need_response& answer = *main.answer;
  main_rows_seen = apply_limits(answer, &main_over_bytes, !rows_counted_in_translation());
  record.source = query_source::database;
  if (effective->kind == tool_kind::call)
    consume_call(std::move(answer));
  else if (effective->kind != tool_kind::read)
    consume_write(std::move(answer));
  else
    consume_rows(std::move(answer));
  return false;  // what follows (labels, a read-back, the result) is planned
}

void execution::state::consume_rows(need_response answer) {
  const tool_call& call = *effective;
  const table& tbl = *call.tbl;
  if (!label_embeds.empty() && refuses_label_embeds(answer)) {
    // The database could not join a foreign key's rows for their labels: the
    // read goes again as the call asked, and the labels are looked up after
    // it where they can be.
    label_embeds_refused = true;
    join_refused = true;
    return plan_main();
  }
  if (!label_embeds.empty() && main_over_bytes) {
    // Over the response's byte limit with the labels' rows along: the read
    // goes again as the call asked (for this call only; the labels are
    // looked up after it), since without them it may fit. Too many rows
    // would be as many without.
    label_embeds_refused = true;
    return plan_main();
  }
  if (!succeeded(answer)) return fail(detail::database_error(answer, "reading " + tbl.name));
  // The read without the join went through: the join was what the database
  // refused, and later reads of the table do not try it (a read that fails
  // either way, say without a right to the table itself, leaves nothing to
  // remember).
  if (join_refused) registry.note_refused_joins(tbl.name);
  // PostgREST answers with an array of rows unless asked for one object
  // (`Accept: application/vnd.pgrst.object+json`), which no request here
  // does; anything else is a broken server or proxy, not zero rows.
  if (const char* shape = not_rows(answer.body)) {
    error err{codes::invalid_response, "",
              textfmt::format("the database answered {} with {} instead of an array of rows", tbl.name, shape),
              "this is a server problem, not a tool-call problem; try again"};
    err.status = answer.status;
    return fail(err);
  }
  // An array cut off (with a Content-Length that matches the cut) is not
  // rows either (found here, or by the translation: main_rows_error).
  main_status = answer.status;
  if (!main_rows_seen && !rows_counted_in_translation()) return fail(cut_off_rows());
  if (!call.count.empty()) {
    auto total = detail::content_range_total(answer.content_range);
    if (!total) return fail(total.err());
    main_total = *total;
  }
  main_body = ranking ? ranked(answer.body) : std::move(answer.body);
  look_up_labels();
}

error execution::state::main_rows_error(error err) const {
  if (err.code == codes::response_too_large) {
    const need_response over{main_status, "", "", err.message, transport_failure::too_large};
    return detail::database_error(over, "reading " + effective->tbl->name);
  }
  if (err.code != codes::invalid_json || detail::array_length(main_body, std::size_t(-1))) return err;
  return cut_off_rows();
}

error execution::state::cut_off_rows() const {
  const std::string what = "reading " + effective->tbl->name;
  error cut_off{
      codes::invalid_response, "",
      textfmt::format("{} failed: the database answered {} but not with rows", what, detail::status_line(main_status)),
      "the database or something in front of it answered oddly; try again"};
  cut_off.status = main_status;
  return cut_off;
}

void execution::state::look_up_labels() {
  // Translated at once when every label is known (the usual case); else the
  // registry is as it was, the labels are looked up, and complete_main
  // translates after them.
  auto translated =
      translate_rows_if_labeled(dom, registry, *effective->tbl, main_body, main_action(), me(),
                                rows_counted_in_translation() ? settings.limits.max_rows : std::size_t(-1));
  if (!translated) {
    error err = translated.take_error();
    return complete_main(rows_counted_in_translation() ? main_rows_error(std::move(err)) : std::move(err));
  }
  if (!translated->missing.empty() && !label_embeds.empty()) {
    // The rows brought the labels along: registered, and translated again.
    const bool applied = apply_embedded_labels(registry, label_embeds, main_body, me()).ok();
    label_embeds.clear();
    if (applied) return look_up_labels();
  }
  if (translated->missing.empty())
    return complete_main(std::move(translated->rows), translated->count, translated->quotes_uuid);
  for (const auto& lookup : translated->missing) plan_label_lookup(lookup);
  if (round.empty()) complete_main();
}

ref_action execution::state::main_action() const {
  switch (effective->kind) {
    case tool_kind::read:
      return ref_action::read;
    case tool_kind::create:
      return ref_action::created;
    case tool_kind::update:
      return ref_action::updated;
    case tool_kind::remove:
      return ref_action::deleted;
    case tool_kind::call:
      return effective->fn->read ? ref_action::read : ref_action::updated;
    case tool_kind::aggregate:
      return ref_action::read;
  }
  return ref_action::read;
}

void execution::state::plan_label_lookup(const label_lookup& lookup, pending_need::round_step after) {
  constexpr std::size_t kChunk = 100;
  const table& target = *lookup.target;
  const column& key_col = *target.key_column();
  const std::vector<std::string> columns = detail::split_list(label_select(target));
  for (std::size_t at = 0; at < lookup.keys.size(); at += kChunk) {
    tool_call call;
    call.kind = tool_kind::read;
    call.tbl = &target;
    call.columns = columns;
    const auto chunk_end = lookup.keys.begin() + long(std::min(at + kChunk, lookup.keys.size()));
    call.filters.push_back(
        detail::key_in_filter(key_col, std::vector<std::string>(lookup.keys.begin() + long(at), chunk_end)));
    auto request = build_request(dom, call, options);
    if (!request) continue;  // labels are a nicety; the rows are the result
    add_need({.ask = {.request = std::move(*request)},
              .consume = &state::consume_labels,
              .after_round = after ? after : &state::complete_labeled,
              .target = &target});
  }
}

bool execution::state::consume_labels(pending_need& lookup) {
  // A lookup reads at most 100 rows by key; its answer is not held to the
  // response limits.
  const need_response& answer = *lookup.answer;
  if (!succeeded(answer) || not_rows(answer.body) || !apply_labels(dom, registry, *lookup.target, answer.body))
    record.notes.push_back(textfmt::format("labels of {} rows could not be fetched", lookup.target->name));
  return true;
}

namespace {

// A write that matched no row. A read matches a name loosely
// (middleware.fuzzy); a write compares it as given, so a name the read found
// may match nothing here.
std::string_view no_match_note(const tool_call& call) {
  const auto& fuzzy = call.tbl->middleware.fuzzy_columns;
  const bool loose = std::any_of(call.filters.begin(), call.filters.end(), [&](const filter& f) {
    return f.col && std::find(fuzzy.begin(), fuzzy.end(), f.col->name) != fuzzy.end();
  });
  return loose ? "no row matched the filters exactly (a read matches names loosely, a write as given): read the "
                 "rows, then write by their refs"
               : "no row matched the filters (it may not exist, or may belong to another user)";
}

}  // namespace

void execution::state::complete_main(std::optional<alfred::result<std::string>> translated, std::size_t written,
                                     bool quotes_uuid) {
  const tool_call& call = *effective;
  const table& tbl = *call.tbl;
  alfred::result<std::string> rows =
      translated ? std::move(*translated)
                 : translate_rows(dom, registry, tbl, main_body, main_action(), me(), &written, &quotes_uuid);
  std::string().swap(main_body);  // a response can be megabytes: no second copy lives on
  if (!rows && writes(call)) {
    // The write was applied; only its answer is unusable.
    need_response answered{main_status, "", "", {}};
    return fail(
        detail::write_outcome_unknown(answered, textfmt::format("{} on {}", tool, tbl.name),
                                      textfmt::format("the database answered {} but its rows could not be read: {}",
                                                      detail::status_line(main_status), rows.err().message)));
  }
  if (!rows) return fail(rows.err());
  const long n = long(written);
  if (n == 0 && (call.kind == tool_kind::update || call.kind == tool_kind::remove)) {
    if (!affected_counted && !counted_after && names_its_rows(std::size_t(-1))) {
      // Sent by key without a count (plan_main, or the database enforced
      // maxAffected, or none was set), it changed nothing: a row named by a
      // ref was read, so the count after it tells a row the user may not
      // change from one that is gone, for one more request on this rare path.
      counted_after = true;
      if (auto count = build_request(dom, affected_count_call(), options))
        return add_need({.ask = {.request = std::move(*count)}, .consume = &state::consume_count_after});
    }
    if (affected_counted && counted_rows > 0) {
      // The count saw rows the write did not change: row-level security
      // lets this user read them but not change them (or they changed in
      // between). "Counted before changing them" would say otherwise.
      std::erase_if(record.notes, [](const std::string& note) {
        return note.find(" counted before changing ") != std::string::npos;
      });
      record.notes.push_back(textfmt::format(
          "the filters select {} this user can read, but the database changed none: row-level security may not let "
          "this user {} {}",
          counted_rows == 1 ? std::string("1 row") : textfmt::format("{} rows", counted_rows),
          call.kind == tool_kind::update ? "change" : "delete", counted_rows == 1 ? "it" : "them"));
    } else if (count_after_failed) {
      record.notes.push_back(
          "the database changed no row; counting the rows the filters select after it failed, so whether one is "
          "missing or row-level security does not let this user change it is not known");
    } else {
      record.notes.emplace_back(no_match_note(call));
    }
  }
  std::optional<long long> count = n;
  if (main_total) count = *main_total;
  if (call.kind == tool_kind::create && !call.batch && n == 1) {
    auto doc = json_document::parse(*rows);
    std::string single;
    json_writer w(single);
    w.value(doc->root().at(0));
    return finish(single, nullptr, count);
  }
  finish_rows(std::move(*rows), written, count, quotes_uuid);
}

}  // namespace alfred
