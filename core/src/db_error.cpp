#include "db_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "alfred/json.h"

namespace alfred::detail {
namespace {

struct code_entry {
  std::string_view db_code;
  std::string_view code;
  std::string_view hint;
};

// PostgreSQL SQLSTATEs and PostgREST PGRST codes the model can do something
// about; the rest fall back to the HTTP status.
constexpr std::array<code_entry, 17> kCodes{{
    {"42501", "permission_denied", "the row belongs to someone else or the table cannot be changed by this user"},
    {"23505", "duplicate", "a row with this value already exists; update it instead of creating another"},
    {"23503", "foreign_key_violation", "a referenced row does not exist, or other rows still reference this one"},
    {"23502", "missing_required", "give a value for the column named in the message"},
    {"23514", "check_violation", "the value is outside what the column allows; see the schema's allowed values"},
    {"22P02", "invalid_value", "the value does not have the column's type"},
    {"22007", "invalid_value", "dates are written YYYY-MM-DD"},
    {"22008", "invalid_value", "the date or time is out of range"},
    {"22003", "invalid_value", "the number is out of range for the column"},
    {"42703", "unknown_column", "use only the columns the schema lists"},
    {"42P01", "unknown_table", "use only the tables the schema lists"},
    {"PGRST205", "unknown_table", "use only the tables the schema lists"},
    {"PGRST202", "unknown_function", "the database has no such function; the schema cache may need a reload"},
    {"PGRST100", "invalid_query", ""},
    {"PGRST102", "invalid_body", ""},
    {"PGRST116", "not_found", ""},
    {"57014", "timeout", "the query took too long; narrow the filters or lower the limit"},
}};

std::string_view status_code(int status) {
  if (status == 401) return "unauthorized";
  if (status == 403) return "permission_denied";
  if (status == 404) return "not_found";
  if (status == 408 || status == 504) return "timeout";
  if (status == 409) return "conflict";
  if (status == 429) return "rate_limited";
  if (status == 503) return "unavailable";
  if (status >= 500) return "server_error";
  return "bad_request";
}

std::string_view status_hint(int status) {
  if (status == 401) return "the session expired or its token is invalid; sign in again";
  if (status == 429 || status == 503) return "the database is busy; try again shortly";
  if (status >= 500) return "the database failed; this is not a problem with the tool call";
  return "";
}

// Bodies can be long (HTML from a proxy); the model needs the first words.
// The cut falls between two characters, never inside a UTF-8 sequence.
std::string clipped(std::string_view text) {
  constexpr std::size_t kMax = 300;
  std::size_t cut = std::min(text.size(), kMax);
  while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  std::string out(text.substr(0, cut));
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (text.size() > kMax) out += "…";
  return out;
}

}  // namespace

error database_error(const need_response& response, std::string_view what) {
  if (response.status == 0)
    return {"network_error", "", fmt::format("{} failed: {}", what, clipped(response.body)),
            "the database could not be reached; try again"};
  error err;
  err.status = response.status;
  err.code = std::string(status_code(response.status));
  err.hint = std::string(status_hint(response.status));
  std::string message, db_hint;
  auto doc = json_document::parse(response.body);
  if (doc && doc->root().is_object()) {
    const json_value body = doc->root();
    auto text = [&](std::string_view key) {
      auto value = body.find(key);
      return value && value->is_string() ? std::string(value->str()) : std::string();
    };
    err.db_code = text("code");
    message = text("message");
    err.details = text("details");
    db_hint = text("hint");
  } else {
    message = clipped(response.body);  // PostgREST's text/plain errors, proxies' HTML
  }
  for (const auto& entry : kCodes) {
    if (entry.db_code != err.db_code) continue;
    err.code = std::string(entry.code);
    if (!entry.hint.empty()) err.hint = std::string(entry.hint);
    break;
  }
  // PostgREST's own hint ("Perhaps you meant …") is the most specific.
  if (!db_hint.empty()) err.hint = db_hint;
  err.message = message.empty() ? fmt::format("{} failed with HTTP {}", what, response.status)
                                : fmt::format("{} failed: {}", what, message);
  return err;
}

}  // namespace alfred::detail
