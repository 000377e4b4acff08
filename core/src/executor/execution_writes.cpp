// A write's answer: rows to translate, an outcome that is unknown, or a
// refusal; created rows read back by id; saved gen_ artifacts promoted.
#include <algorithm>
#include <optional>

#include "../json/array_elements.h"
#include "../json/echo.h"
#include "../json/format.h"
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

void execution::state::promote_saved(std::string_view body) {
  const tool_call& call = *effective;
  const table& tbl = *call.tbl;
  auto doc = json_document::parse(body);
  if (!doc || !doc->root().is_array()) return;
  const column* key_col = tbl.key_column();
  if (!key_col) return;
  doc->root().for_each_element([&](std::size_t i, json_value row) {
    const auto key = detail::row_key_text(tbl, row);
    if (!key) return;
    const std::string label = row_label(tbl, row);
    // Rows read back come in any order: the key says which row is which.
    std::size_t at = i;
    if (!created_ids.empty())
      at = std::size_t(std::find(created_ids.begin(), created_ids.end(), *key) - created_ids.begin());
    std::string gen_ref = at < call.saves.size() ? call.saves[at] : std::string();
    if (gen_ref.empty())
      if (const ref_entry* pending = registry.find_pending_by_label(tbl.ref_prefix, label);
          pending && !(registry.save_claimed(pending->ref) &&
                       std::find(claims.begin(), claims.end(), pending->ref) == claims.end()))
        gen_ref = pending->ref;
    if (gen_ref.empty()) return;
    auto saved = registry.promote(gen_ref, *key, label, key_col->type);
    if (saved) record.notes.push_back(textfmt::format("saved {} as {}", gen_ref, *saved));
  });
}

void execution::state::saved_unread(int status) {
  main_status = status;
  main_total = static_cast<long long>(effective->rows.size());
  const table& tbl = *effective->tbl;
  record.notes.push_back(tbl.readable ? textfmt::format("saved in {}; row-level security does not let this user read "
                                                        "them back (no refs)",
                                                        tbl.name)
                                      : textfmt::format("saved in {}{}", tbl.name, kWriteOnlyNote));
  complete_main(alfred::result<std::string>(std::string("[]")), 0);
}

error execution::state::outcome_unknown(const need_response& answer, std::string_view what,
                                        std::string_view why) const {
  error err = detail::write_outcome_unknown(answer, what, why);
  // Only rows whose ids the call chose are safe to send again: a key the
  // database generates (an identity, a serial) makes a second row.
  const char* again = created_ids.empty() ? "do not send it again; tell the user it may have been saved"
                                          : "a repeated db_create of the same data reuses its row ids, so it "
                                            "cannot insert a second row";
  if (!effective->tbl->readable || effective->unread)
    err.hint = textfmt::format("{} cannot be read to check: {}", effective->tbl->name, again);
  else if (!created_ids.empty())
    err.hint = textfmt::format("{}; {}", err.hint, again);
  return err;
}

void execution::state::consume_write(need_response answer) {
  const tool_call& call = *effective;
  const std::string what = textfmt::format("{} on {}", tool, call.tbl->name);
  const bool reads_back = call.tbl->readable && !call.unread;
  if (succeeded(answer) && !reads_back) return saved_unread(answer.status);
  if (succeeded(answer) && is_rows_array(answer.body)) {
    main_status = answer.status;
    main_body = std::move(answer.body);
    if (call.kind == tool_kind::create) promote_saved(main_body);
    return look_up_labels();
  }
  if (answer.status >= 200 && answer.status < 300) {
    const std::string why =
        textfmt::format("the database answered {} but its answer {}", detail::status_line(answer.status),
                        answer.failure == transport_failure::none        ? "has no rows"
                        : answer.failure == transport_failure::too_large ? "is over the limit"
                                                                         : "was cut off");
    error unknown = outcome_unknown(answer, what, why);
    if (!created_ids.empty() && reads_back && answer.failure != transport_failure::too_large)
      return verify_created(std::move(unknown),
                            textfmt::format("the database's answer ({}) could not be read; the created rows were read "
                                            "back by id",
                                            detail::status_line(answer.status)));
    return fail(unknown);
  }
  if (answer.status == 0 || answer.failure != transport_failure::none) {
    if (!detail::maybe_sent(answer)) return fail(detail::database_error(answer, what));
    const std::string reason = detail::clip_utf8(answer.body, 200);
    return fail(outcome_unknown(
        answer, what,
        answer.status == 0
            ? textfmt::format("the request was sent but no answer came ({})", reason.empty() ? "no response" : reason)
            : textfmt::format("the answer ({}) was cut off", detail::status_line(answer.status))));
  }
  error err = detail::database_error(answer, what);
  // A 5xx that is not the database's own error comes from something in
  // between (a gateway, a proxy), which may have given up after the
  // database committed.
  if (answer.status >= 500 && err.db_code.empty())
    return fail(outcome_unknown(
        answer, what,
        textfmt::format("{} came from something other than the database", detail::status_line(answer.status))));
  refused_write(std::move(err), reads_back);
}

