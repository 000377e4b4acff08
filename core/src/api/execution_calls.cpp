// The text API's request and execution calls: a request built from a tool
// call, request options checked, and executions started and answered.

#include <utility>

#include "../executor/model_result.h"
#include "../json/latin1.h"
#include "alfred/api/api.h"
#include "alfred/json/json.h"
#include "alfred/postgrest/request.h"
#include "alfred/prompt/prompt_query.h"
#include "alfred/tool_call/tool_call.h"
#include "results.h"

namespace alfred::api {
namespace {

// The query as the model reads it in a tool result: for a call that failed,
// its outcome is the error's code (the error itself is written next to it),
// not what the request alone would say ("done").
std::string model_query_text(json_value record, std::string_view error_code) {
  if (error_code.empty()) {
    auto rendered = render_query(record, query_style::block);
    return rendered ? std::move(*rendered) : std::string();
  }
  std::string failed;
  json_writer w(failed);
  w.begin_object();
  w.key("query");
  w.value(record);
  w.key("error");
  w.begin_object();
  w.key("code");
  w.string(error_code);
  w.end_object();
  w.end_object();
  auto doc = json_document::parse(failed);
  if (!doc) return {};
  auto rendered = render_query(doc->root(), query_style::block);
  return rendered ? std::move(*rendered) : std::string();
}

// The code of an outcome's error given as JSON ("error" when it names none), or "" when it succeeded.
std::string failed_code(std::optional<json_value> error) {
  if (!error || !error->is_object()) return {};
  const auto code = error->find("code");
  return code && code->is_string() && !code->str().empty() ? std::string(code->str()) : std::string("error");
}

// What an outcome says about its call (the fields JS holds, or an
// execution's header): the tool (the fields', else its query record's), the
// table and function the record names (else the table the fields name), the
// query rendered, whether a request ran.
struct outcome_subject {
  std::string tool;
  std::string table;
  std::string function;
  std::string query_text;
  std::optional<bool> exact;
  bool ran = false;
  /// db_call of a function that reads a set: the model pages it.
  bool pages = false;
};

std::string text_in(json_value object, const char* key) {
  auto value = object.find(key);
  return value && value->is_string() ? std::string(value->str()) : std::string();
}

outcome_subject subject_of(json_value fields) {
  outcome_subject out;
  out.tool = text_in(fields, "tool");
  if (auto record = fields.find("query"); record && record->is_object()) {
    out.query_text = model_query_text(*record, failed_code(fields.find("error")));
    if (out.tool.empty()) out.tool = text_in(*record, "tool");
    out.table = text_in(*record, "table");
    out.function = text_in(*record, "function");
    if (auto source = record->find("source"); source && source->is_string()) out.ran = source->str() != "none";
    if (auto flag = record->find("exact"); flag && flag->is_bool()) out.exact = flag->as_bool();
    if (auto flag = record->find("pages"); flag && flag->is_bool()) out.pages = flag->as_bool();
  }
  // A call refused before it had a query record still names its table.
  if (out.table.empty()) out.table = text_in(fields, "table");
  return out;
}

}  // namespace

std::string make_request_context(request_context& into, std::string_view options_json) {
  std::string failure;
  guarded_into(failure, [&]() {
    auto doc = json_document::parse(options_json);
    if (!doc) {
      failure = error_result({codes::invalid_option, "", doc.err().message, ""});
      return;
    }
    auto options = parse_request_options(doc->root());
    if (!options) {
      failure = error_result(options.err());
      return;
    }
    into = request_context(std::move(*options));
  });
  return failure;
}

std::string context_headers(const request_context& context) {
  return guarded([&]() {
    std::string out;
    json_writer w(out);
    w.begin_object();
    write_context_headers(w, context);
    w.end_object();
    return out;
  });
}

bool build_request(std::string& out, request_layout& layout, const domain& dom, const ref_registry& reg,
                   const request_context& context, std::string_view call_json) {
  bool built = false;
  guarded_into(out, [&]() {
    auto fail = [&](const error& err) { out = error_result(err); };
    auto doc = json_document::parse(call_json);
    if (!doc) return fail({codes::invalid_json, "params", doc.err().message, ""});
    const json_value call = doc->root();
    if (!call.is_array() || call.size() != 2 || !call.at(0).is_string())
      return fail({codes::invalid_params, "", "expected [tool, params]", ""});
    // Another user's refs build no request, and lend no label to a preview (docs/sessions.md).
    if (auto refused = reg.refused_user(context.options().user_id)) return fail(*refused);
    auto parsed = parse_tool_call(dom, reg, call.at(0).str(), call.at(1), context.options().user_id);
    if (!parsed) return fail(parsed.err());
    auto written = append_request_parts(out, layout, dom, *parsed, context);
    if (!written) return fail(written.err());
    built = true;
  });
  return built;
}

std::string context_send_error(const request_context& context) {
  return guarded([&]() { return context.send_error() ? error_result(*context.send_error()) : data_result("null"); });
}

std::string start_execution(std::optional<execution>& into, const domain& dom, ref_registry& reg,
                            const request_context& context, std::string_view call_text) {
  into.reset();
  std::string failure;
  guarded_into(failure, [&]() {
    const auto newline = call_text.find('\n');
    auto head = json_document::parse(call_text.substr(0, newline));
    if (newline == std::string_view::npos || !head || !head->root().is_array() || head->root().size() != 2 ||
        !head->root().at(0).is_string()) {
      failure = error_result({codes::invalid_params, "", "expected [tool, settings], a newline and the params", ""});
      return;
    }
    auto settings = parse_execution_options(head->root().at(1));
    if (!settings) {
      failure = error_result(settings.err());
      return;
    }
    into.emplace(dom, reg, head->root().at(0).str(), std::string(call_text.substr(newline + 1)), context,
                 std::move(*settings));
  });
  if (!failure.empty()) into.reset();
  return failure;
}

const std::string& execution_result(const execution& ex, std::string& scratch) {
  const auto parts = ex.model();
  if (!parts) return ex.result_json();
  guarded_into(scratch, [&]() {
    // The header is small (no data): read it for the query record.
    auto header = json_document::parse(ex.result_json());
    const outcome_subject call = header ? subject_of(header->root()) : outcome_subject{};
    // The result's fields, a newline, the text for the model: written in place.
    scratch.clear();
    scratch.reserve(ex.result_json().size() + 1 + parts->rows.size() + call.query_text.size() + 512);
    scratch += ex.result_json();
    scratch += '\n';
    if (parts->err) {
      scratch += detail::model_error_text(call.tool, call.table, *parts->err,
                                          call.ran ? std::string_view(call.query_text) : std::string_view(),
                                          call.function, parts->fence);
    } else {
      detail::model_envelope head;
      head.tool = call.tool;
      head.table = call.table;
      head.function = call.function;
      head.exact = call.exact;
      head.count = parts->count;
      head.query = call.query_text;
      head.offset = parts->offset;
      head.limited = parts->limited;
      head.pages = call.pages;
      head.fence = parts->fence;
      detail::write_model_success(scratch, head, parts->rows, parts->row_count, true, *parts->registry, parts->limits);
    }
  });
  return scratch;
}

const std::string& execution_result(const execution& ex, std::string& scratch, bool& latin1) {
  // Below this size either decoder reads a text in about the same time.
  constexpr std::size_t kLatin1Bytes = 16384;
  const std::string& text = execution_result(ex, scratch);
  // Only the model's text is rewritten: it is written into `scratch`.
  latin1 = latin1 && &text == &scratch && text.size() >= kLatin1Bytes && detail::utf8_to_latin1(scratch);
  return text;
}

namespace {

// The error of an outcome JS made (a policy's, a held write's with its preview).
std::string given_error_text(const outcome_subject& call, json_value given, std::string_view fence) {
  auto field = [&](const char* key) -> std::string {
    auto value = given.find(key);
    if (!value) return {};
    return value->is_string() ? std::string(value->str()) : std::string(value->raw());
  };
  error err{codes::invalid_params, field("path"), field("message"), field("hint")};
  err.details = field("details");
  std::optional<json_value> preview = given.find("preview");
  if (preview && !preview->is_object()) preview.reset();
  return detail::model_error_text_with_code(call.tool, call.table, field("code"), err,
                                            call.ran ? call.query_text : std::string(), call.function, fence, preview);
}

}  // namespace

void model_tool_result(std::string& out, const ref_registry& reg, std::string_view input) {
  guarded_into(out, [&]() {
    const auto newline = input.find('\n');
    auto head = json_document::parse(input.substr(0, newline));
    if (newline == std::string_view::npos || !head || !head->root().is_object()) {
      out = error_result({codes::invalid_params, "", "expected the outcome's fields, a newline and its rows", ""});
      return;
    }
    const json_value fields = head->root();
    auto number_of = [&](json_value object, const char* key) -> std::optional<long long> {
      auto value = object.find(key);
      return value ? value->as_integer() : std::nullopt;
    };
    result_limits limits;
    if (auto caps = fields.find("limits"); caps && caps->is_object()) {
      if (auto rows = number_of(*caps, "rows"); rows && *rows > 0) limits.rows = std::size_t(*rows);
      if (auto chars = number_of(*caps, "chars"); chars && *chars > 0) limits.chars = std::size_t(*chars);
    }
    const outcome_subject call = subject_of(fields);
    std::string_view fence;
    if (auto given = fields.find("fence"); given && given->is_string()) fence = given->str();
    if (!fence.empty() && !detail::is_fence_marker(fence)) {
      out = error_result({codes::invalid_params, "fence", "fence must be 6 to 64 letters and digits", ""});
      return;
    }
    if (auto given = fields.find("error"); given && given->is_object()) {
      out = given_error_text(call, *given, fence);
      return;
    }
    detail::model_envelope envelope;
    envelope.tool = call.tool;
    envelope.table = call.table;
    envelope.function = call.function;
    envelope.exact = call.exact;
    envelope.pages = call.pages;
    envelope.count = number_of(fields, "count");
    envelope.query = call.query_text;
    envelope.offset = number_of(fields, "offset").value_or(0);
    if (auto returned = number_of(fields, "returned"); returned && *returned > 0)
      envelope.returned = std::size_t(*returned);
    if (auto limited = fields.find("limited"); limited && limited->is_bool()) envelope.limited = limited->as_bool();
    envelope.fence = fence;
    const std::string_view rows = input.substr(newline + 1);
    out = detail::model_success_text(envelope, rows.empty() ? std::string_view("[]") : rows, reg, limits);
  });
}

std::string execution_needs(const execution& ex) {
  std::string out;
  guarded_into(out, [&]() {
    out.reserve(512);  // a request's method, URL and own headers: written without growing
    json_writer w(out);
    w.begin_array();
    // The context's headers (the access token among them) are the caller's
    // already: only the request's own cross the boundary.
    const std::size_t from_context = context_header_count(ex.context().options());
    for (const auto& need : ex.needs()) {
      if (need.type == need::kind::embed) {
        w.begin_object();
        w.key("kind");
        w.string("embed");
        w.key("text");
        w.string(need.text);
        w.end_object();
      } else {
        std::string request;
        request.reserve(256 + need.request.url.size() + (need.request.body ? need.request.body->size() : 0));
        json_writer rw(request);
        write_request(rw, need.request, from_context);
        request.replace(0, 1, "{\"kind\":\"http\",");
        w.raw_value(request);
      }
    }
    w.end_array();
  });
  return out;
}

std::string respond(std::optional<execution>& ex, std::size_t index, int status, std::string content_range,
                    std::string content_type, std::string_view failure_name, std::string body) {
  if (!ex) return {};
  std::string failure;
  guarded_into(failure, [&]() {
    const auto kind = parse_transport_failure(failure_name);
    ex->respond(index, {status, std::move(content_range), std::move(content_type), std::move(body),
                        kind.value_or(transport_failure::no_response)});
  });
  if (!failure.empty()) ex.reset();
  return failure;
}

std::string default_execution_limits() {
  return guarded([]() { return execution_limits_json(); });
}

}  // namespace alfred::api
