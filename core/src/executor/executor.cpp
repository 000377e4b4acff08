#include "alfred/executor/executor.h"

#include <algorithm>
#include <optional>

#include "../json/array_elements.h"
#include "../json/format.h"
#include "../tool_call/middleware.h"
#include "../tool_call/param_path.h"
#include "alfred/json/json.h"
#include "alfred/registry/uuid_scrub.h"
#include "alfred/rows/row_translation.h"
#include "alfred/tool_call/tool_call.h"
#include "execution_state.h"
#include "query_record.h"

namespace alfred {

using detail::byte_size;

namespace detail {

// The first string (value or key) in `value` longer than `max_bytes`, as a
// path; `path` is null at the top of the params.
std::optional<std::string> oversized_string(json_value value, const param_path* path, std::size_t max_bytes) {
  if (value.is_string())
    return value.str().size() > max_bytes ? std::optional<std::string>(path ? path->str() : "") : std::nullopt;
  std::optional<std::string> found;
  if (value.is_object())
    value.for_each_member([&](std::string_view key, json_value member) {
      if (found) return;
      const param_path at = path ? path->member(key) : param_path(key);
      if (key.size() > max_bytes)
        found = at.str();
      else
        found = oversized_string(member, &at, max_bytes);
    });
  else if (value.is_array())
    value.for_each_element([&](std::size_t i, json_value item) {
      if (found) return;
      const param_path at = path ? path->element(i) : param_path("");
      found = oversized_string(item, &at, max_bytes);
    });
  return found;
}

std::string byte_size(std::size_t bytes) {
  if (bytes >= (std::size_t(1) << 20) && bytes % (std::size_t(1) << 20) == 0)
    return textfmt::format("{} MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return textfmt::format("{} KiB", bytes >> 10);
  return textfmt::format("{} bytes", bytes);
}

}  // namespace detail

void execution::state::release_claims() {
  for (const auto& ref : claims) registry.release_save(ref);
  claims.clear();
}

void execution::state::finish_rows(std::string&& rows_json, std::size_t written, std::optional<long long> count,
                                   bool quotes_uuid) {
  model_row_count = written;
  if (settings.for_model && (!effective || !writes(*effective))) {
    model_rows = std::move(rows_json);
    model_rows_quote_uuid = quotes_uuid;
    return finish({}, nullptr, count);
  }
  finish(rows_json, nullptr, count);
}

void execution::state::finish(std::string_view data_json, const error* err, std::optional<long long> count) {
  record.count = count;
  // What a call that succeeded put in the registry is its user's (refused_user guards it at the start).
  if (!err && !me().empty()) registry.bind_user(me());
  if (settings.for_model) {
    // The rows as the translator wrote them, scrubbed of the UUIDs values
    // quote; the result for the model is made of them
    // (api::execution_result). A read's `data` is null (the rows are the
    // model's only); a write's few rows stay for the caller's records (the
    // rows it changed).
    if (!data_json.empty()) {
      model_rows = std::string(data_json);
      model_rows_quote_uuid = true;
    }
    if (model_rows_quote_uuid) scrub_uuids(model_rows, registry);
    if (err) {
      model_error = *err;
      scrub_error(*model_error, registry, false);
    }
    if (!effective || !writes(*effective)) data_json = {};
  }
  // Everything after the data first, so the result (megabytes of rows, at
  // times) is allocated once at its final size rather than grown twice.
  std::string tail;
  tail.reserve(512);  // a query record's size: written without growing
  json_writer w(tail);
  w.begin_object();
  w.key("error");
  if (err) {
    // The model sees refs, never UUIDs; the developer keeps the unscrubbed error.
    error shown = *err;
    scrub_error(shown, registry, shown.status != 0);
    scrub_uuids(shown.raw_body, registry);  // a proxy's page can quote ids too
    write_error(w, shown);
  } else {
    w.null();
  }
  w.key("query");
  if (!aggregates_learned.empty()) record.aggregates = aggregates_learned;
  record.requested = requested ? &*requested : nullptr;
  record.effective = effective ? &*effective : nullptr;
  record.dom = &dom;
  write_query_record(w, registry, record);
  w.key("count");
  count ? w.integer(*count) : w.null();
  w.end_object();
  const std::string_view data = data_json.empty() ? std::string_view("null") : data_json;
  std::string().swap(result);
  result.reserve(data.size() + tail.size() + 16);
  result += "{\"data\":";
  result += data;
  result += ',';
  result.append(tail, 1);  // without its opening brace
  finished = true;
  round.clear();
  handed_out.clear();
  release_claims();
}

void execution::state::respond(std::size_t index, need_response response) {
  if (finished || index >= round.size() || round[index].answer) return;
  round[index].answer = std::move(response);
  if (std::any_of(round.begin(), round.end(), [](const pending_need& p) { return !p.answer; })) return;
  advance();
  hand_out();
}

void execution::state::advance() {
  std::vector<pending_need> answered = std::move(round);
  round.clear();
  for (pending_need& p : answered)
    if (!(this->*p.consume)(p)) return;
  for (std::size_t i = 0; i < answered.size() && !finished; ++i) {
    const pending_need::round_step step = answered[i].after_round;
    if (step && std::none_of(answered.begin(), answered.begin() + long(i),
                             [&](const pending_need& p) { return p.after_round == step; }))
      (this->*step)();
  }
  if (!finished && round.empty()) plan_main();
}

void execution::state::hand_out() {
  handed_out.clear();
  handed_out.reserve(round.size());
  for (pending_need& p : round) handed_out.push_back(std::move(p.ask));
}

bool execution::state::succeeded(const need_response& answer) {
  return answer.status >= 200 && answer.status < 300 && answer.failure == transport_failure::none;
}

std::optional<std::size_t> execution::state::apply_limits(need_response& answer, bool* over_bytes,
                                                          bool count_rows) const {
  if (answer.failure != transport_failure::none) {
    if (over_bytes) *over_bytes = answer.failure == transport_failure::too_large;
    return std::nullopt;
  }
  const execution_limits& limits = settings.limits;
  std::string why;
  std::optional<std::size_t> rows;
  const bool too_many_bytes = answer.body.size() > limits.max_response_bytes;
  if (over_bytes) *over_bytes = too_many_bytes;
  if (too_many_bytes) {
    why = textfmt::format("{} bytes, over {}", answer.body.size(), byte_size(limits.max_response_bytes));
  } else if (!count_rows) {
    return std::nullopt;
  } else if (rows = detail::array_length(answer.body, limits.max_rows); rows && *rows > limits.max_rows) {
    why = textfmt::format("more than {} rows", limits.max_rows);
  } else {
    return rows;
  }
  answer.failure = transport_failure::too_large;
  answer.body = std::move(why);
  answer.body.shrink_to_fit();
  return std::nullopt;
}

const char* execution::state::not_rows(std::string_view body) {
  const auto first = body.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "an empty body";
  switch (body[first]) {
    case '[':
      return nullptr;
    case '{':
      return "a single object";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a boolean";
    case 'n':
      return "null";
    default:
      return body[first] == '-' || (body[first] >= '0' && body[first] <= '9') ? "a number" : "text that is not JSON";
  }
}
execution::execution(const domain& dom, ref_registry& registry, std::string_view tool, std::string params_json,
                     request_context context, execution_options settings)
    : state_(std::make_unique<state>(dom, registry, std::move(context), std::move(settings))) {
  state_->params_text = std::move(params_json);
  state_->start(tool);
  state_->hand_out();
}

execution::execution(const domain& dom, ref_registry& registry, std::string_view tool, std::string_view params_json,
                     request_options options, execution_options settings)
    : execution(dom, registry, tool, std::string(params_json), request_context(std::move(options)),
                std::move(settings)) {}

execution::~execution() = default;
execution::execution(execution&&) noexcept = default;
execution& execution::operator=(execution&&) noexcept = default;

bool execution::done() const { return state_->finished; }
const std::vector<need>& execution::needs() const { return state_->handed_out; }
const request_context& execution::context() const { return state_->options; }
void execution::respond(std::size_t index, need_response response) { state_->respond(index, std::move(response)); }
const std::string& execution::result_json() const { return state_->result; }

std::optional<execution::model_parts> execution::model() const {
  const state& s = *state_;
  if (!s.finished || !s.settings.for_model) return std::nullopt;
  model_parts parts;
  parts.rows = s.model_rows;
  parts.row_count = s.model_row_count;
  parts.err = s.model_error ? &*s.model_error : nullptr;
  parts.count = s.record.count;
  parts.offset = s.requested && s.requested->offset ? *s.requested->offset : 0;
  parts.limited = s.model_limited;
  parts.limits = *s.settings.for_model;
  parts.registry = &s.registry;
  parts.fence = s.settings.model_fence;
  return parts;
}

}  // namespace alfred
