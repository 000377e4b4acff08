#pragma once
// What request.cpp (a table tool's request) and rpc_request.cpp (a
// function's) share: the parts a request is decided as, before its
// headers, and the writers of its select list and JSON rows.

#include <optional>
#include <string>
#include <string_view>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/postgrest/request.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::detail {

// What build_request decides. The headers follow from it and the options
// (for_each_header), so the JSON result can be written without first
// copying every header value into an http_request.
struct request_parts {
  std::string_view method;
  std::string url;
  std::optional<std::string> body;
  /// `Prefer` preferences, joined with ", "; "" for none.
  std::string prefer;
};

/// The owner column a created row gets, as a field written after the row's own.
struct owner_field {
  std::string_view column;  // "" for tables that are not user-owned
  std::string_view uuid;
};

/// A row (a create's or an update's, a function's arguments) as a JSON object.
void write_row(json_writer& w, const row& fields, const owner_field& owner = {});

/// The request as an `http_request`, its headers those `options` and the
/// parts call for.
http_request to_http_request(request_parts parts, const request_options& options);

/// A `db_call` as a request (rpc_request.cpp): GET for a read whose
/// arguments fit a query string, POST otherwise.
result<request_parts> build_call_parts(const tool_call& call, const request_context& context);

}  // namespace alfred::detail
