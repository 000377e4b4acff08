#include "db_error.h"

#include <algorithm>
#include <array>

#include "../json/echo.h"
#include "../json/format.h"
#include "alfred/json/json.h"

namespace alfred::detail {
namespace {

struct code_entry {
  std::string_view db_code;
  error_code code;
  std::string_view hint;
};

// PostgreSQL SQLSTATEs and PostgREST PGRST codes the model can do something
// about; the rest fall back to the HTTP status.
constexpr std::array<code_entry, 22> kCodes{{
    {"42501", codes::permission_denied, "this user may not read or change these rows: tell the user"},
    {"23505", codes::duplicate, kDuplicateHint},
    {"23503", codes::foreign_key_violation, "a referenced row does not exist, or other rows still reference this one"},
    {"23502", codes::missing_required, "give the column the message names; if the schema lacks it, tell the user"},
    {"23514", codes::check_violation,
     "a check of the table (named in the message) refused the values: correct the value it checks, or tell the user"},
    {"22P02", codes::invalid_value, "the value does not have the column's type"},
    {"22007", codes::invalid_value, "dates are written YYYY-MM-DD"},
    {"22008", codes::invalid_value, "the date or time is out of range"},
    {"22003", codes::invalid_value, "the number is out of range for the column"},
    {"22001", codes::invalid_value, "the text is longer than the column allows: shorten it"},
    {"42703", codes::unknown_column, "use only the columns the schema lists"},
    {"42P01", codes::unknown_table, "use only the tables the schema lists"},
    {"PGRST205", codes::unknown_table, "use only the tables the schema lists"},
    {"PGRST202", codes::unknown_function, kNoSuchFunctionHint},
    {"PGRST203", codes::ambiguous_function,
     "several functions of this name fit; the domain must name one by other arguments"},
    {"P0001", codes::rule_violation, kRaiseHint},
    {"25006", codes::read_only_transaction,
     "the function changes data, so it cannot be called as a read; the domain must not mark it \"read\""},
    {"PGRST100", codes::invalid_query, ""},
    {"PGRST102", codes::invalid_body, ""},
    {"PGRST116", codes::not_found, ""},
    {"PGRST124", codes::too_many_rows,
     "narrow the filters to the rows meant (by ref), or change fewer rows per call; nothing was changed"},
    {"57014", codes::timeout, "the query took too long; narrow the filters or lower the limit"},
}};

error_code status_code(int status) {
  if (status == 401) return codes::unauthorized;
  if (status == 403) return codes::permission_denied;
  if (status == 404) return codes::not_found;
  if (status == 408 || status == 504) return codes::timeout;
  if (status == 409) return codes::conflict;
  if (status == 429) return codes::rate_limited;
  if (status == 503) return codes::unavailable;
  if (status >= 500) return codes::server_error;
  return codes::bad_request;
}

std::string_view status_hint(int status) {
  if (status == 401) return "the session expired or its token is invalid; sign in again";
  if (status == 429 || status == 503) return "the database is busy; try again shortly";
  if (status >= 500) return "the database failed; this is not a problem with the tool call";
  return "";
}

std::string_view reason_phrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 204:
      return "No Content";
    case 206:
      return "Partial Content";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 406:
      return "Not Acceptable";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 416:
      return "Range Not Satisfiable";
    case 422:
      return "Unprocessable Content";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "";
  }
}

constexpr std::size_t kMessageBytes = 300;
constexpr std::size_t kRawBodyBytes = 1000;

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

bool valid_utf8_text(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
    const std::size_t extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 4;
    if (extra == 4 || i + extra >= text.size()) return false;
    for (std::size_t k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    i += extra + 1;
  }
  return true;
}

// A short plain-text body (PostgREST's text/plain errors) reads well in a
// message; markup, binary and long pages do not.
bool readable_text(const need_response& response) {
  const std::string_view body = response.body;
  const auto first = body.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  if (body[first] == '<' || response.content_type.find("html") != std::string::npos) return false;
  return body.size() <= kMessageBytes && valid_utf8_text(body);
}

