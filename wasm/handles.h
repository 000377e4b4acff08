#pragma once
// What the binding files share: the embind handle classes of a domain and a
// registry, exception guarding, and the byte transfer through WASM memory.

#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "alfred/domain.h"
#include "alfred/json.h"
#include "alfred/registry.h"
#include "alfred/request.h"
#include "alfred/row_translation.h"

namespace alfred_wasm {

namespace codes = alfred::codes;
using alfred::data_result;
using alfred::error_result;
using alfred::json_document;
using alfred::json_value;

inline alfred::error internal_error(const char* what) {
  return {codes::internal_error, "", std::string("alfred-act core failed: ") + what,
          "please report this with the input that caused it"};
}

/// `{"data":null,"error":{"code":"out_of_memory",…}}`: one copy for every
/// guarded call (defined in bindings.cpp).
std::string out_of_memory_result();

// Runs `body`, which writes its result into `out`, turning any escaped C++
// exception (allocation failure) into an error result so the module is never
// left in a broken state. Builds without exceptions abort instead, and the JS
// side reports the instance as broken.
template <class F>
inline void guarded_into(std::string& out, F&& body) {
#if defined(__cpp_exceptions)
  try {
    body();
  } catch (const std::bad_alloc&) {
    out = out_of_memory_result();
  } catch (const std::exception& e) {
    out = error_result(internal_error(e.what()));
  } catch (...) {
    out = error_result(internal_error("unknown exception"));
  }
#else
  body();
#endif
}

// `guarded_into` for a `body` that returns its result.
template <class F>
inline std::string guarded(F&& body) {
  std::string out;
  guarded_into(out, [&]() { out = body(); });
  return out;
}

inline std::string quoted_data(const std::string& text) { return data_result(alfred::json_quote(text)); }

class domain_handle {
 public:
  explicit domain_handle(const std::string& config_json) {
    load_error_ = guarded([&]() -> std::string {
      auto parsed = alfred::parse_domain(config_json);
      if (!parsed) return error_result(parsed.err());
      domain_ = std::move(*parsed);
      return {};
    });
  }
  /// "" when the domain loaded, else `{"data":null,"error":{…}}`.
  std::string load_error() const { return load_error_; }
  const alfred::domain& get() const { return domain_; }

  const alfred::table* table(const std::string& name) const { return domain_.find_table(name); }

 private:
  alfred::domain domain_;
  std::string load_error_;
};

inline alfred::error unknown_table(const std::string& name) {
  return {codes::unknown_table, "table", "'" + name + "' is not a table of this domain", ""};
}

class registry_handle {
 public:
  /// Replaces the state; returns `{"data":true}` or the error.
  std::string restore(const std::string& state_json) {
    return guarded([&]() -> std::string {
      auto restored = alfred::ref_registry::from_json(state_json);
      if (!restored) return error_result(restored.err());
      registry_ = std::move(*restored);
      return data_result("true");
    });
  }

  /// `{"data": <state>}`, or the error when the state could not be written
  /// (out of memory): nothing escapes to JS as a raw exception.
  std::string to_json() const {
    return guarded([&]() { return data_result(registry_.to_json()); });
  }
  int turn() const { return registry_.turn(); }
  void set_turn(int n) { registry_.set_turn(n); }
  void end_turn() { registry_.end_turn(); }

  std::string translate_rows(const domain_handle& dom, const std::string& table_name, const std::string& rows_json,
                             const std::string& action) {
    return guarded([&]() -> std::string {
      const alfred::table* tbl = dom.table(table_name);
      if (!tbl) return error_result(unknown_table(table_name));
      auto parsed = alfred::parse_row_action(action);
      if (!parsed)
        return error_result({codes::invalid_option, "action", "'" + action + "' is not a row action",
                             "one of: read, created, updated, deleted"});
      auto rows = alfred::translate_rows(dom.get(), registry_, *tbl, rows_json, *parsed);
      if (!rows) return error_result(rows.err());
      return data_result(*rows);
    });
  }

  std::string register_generated(const domain_handle& dom, const std::string& table_name,
                                 const std::string& content_json) {
    return guarded([&]() -> std::string {
      const alfred::table* tbl = dom.table(table_name);
      if (!tbl) return error_result(unknown_table(table_name));
      auto content = json_document::parse(content_json);
      if (!content) return error_result({codes::invalid_json, "content", content.err().message, ""});
      const std::string label = alfred::row_label(*tbl, content->root());
      auto ref = registry_.register_generated(tbl->name, tbl->ref_prefix, content_json, label);
      if (!ref) return error_result(ref.err());
      return quoted_data(*ref);
    });
  }

  std::string promote(const std::string& gen_ref, const std::string& uuid, const std::string& label) {
    return guarded([&]() -> std::string {
      auto saved = registry_.promote(gen_ref, uuid, label);
      if (!saved) return error_result(saved.err());
      return quoted_data(*saved);
    });
  }

  const alfred::ref_registry& get() const { return registry_; }
  alfred::ref_registry& get() { return registry_; }

 private:
  alfred::ref_registry registry_;
};

// Byte transfer for the hot path: embind's std::string marshalling is a JS
// loop per character, while JS can fill WASM memory with
// TextEncoder.encodeInto and read it back with TextDecoder (native code).
// JS writes the input into `input_buffer`, calls a `*_at` function, then
// reads the output's address and length from `result_slot`.

/// The first `length` bytes JS wrote into the input buffer.
std::string_view input_view(std::size_t length);
/// The output buffer, kept between calls so its capacity is reused.
std::string& output_bytes();
/// Makes `output_bytes()` visible to JS through the result slot.
void publish_output();
/// Makes `text` visible to JS through the result slot, without copying it;
/// `text` must outlive JS reading it.
void publish(const std::string& text);

}  // namespace alfred_wasm
