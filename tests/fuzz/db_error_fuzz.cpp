// PostgREST failures as errors (`database_error`, core/src/executor/db_error.cpp) on
// arbitrary responses: status and body come from the server or whatever
// answers in its place (a proxy's HTML, a truncated body). The error always
// has a known code and a message naming the request; a JSON error body's
// `code`, `message`, `details` and `hint` are read as nlohmann reads them;
// other bodies are quoted, cut to 300 bytes between two characters, so valid
// UTF-8 stays valid. Input: the status as decimal text, a newline, the body.

#include <algorithm>
#include <cstdint>
#include <string>

#include "../../core/src/executor/db_error.h"
#include "../../core/src/json/echo.h"
#include "alfred/errors/error_codes.h"
#include "alfred/json/json.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

constexpr std::string_view kWhat = "reading recipes";

// A code of the catalog (core/include/alfred/errors/error_codes.h) the core emits
// (origin core, executor or database; the mapping reuses unknown_table and
// invalid_value from the core's own refusals): read from the catalog, so a
// code added there (too_many_rows for PGRST124) is known here without a
// second list.
bool known_code(std::string_view code) {
  struct entry {
    std::string_view code, origin;
  };
#define ALFRED_FUZZ_CODE_ENTRY(name, origin, meaning) entry{#name, #origin},
  static constexpr entry kCatalog[] = {ALFRED_ERROR_CODES(ALFRED_FUZZ_CODE_ENTRY)};
#undef ALFRED_FUZZ_CODE_ENTRY
  return std::any_of(std::begin(kCatalog), std::end(kCatalog), [code](const entry& e) {
    return e.code == code && (e.origin == "core" || e.origin == "executor" || e.origin == "database");
  });
}

std::string member(const json& body, const char* key) {
  const auto it = body.find(key);
  return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  if (newline == std::string_view::npos || newline == 0 || newline > 3) return 0;
  need_response response;
  for (char c : input.substr(0, newline)) {
    if (c < '0' || c > '9') return 0;
    response.status = response.status * 10 + (c - '0');
  }
  if (response.status >= 200 && response.status < 300) return 0;  // never asked for a success
  response.body = std::string(input.substr(newline + 1));

  const error err = detail::database_error(response, kWhat);
  check(known_code(err.code), "an unknown error code", err.code);
  check(err.message.rfind(std::string(kWhat) + " failed", 0) == 0, "a message that does not name the request",
        err.message);
  if (response.status == 0) check(err.code == "network_error", "no response is not a network error", err.code);
  const bool utf8 = valid_utf8(response.body);
  if (utf8)
    for (const std::string* text : {&err.message, &err.details, &err.hint})
      check(valid_utf8(*text), "an error text that is not valid UTF-8", *text);

  const auto reference = parse_reference(response.body);
  const bool json_object = response.status != 0 && reference.value && reference.value->is_object();
  if (utf8 && json_object && !reference.duplicate_keys) {
    const json& body = *reference.value;
    check(err.db_code == member(body, "code"), "the database code is misread", err.db_code);
    // Message, details and hint are cut at 300 bytes on a UTF-8 boundary (docs/limits-and-faults.md).
    const auto cut = [](const std::string& text) { return detail::clip_utf8(text, 300); };
    check(err.details == cut(member(body, "details")), "the details are misread", err.details);
    const std::string message = cut(member(body, "message"));
    if (!message.empty())
      check(err.message == std::string(kWhat) + " failed: " + message, "the message is misread", err.message);
    const std::string hint = cut(member(body, "hint"));
    if (!hint.empty()) check(err.hint == hint, "the hint is misread", err.hint);
  }
  // A body the core does not read as a JSON object is quoted, cut (nlohmann
  // is no judge here: it refuses malformed UTF-8 inside strings, the core
  // does not look).
  const auto core_doc = json_document::parse(response.body);
  if (response.status == 0 || !core_doc || !core_doc->root().is_object()) {
    check(err.message.size() <= kWhat.size() + 9 + 300 + 3, "a quoted body over 300 bytes", err.message);
  }
  return 0;
}
