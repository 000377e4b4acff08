// The only WASM boundary: embind classes and functions that take and return
// JSON text. Everything here is translation between the JS shapes and the
// core's types; no decisions are made in this file.

#include <emscripten/bind.h>

#include <exception>
#include <string>

#include "alfred/domain.h"
#include "alfred/registry.h"
#include "alfred/request.h"
#include "alfred/row_translation.h"

namespace {

using alfred::json;

std::string error_text(const alfred::error& err) {
  return alfred::to_json_text(json{{"data", nullptr}, {"error", alfred::error_to_json(err)}});
}

std::string data_text(json data) {
  return alfred::to_json_text(json{{"data", std::move(data)}, {"error", nullptr}});
}

alfred::error internal_error(const char* what) {
  return {"internal_error", "", std::string("alfred-act core failed: ") + what,
          "please report this with the input that caused it"};
}

// Parses JSON text coming from JS; `path` names the argument in errors.
alfred::result<json> parse_json_argument(const std::string& text, const char* path) {
  json value = json::parse(text, nullptr, false);
  if (value.is_discarded())
    return alfred::error{"invalid_json", path, std::string(path) + " is not valid JSON",
                         "lone UTF-16 surrogates and malformed escapes cannot be represented"};
  return value;
}

// Runs `body`, turning any escaped C++ exception into an error result so the
// module is never left in a broken state.
template <class F>
std::string guarded(F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return error_text(internal_error(e.what()));
  } catch (...) {
    return error_text(internal_error("unknown exception"));
  }
}

class domain_handle {
 public:
  explicit domain_handle(const std::string& config_text) {
    error_ = guarded([&]() -> std::string {
      auto config = parse_json_argument(config_text, "domain");
      if (!config) return error_text(config.err());
      auto parsed = alfred::parse_domain(*config);
      if (!parsed) return error_text(parsed.err());
      domain_ = std::move(*parsed);
      return {};
    });
  }
  /// "" when the domain loaded, else `{"data":null,"error":{…}}`.
  std::string load_error() const { return error_; }
  const alfred::domain& get() const { return domain_; }

 private:
  alfred::domain domain_;
  std::string error_;
};

class registry_handle {
 public:
  registry_handle() = default;

  /// Replaces the state; returns `{"data":true}` or the error.
  std::string restore(const std::string& state_text) {
    return guarded([&]() -> std::string {
      auto state = parse_json_argument(state_text, "state");
      if (!state) return error_text(state.err());
      auto restored = alfred::ref_registry::from_json(*state);
      if (!restored) return error_text(restored.err());
      registry_ = std::move(*restored);
      return data_text(true);
    });
  }

  std::string to_json() const { return alfred::to_json_text(registry_.to_json()); }
  int turn() const { return registry_.turn(); }
  void set_turn(int n) { registry_.set_turn(n); }
  void end_turn() { registry_.end_turn(); }

  std::string translate_rows(const domain_handle& dom, const std::string& table_name,
                             const std::string& rows_text, const std::string& action) {
    return guarded([&]() -> std::string {
      const alfred::table* tbl = dom.get().find_table(table_name);
      if (!tbl)
        return error_text({"unknown_table", "table", "'" + table_name + "' is not a table of this domain", ""});
      auto rows = parse_json_argument(rows_text, "rows");
      if (!rows) return error_text(rows.err());
      const alfred::ref_action parsed_action = action == "created"   ? alfred::ref_action::created
                                               : action == "updated" ? alfred::ref_action::updated
                                               : action == "deleted" ? alfred::ref_action::deleted
                                                                     : alfred::ref_action::read;
      return data_text(alfred::translate_rows(dom.get(), registry_, *tbl, *rows, parsed_action));
    });
  }

  std::string register_generated(const domain_handle& dom, const std::string& table_name,
                                 const std::string& content_text) {
    return guarded([&]() -> std::string {
      const alfred::table* tbl = dom.get().find_table(table_name);
      if (!tbl)
        return error_text({"unknown_table", "table", "'" + table_name + "' is not a table of this domain", ""});
      auto content = parse_json_argument(content_text, "content");
      if (!content) return error_text(content.err());
      const std::string label = alfred::row_label(*tbl, *content);
      return data_text(registry_.register_generated(tbl->name, tbl->ref_prefix, std::move(*content), label));
    });
  }

  std::string promote(const std::string& gen_ref, const std::string& uuid, const std::string& label) {
    return guarded([&]() -> std::string {
      auto saved = registry_.promote(gen_ref, uuid, label);
      if (!saved) return error_text(saved.err());
      return data_text(*saved);
    });
  }

  const alfred::ref_registry& get() const { return registry_; }

 private:
  alfred::ref_registry registry_;
};

std::string build_request(const domain_handle& dom, const registry_handle& registry, const std::string& tool,
                          const std::string& params_text, const std::string& options_text) {
  return guarded([&]() -> std::string {
    auto params = parse_json_argument(params_text, "params");
    if (!params) return error_text(params.err());
    auto options_json = parse_json_argument(options_text, "options");
    if (!options_json) return error_text(options_json.err());
    auto options = alfred::parse_request_options(*options_json);
    if (!options) return error_text(options.err());
    auto request = alfred::build_request(dom.get(), registry.get(), tool, *params, *options);
    if (!request) return error_text(request.err());
    return data_text(alfred::request_to_json(*request));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(alfred_act) {
  using namespace emscripten;
  class_<domain_handle>("Domain")
      .constructor<const std::string&>()
      .function("loadError", &domain_handle::load_error);
  class_<registry_handle>("Registry")
      .constructor<>()
      .function("restore", &registry_handle::restore)
      .function("toJSON", &registry_handle::to_json)
      .function("turn", &registry_handle::turn)
      .function("setTurn", &registry_handle::set_turn)
      .function("endTurn", &registry_handle::end_turn)
      .function("translateRows", &registry_handle::translate_rows)
      .function("registerGenerated", &registry_handle::register_generated)
      .function("promote", &registry_handle::promote);
  function("buildRequest", &build_request);
}
