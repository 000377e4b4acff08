#pragma once
// Text renderings of requests and translated output for exact assertions.
// Built only from support.h helpers and public struct fields, so they survive
// changes to the core's internals. A mismatch prints both texts in full.

#include <cstdio>
#include <string>
#include <string_view>

#include "alfred/uuid/uuid.h"
#include "support.h"

namespace alfred::test {

/// The decoded query, one `key=value` per line (values may hold `&` or `=`).
inline std::string query_text(const http_request& req) {
  std::string out;
  for (const auto& [key, value] : decoded_query(req.url)) out += key + "=" + value + "\n";
  return out;
}

/// The value of the only query parameter with this key ("" when absent, "<twice>" when repeated).
inline std::string query_value(const http_request& req, std::string_view key) {
  std::string found;
  int count = 0;
  for (const auto& [k, v] : decoded_query(req.url))
    if (k == key) {
      found = v;
      ++count;
    }
  return count > 1 ? "<twice>" : found;
}

/// The URL up to the query string.
inline std::string url_path(const http_request& req) { return req.url.substr(0, req.url.find('?')); }

/// Every header as `Name: value` lines, in the order they are sent.
inline std::string headers_text(const http_request& req) {
  std::string out;
  for (const auto& [name, value] : req.headers) out += name + ": " + value + "\n";
  return out;
}

/// The first 36-character UUID found anywhere in `text`, or "".
inline std::string first_uuid_in(std::string_view text) {
  for (std::size_t i = 0; i + 36 <= text.size(); ++i)
    if (is_uuid_syntax(text.substr(i, 36))) return std::string(text.substr(i, 36));
  return {};
}

/// A request's error rendered as "code @ path: message | hint".
/// A distinct, valid v4 UUID per `i`, for tests that register many rows.
inline std::string numbered_uuid(int i) {
  char text[40];
  std::snprintf(text, sizeof text, "%08x-2222-4333-8444-%012x", 0x20000000 + i, i);
  return text;
}

inline std::string error_text(const error& err) {
  return std::string(err.code.name()) + " @ " + err.path + ": " + err.message + " | " + err.hint;
}

}  // namespace alfred::test
