// A `db_call` (docs/functions.md): the text of each vector argument
// embedded, the function called, and its answer translated by what it
// returns: rows of a domain table as a read's rows (refs, labels), values and
// JSON as rows of their own. A function that writes is a write: an answer
// lost after it was sent leaves its outcome unknown.
#include "../json/echo.h"
#include "../json/format.h"
#include "../postgrest/content_range.h"
#include "../tool_call/row_key.h"
#include "alfred/json/json.h"
#include "alfred/registry/uuid_scrub.h"
#include "alfred/rows/function_result.h"
#include "alfred/rows/row_translation.h"
#include "alfred/tool_call/tool_call.h"
#include "db_error.h"
#include "execution_state.h"
#include "query_record.h"

namespace alfred {

namespace {

// The keys of the rows a call named (update_account's account_id), as the
// registry holds keys (detail::key_text). An answer describes those rows as
// they are now.
std::vector<std::string> subject_keys(const tool_call& call) {
  std::vector<std::string> keys;
  for (const auto& field : call.args) {
    const column* arg = call.fn ? call.fn->args.find_column(field.column) : nullptr;
    if (!arg || arg->references.empty()) continue;
    auto value = json_document::parse(field.json);
    if (!value) continue;
    if (auto key = detail::key_text(arg->type, value->root())) keys.push_back(std::move(*key));
  }
  return keys;
}

}  // namespace

void execution::state::start_call(tool_call call) {
  const db_function& fn = *call.fn;
  // A set a function returns is capped as a read's rows are: without a
  // limit, or with one over the cap, the request asks for the cap and the
  // total, as if the model had asked so, so a function of thousands of rows
  // sends what the model reads (docs/functions.md, "What comes back").
  if (const auto& caps = settings.for_model;
      caps && fn.returns.set && (!call.limit || *call.limit > long(caps->rows))) {
    call.limit = long(caps->rows);
    call.count = "exact";
    model_limited = true;
  }
  requested.emplace(call);
  effective.emplace(std::move(call));
  record.function = fn.name;
  record.table = effective->tbl ? effective->tbl->name : std::string();
  record.raw_params.reset();
  // Functions run as the signed-in user (auth.uid() in their bodies and the
  // policies they read); without a user's token they would run as anon.
  if (auto signed_in = require_signed_in(fn, options); !signed_in) return fail(signed_in.err());
  for (std::size_t i = 0; i < effective->embeds.size(); ++i)
    add_need({.ask = {.type = need::kind::embed, .text = effective->embeds[i].second},
              .consume = &state::consume_argument_embedding,
              .item = i});
  if (round.empty()) plan_main();
}

bool execution::state::consume_argument_embedding(pending_need& embedding) {
  const need_response& answer = *embedding.answer;
  const std::string_view arg = effective->embeds[embedding.item].first;
  const std::string path = textfmt::format("args.{}", arg);
  if (answer.status < 200 || answer.status >= 300) {
    fail({codes::embedding_failed, path, "embedding the search text failed: " + answer.body,
          "search by meaning is unavailable; use another function or read with filters"});
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
    fail({codes::embedding_failed, path, "the embedder returned something other than an array of numbers", ""});
    return false;
  }
  // A developer's mistake (an embedder of another model), caught before the
  // database answers it with a type error the model cannot act on.
  if (const int size = effective->fn->embedding_size(arg); size > 0 && doc->root().size() != std::size_t(size)) {
    fail({codes::embedding_failed, path,
          textfmt::format("the embedder gave {} numbers, and {} takes a vector of {}", doc->root().size(), arg, size),
          "the act's embedder must make embeddings of the model the app's rows were embedded with (createAct({ "
          "embedder }))"});
    return false;
  }
  // pgvector reads a vector from its text form, `[0.1,0.2,…]`.
  effective->args.push_back({arg, json_quote(vector_text)});
  record.notes.push_back(textfmt::format("{} was sent as the embedding of the text given", arg));
  return true;
}

error execution::state::call_error(const need_response& answer) const {
  const db_function& fn = *effective->fn;
  error err = detail::database_error(answer, "calling " + fn.name);
  // A RAISE in a call is the function's own refusal, wherever in it it was raised.
  if (err.code == codes::rule_violation) err.code = codes::function_error;
  // 42883 (PostgREST answers 404): no row is missing, and PostgreSQL's hint
  // (add casts) is the app's to follow. Naming the function called, the
  // schema cache has it with arguments the database no longer takes; naming
  // another operator or function, the body failed on the values it got,
  // which other argument values may avoid.
  if (err.db_code == "42883") {
    const bool called = err.message.find("." + fn.name + "(") != std::string::npos;
    err.code = called ? codes::unknown_function : codes::function_error;
    err.hint = called ? detail::kNoSuchFunctionHint
                      : "the function failed inside: try other argument values, or tell the user";
  }
  // A function's own refusal (RAISE) the database gave no hint for: the arguments are what the model can change.
  if (err.code == codes::function_error && (err.hint.empty() || err.hint == detail::kRaiseHint))
    err.hint = "the function refused the call for the reason in its message: correct the arguments, or tell the user";
  return err;
}

void execution::state::fail_call(const need_response& answer) {
  const db_function& fn = *effective->fn;
  if (fn.read) return fail(call_error(answer));
  // A function that writes, as a write: only a definite refusal means it
  // had no effect.
  const std::string what = "calling " + fn.name;
  if (answer.status >= 200 && answer.status < 300)
    return fail(detail::write_outcome_unknown(
        answer, what,
        textfmt::format("the database answered {} but its answer {}", detail::status_line(answer.status),
                        answer.failure == transport_failure::too_large ? "is over the limit" : "was cut off")));
  if (answer.status == 0 || answer.failure != transport_failure::none) {
    if (!detail::maybe_sent(answer)) return fail(detail::database_error(answer, what));
    const std::string reason = detail::clip_utf8(answer.body, 200);
    return fail(detail::write_outcome_unknown(
        answer, what,
        answer.status == 0
            ? textfmt::format("the request was sent but no answer came ({})", reason.empty() ? "no response" : reason)
            : textfmt::format("the answer ({}) was cut off", detail::status_line(answer.status))));
  }
  error err = call_error(answer);
  if (answer.status >= 500 && err.db_code.empty())
    return fail(detail::write_outcome_unknown(
        answer, what,
        textfmt::format("{} came from something other than the database", detail::status_line(answer.status))));
  fail(err);
}

void execution::state::consume_call(need_response answer) {
  const tool_call& call = *effective;
  const db_function& fn = *call.fn;
  const std::string what = "calling " + fn.name;
  if (!succeeded(answer)) return fail_call(answer);
  main_status = answer.status;
  if (!call.count.empty())
    if (auto total = detail::content_range_total(answer.content_range)) main_total = *total;
  const function_returns& out = fn.returns;
  std::size_t written = 0;
  alfred::result<std::string> rows = std::string();
  switch (out.type) {
    case function_returns::kind::rows: {
      const auto first = answer.body.find_first_not_of(" \t\r\n");
      const char lead = first == std::string::npos ? 'n' : answer.body[first];
      if (lead == '{') {
        main_body = "[" + answer.body + "]";  // one row (a function that returns one row of a table)
      } else if (lead == 'n' || first == std::string::npos) {
        main_body = "[]";  // no row
      } else if (lead == '[') {
        main_body = std::move(answer.body);
      } else {
        error err{codes::invalid_response, "",
                  textfmt::format("{} answered {} instead of rows of {}", fn.name, not_rows(answer.body), out.table),
                  "this is a problem with the function or the server, not with the call"};
        err.status = answer.status;
        return fail(err);
      }
      return look_up_labels();
    }
    case function_returns::kind::value:
      rows = translate_function_values(dom, registry, fn, answer.body, &written);
      break;
    case function_returns::kind::json:
      rows = translate_function_json(dom, registry, answer.body, me(), &written, subject_keys(*effective));
      break;
    case function_returns::kind::none:
      record.notes.push_back(textfmt::format("{} returned nothing: it ran without an error", fn.name));
      rows = std::string("[]");
      break;
  }
  // A UUID the function hands out under a name the domain does not know
  // shows as its ref or `<id>`, in the developer's data too: the rows of a
  // table never carry one, and neither does this.
  if (rows) scrub_uuids(*rows, registry);
  if (!rows) {
    if (!fn.read)
      return fail(
          detail::write_outcome_unknown(answer, what,
                                        textfmt::format("the function ran ({}) but its answer could not be read: {}",
                                                        detail::status_line(main_status), rows.err().message)));
    return fail(rows.err());
  }
  // Scrubbed above: the model's copy needs no second pass.
  finish_rows(std::move(*rows), written, main_total.value_or(static_cast<long long>(written)), false);
}

}  // namespace alfred