// The database refused the write (`err`): a duplicate may be an earlier
// attempt's rows, and a create row-level security refused to read back is
// sent once more without the read-back.
void execution::state::refused_write(error err, bool reads_back) {
  const tool_call& call = *effective;
  // A duplicate says what the model can do about the row that is there:
  // nothing on a write-only table (it cannot read it), change it with
  // db_update on a create where the table takes updates (unless the
  // database gave its own hint).
  if (err.db_code == "23505" && !reads_back)
    err.hint = "a row with this value already exists: tell the user";
  else if (err.hint == detail::kDuplicateHint && call.kind == tool_kind::create && call.tbl->allows(write_update))
    err.hint = "a row with this value already exists: read it and change it with db_update, or use another value";
  // The same ids again: an earlier attempt whose answer was lost did
  // insert these rows. Reading them back tells it apart from a clash on
  // another unique column.
  std::string earlier =
      "these rows were inserted by an earlier attempt whose answer was lost (same row ids); nothing "
      "was inserted twice";
  if (err.db_code == "23505" && !created_ids.empty() && reads_back)
    return verify_created(std::move(err), std::move(earlier));
  // A write-only table's rows cannot be read back to tell: a clash on its
  // primary key (PostgreSQL names it <table>_pkey) with ids drawn at random
  // is one with the rows an earlier attempt sent with them.
  if (err.db_code == "23505" && !created_ids.empty() && err.message.find("_pkey\"") != std::string::npos) {
    record.notes.push_back(std::move(earlier));
    return saved_unread(201);
  }
  // Row-level security refused the insert or the read-back of its rows (a
  // table whose SELECT policy lets only admins read it): either rolled the
  // insert back, so it is sent once more without the read-back. Not for a
  // grant's refusal ("permission denied for table"), nor for an artifact,
  // which saved so would get no ref and be saved again.
  if (err.db_code == "42501" && err.message.find("row-level security policy") != std::string::npos && reads_back &&
      call.kind == tool_kind::create &&
      std::all_of(call.saves.begin(), call.saves.end(), [](const std::string& ref) { return ref.empty(); })) {
    effective->unread = true;
    return void(add_request(build_request(dom, *effective, options), &state::consume_main));
  }
  fail(err);
}

bool execution::state::is_rows_array(std::string_view body) {
  auto doc = json_document::parse(body);
  return doc && doc->root().is_array();
}

void execution::state::verify_created(error fallback, std::string note) {
  const tool_call& call = *effective;
  tool_call read;
  read.kind = tool_kind::read;
  read.tbl = call.tbl;
  read.filters.push_back(detail::key_in_filter(*call.tbl->key_column(), created_ids));
  auto request = build_request(dom, read, options);
  if (!request) return fail(fallback);
  unverified = std::move(fallback);
  verified_note = std::move(note);
  add_need({.ask = {.request = std::move(*request)}, .consume = &state::consume_verification});
}

bool execution::state::consume_verification(pending_need& read_back) {
  need_response& answer = *read_back.answer;
  apply_limits(answer);
  const auto found = succeeded(answer) && is_rows_array(answer.body)
                         ? detail::array_length(answer.body, settings.limits.max_rows)
                         : std::nullopt;
  if (!found || *found != created_ids.size()) {
    fail(*unverified);
    return false;
  }
  record.notes.push_back(std::move(verified_note));
  main_status = unverified->status;
  main_body = std::move(answer.body);
  promote_saved(main_body);
  look_up_labels();
  return false;
}

}  // namespace alfred