// What a failed exchange without a usable response amounts to.
error transport_error(const need_response& response, std::string_view what) {
  const std::string reason = clip_utf8(trimmed(response.body), 200);
  error err;
  err.status = response.status;
  switch (response.failure) {
    case transport_failure::not_sent:
      return {codes::network_error, "",
              textfmt::format("{} failed: the database could not be reached ({})", what, reason),
              "nothing was sent; try again"};
    case transport_failure::timeout:
      err.code = codes::timeout;
      err.message = textfmt::format("{} failed: {}", what, reason.empty() ? "no response in time" : reason);
      err.hint = "the database did not answer in time; try again, or narrow the filters or lower the limit";
      return err;
    case transport_failure::too_large:
      err.code = codes::response_too_large;
      err.message = textfmt::format("{} failed: the response is larger than the limit ({})", what, reason);
      err.hint = "read fewer rows (a lower limit, narrower filters) or fewer columns";
      return err;
    case transport_failure::not_a_response:
      err.code = codes::invalid_response;
      err.message = textfmt::format("{} failed: fetch returned something that is not an HTTP response", what);
      err.hint = "the fetch function given to createAct must resolve to a Response";
      err.raw_body = clip_utf8(response.body, kRawBodyBytes);
      return err;
    case transport_failure::body_incomplete:
      err.code = codes::network_error;
      err.message = textfmt::format("{} failed: the answer ({}) was cut off: {}", what, status_line(response.status),
                                    reason.empty() ? "connection closed" : reason);
      err.hint = "the connection broke; try again";
      return err;
    case transport_failure::none:
    case transport_failure::no_response:
      break;
  }
  err.code = codes::network_error;
  err.message = textfmt::format("{} failed: {}", what, reason.empty() ? "no response" : reason);
  err.hint = "the database could not be reached; try again";
  return err;
}

}  // namespace

std::string status_line(int status) {
  const std::string_view reason = reason_phrase(status);
  return reason.empty() ? textfmt::format("HTTP {}", status) : textfmt::format("HTTP {} {}", status, reason);
}

error database_error(const need_response& response, std::string_view what) {
  if (response.status == 0 || response.failure != transport_failure::none) return transport_error(response, what);
  error err;
  err.status = response.status;
  err.code = status_code(response.status);
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
    message = clip_utf8(text("message"), kMessageBytes);
    err.details = clip_utf8(text("details"), kMessageBytes);
    db_hint = clip_utf8(text("hint"), kMessageBytes);
  } else if (readable_text(response)) {
    message = trimmed(std::string(response.body));  // PostgREST's text/plain errors
  } else if (!response.body.empty()) {
    err.raw_body = clip_utf8(response.body, kRawBodyBytes);  // a proxy's HTML page, binary
  }
  for (const auto& entry : kCodes) {
    if (entry.db_code != err.db_code) continue;
    err.code = entry.code;
    if (!entry.hint.empty()) err.hint = std::string(entry.hint);
    break;
  }
  // PostgREST's own hint ("Perhaps you meant …") is the most specific.
  if (!db_hint.empty()) err.hint = db_hint;
  err.message = message.empty() ? textfmt::format("{} failed: {}", what, status_line(response.status))
                                : textfmt::format("{} failed: {}", what, message);
  return err;
}

std::string_view write_outcome_unknown_hint() {
  return "the change may or may not have been made: read the rows (db_read) before trying again";
}

error write_outcome_unknown(const need_response& response, std::string_view what, std::string_view why) {
  error err;
  err.code = codes::write_outcome_unknown;
  err.status = response.status;
  err.message = textfmt::format("{}: the outcome is unknown; {}", what, why);
  err.hint = std::string(write_outcome_unknown_hint());
  if (response.status != 0 && response.failure == transport_failure::none) {
    const error answered = database_error(response, what);
    err.db_code = answered.db_code;
    err.details = answered.details;
    err.raw_body = answered.raw_body;
  }
  return err;
}

}  // namespace alfred::detail
