// The core as text (alfred/api.h): each call reads its JSON arguments,
// delegates to the subsystem that does the work, and writes the result. The
// WebAssembly bindings only move bytes to and from these functions.

#include "alfred/api.h"

#include <utility>

#include "alfred/decision.h"
#include "alfred/json.h"
#include "alfred/prompt.h"
#include "alfred/prompt_examples.h"
#include "alfred/prompt_query.h"
#include "alfred/prompt_step.h"
#include "alfred/request.h"
#include "alfred/row_translation.h"
#include "alfred/tool_schema.h"
#include "alfred/uuid_scrub.h"

namespace alfred::api {
namespace {

error unknown_table(std::string_view name) {
  return {codes::unknown_table, "table", "'" + std::string(name) + "' is not a table of this domain", ""};
}

std::string quoted_data(std::string_view text) { return data_result(json_quote(text)); }

constexpr tool_kind kTools[] = {tool_kind::read, tool_kind::create, tool_kind::update, tool_kind::remove};

}  // namespace

std::string out_of_memory_result() {
  return error_result(
      {codes::out_of_memory, "", "alfred-act core failed: the input needs more memory than the core may use",
       "use smaller inputs (the limits in docs/limits-and-faults.md keep one call well inside the memory "
       "cap)"});
}

std::string internal_error_result(const char* what) {
  return error_result({codes::internal_error, "", std::string("alfred-act core failed: ") + what,
                       "please report this with the input that caused it"});
}

// --- Domains -----------------------------------------------------------------

std::string load_domain(domain& into, std::string_view config_json) {
  return guarded([&]() -> std::string {
    auto parsed = parse_domain(config_json);
    if (!parsed) return error_result(parsed.err());
    into = std::move(*parsed);
    return {};
  });
}

std::string tool_definitions(const domain& dom, bool strict) {
  return guarded([&]() { return data_result(tool_definitions_json(dom, {strict})); });
}

std::string prompt_examples(const domain& dom) {
  return guarded([&]() {
    std::string data;
    json_writer w(data);
    w.begin_object();
    for (const auto& [slot, text] : alfred::prompt_examples(dom)) {
      w.key(slot);
      w.string(text);
    }
    w.end_object();
    return data_result(data);
  });
}

// --- Registry ----------------------------------------------------------------

std::string restore_registry(ref_registry& reg, std::string_view state_json) {
  return guarded([&]() -> std::string {
    auto restored = ref_registry::from_json(state_json);
    if (!restored) return error_result(restored.err());
    reg = std::move(*restored);
    return data_result("true");
  });
}

std::string registry_state(const ref_registry& reg) {
  return guarded([&]() { return data_result(reg.to_json()); });
}

std::string register_generated(const domain& dom, ref_registry& reg, std::string_view table_name,
                               std::string_view content_json) {
  return guarded([&]() -> std::string {
    const table* tbl = dom.find_table(table_name);
    if (!tbl) return error_result(unknown_table(table_name));
    auto content = json_document::parse(content_json);
    if (!content) return error_result({codes::invalid_json, "content", content.err().message, ""});
    const std::string label = row_label(*tbl, content->root());
    auto ref = reg.register_generated(tbl->name, tbl->ref_prefix, std::string(content_json), label);
    if (!ref) return error_result(ref.err());
    return quoted_data(*ref);
  });
}

std::string update_generated(const domain& dom, ref_registry& reg, std::string_view gen_ref,
                             std::string_view content_json) {
  return guarded([&]() -> std::string {
    const ref_entry* entry = reg.find(gen_ref);
    if (!entry || !entry->pending()) {
      const std::string hint = entry && entry->generated
                                   ? "it was saved as " + entry->saved_as + "; change the saved row with db_update"
                                   : "revise a gen_ ref listed as pending";
      return error_result({codes::unknown_ref, "", std::string(gen_ref) + " is not a pending generated artifact", hint});
    }
    const table* tbl = dom.find_table(entry->table);
    if (!tbl) return error_result(unknown_table(entry->table));
    auto content = json_document::parse(content_json);
    if (!content) return error_result({codes::invalid_json, "content", content.err().message, ""});
    if (!content->root().is_object())
      return error_result({codes::invalid_content, "content", "the content of an artifact must be an object", ""});
    const std::string label = row_label(*tbl, content->root());
    auto updated = reg.update_generated(gen_ref, std::string(content_json), label);
    if (!updated) return error_result(updated.err());
    return quoted_data(gen_ref);
  });
}

std::string promote(ref_registry& reg, std::string_view gen_ref, std::string_view uuid, std::string_view label) {
  return guarded([&]() -> std::string {
    auto saved = reg.promote(gen_ref, uuid, label);
    if (!saved) return error_result(saved.err());
    return quoted_data(*saved);
  });
}

std::string ref_table(const ref_registry& reg, std::string_view ref) {
  return guarded([&]() {
    const ref_entry* entry = reg.resolve(ref);
    return entry ? quoted_data(entry->table) : data_result("null");
  });
}

std::string parse_ref(std::string_view text) {
  return guarded([&]() {
    const auto name = parse_ref_name(text);
    if (!name) return data_result("null");
    std::string data;
    json_writer w(data);
    w.begin_object();
    w.key("generated");
    w.boolean(name->generated);
    w.key("prefix");
    w.string(name->prefix);
    w.key("number");
    w.integer(name->number);
    w.end_object();
    return data_result(data);
  });
}

bool translate_rows(std::string& out, const domain& dom, ref_registry& reg, std::string_view table_name,
                    std::string_view action, std::string_view rows_json) {
  bool ok = false;
  guarded_into(out, [&]() {
    const table* tbl = dom.find_table(table_name);
    auto parsed = parse_row_action(action);
    if (!tbl) {
      out = error_result(unknown_table(table_name));
    } else if (!parsed) {
      out = error_result({codes::invalid_option, "action", "'" + std::string(action) + "' is not a row action",
                          "one of: read, created, updated, deleted"});
    } else if (auto rows = alfred::translate_rows(dom, reg, *tbl, rows_json, *parsed)) {
      out = std::move(*rows);
      ok = true;
    } else {
      out = error_result(rows.err());
    }
  });
  return ok;
}

std::string without_uuids(const ref_registry& reg, std::string_view text) {
  return guarded([&]() {
    std::string out(text);
    scrub_uuids(out, reg);
    return quoted_data(out);
  });
}

// --- Requests and executions -------------------------------------------------

void build_request(std::string& out, const domain& dom, const ref_registry& reg, std::string_view call_json) {
  guarded_into(out, [&]() {
    auto fail = [&](const error& err) { out = error_result(err); };
    auto doc = json_document::parse(call_json);
    if (!doc) return fail({codes::invalid_json, "params", doc.err().message, ""});
    const json_value call = doc->root();
    if (!call.is_array() || call.size() != 3 || !call.at(0).is_string())
      return fail({codes::invalid_params, "", "expected [tool, params, options]", ""});
    auto options = parse_request_options(call.at(2));
    if (!options) return fail(options.err());
    auto parsed = parse_tool_call(dom, reg, call.at(0).str(), call.at(1));
    if (!parsed) return fail(parsed.err());
    auto written = append_request_result(out, dom, *parsed, *options);
    if (!written) return fail(written.err());
  });
}

std::string check_request_options(std::string_view options_json) {
  return guarded([&]() {
    auto doc = json_document::parse(options_json);
    if (!doc) return error_result({codes::invalid_option, "", doc.err().message, ""});
    auto options = parse_request_options(doc->root());
    if (!options) return error_result(options.err());
    auto checked = alfred::check_request_options(*options);
    if (!checked) return error_result(checked.err());
    return data_result("null");
  });
}

std::string start_execution(std::optional<execution>& into, const domain& dom, ref_registry& reg,
                            std::string_view call_json) {
  into.reset();
  std::string failure;
  guarded_into(failure, [&]() {
    auto doc = json_document::parse(call_json);
    if (!doc) {
      failure = error_result({codes::invalid_json, "params", doc.err().message, ""});
      return;
    }
    const json_value call = doc->root();
    if (!call.is_array() || call.size() < 3 || call.size() > 4 || !call.at(0).is_string()) {
      failure = error_result({codes::invalid_params, "", "expected [tool, params, options, settings]", ""});
      return;
    }
    auto options = parse_request_options(call.at(2));
    if (!options) {
      failure = error_result(options.err());
      return;
    }
    auto settings = parse_execution_options(call.size() == 4 ? call.at(3) : json_value());
    if (!settings) {
      failure = error_result(settings.err());
      return;
    }
    into.emplace(dom, reg, call.at(0).str(), call.at(1).raw(), std::move(*options), std::move(*settings));
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

void respond(execution& ex, std::size_t index, int status, std::string content_range, std::string content_type,
             std::string_view failure_name, std::string body) {
  const auto kind = parse_transport_failure(failure_name);
  ex.respond(index, {status, std::move(content_range), std::move(content_type), std::move(body),
                     kind.value_or(transport_failure::no_response)});
}

std::string default_execution_limits() { return execution_limits_json(); }

// --- Prompts and decisions ---------------------------------------------------

void build_act_prompt(std::string& out, const domain& dom, const ref_registry& reg, std::string_view input_json) {
  guarded_into(out, [&]() {
    auto prompt = alfred::build_act_prompt(dom, reg, input_json);
    if (!prompt) {
      out = error_result(prompt.err());
      return;
    }
    std::string data;
    json_writer w(data);
    w.begin_object();
    w.key("system");
    w.string(prompt->system);
    w.key("user");
    w.string(prompt->user);
    w.end_object();
    out = data_result(data);
  });
}

std::string render_query(std::string_view record_json, std::string_view style) {
  return guarded([&]() {
    auto text = alfred::render_query(record_json, style == "line" ? query_style::line : query_style::block);
    return text ? quoted_data(*text) : error_result(text.err());
  });
}

std::string parse_decision(std::string_view text, std::string_view step) {
  return guarded([&]() -> std::string {
    std::optional<step_type> type;
    if (!step.empty()) {
      type = parse_step_type(step);
      if (!type)
        return error_result({codes::invalid_option, "stepType", "'" + std::string(step) + "' is not a step type",
                             "one of: read, write, analyze, generate"});
    }
    auto decision = alfred::parse_decision(text, type);
    return decision ? data_result(decision_to_json(*decision)) : error_result(decision.err());
  });
}

std::string_view act_decision_schema() { return alfred::act_decision_schema(); }

std::string step_tools() {
  std::string out;
  json_writer w(out);
  w.begin_object();
  for (const step_type type : {step_type::read, step_type::write, step_type::analyze, step_type::generate}) {
    w.key(step_type_name(type));
    w.begin_array();
    for (const tool_kind tool : kTools)
      if (step_calls_tools(type) && step_allows_tool(type, tool)) w.string(tool_name(tool));
    w.end_array();
  }
  w.end_object();
  return out;
}

std::string tool_names() {
  std::string out;
  json_writer w(out);
  w.begin_array();
  for (const tool_kind tool : kTools) w.string(tool_name(tool));
  w.end_array();
  return out;
}

}  // namespace alfred::api
