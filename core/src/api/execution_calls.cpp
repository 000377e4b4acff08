// The text API's request and execution calls: a request built from a tool
// call, request options checked, and executions started and answered.

#include <utility>

#include "alfred/api.h"
#include "alfred/json.h"
#include "alfred/request.h"
#include "alfred/tool_call.h"
#include "results.h"

namespace alfred::api {

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

std::string execution_needs(const execution& ex) {
  std::string out;
  guarded_into(out, [&]() {
    json_writer w(out);
    w.begin_array();
    for (const auto& need : ex.needs()) {
      if (need.type == need::kind::embed) {
        w.begin_object();
        w.key("kind");
        w.string("embed");
        w.key("text");
        w.string(need.text);
        w.end_object();
      } else {
        out += out.back() == '[' ? "" : ",";
        std::string request;
        json_writer rw(request);
        write_request(rw, need.request);
        out += "{\"kind\":\"http\",";
        out.append(request, 1);
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
