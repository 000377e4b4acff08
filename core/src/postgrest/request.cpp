// The request itself: a validated call as method, URL, body and headers,
// written as an http_request or straight into the text the package reads.
// The options it is sent with are request_options.cpp's; how a filter is
// spelled as a condition is request_conditions.cpp's.
#include "alfred/postgrest/request.h"

#include <algorithm>

#include "../json/format.h"
#include "alfred/postgrest/postgrest_encoding.h"
#include "alfred/uuid/uuid.h"
#include "credentials.h"
#include "request_conditions.h"
#include "request_parts.h"

namespace alfred {
namespace detail {

void write_row(json_writer& w, const row& fields, const owner_field& owner) {
  w.begin_object();
  for (const auto& field : fields) {
    w.key(field.column);
    w.raw_value(field.json);
  }
  if (!owner.column.empty()) {
    w.key(owner.column);
    w.string(owner.uuid);
  }
  w.end_object();
}

}  // namespace detail

namespace {

using detail::owner_field;
using detail::request_parts;
using detail::write_row;

using detail::condition_writer;
using detail::encode_filter;
using detail::query_writer;

// The call's own select items.
void append_own_select(std::string& out, const tool_call& call) {
  const table& tbl = *call.tbl;
  if (call.columns.empty()) {
    tbl.append_read_columns(out);
    return;
  }
  const bool has_star = std::find(call.columns.begin(), call.columns.end(), "*") != call.columns.end();
  bool first = true;
  // Rows need their key for their refs (a composite key's columns carry the
  // refs of the rows they join).
  if (!has_star)
    for (const auto& key : tbl.key)
      if (std::find(call.columns.begin(), call.columns.end(), key) == call.columns.end()) {
        if (!first) out += ',';
        first = false;
        out += key;
      }
  for (const auto& item : call.columns) {
    if (!first) out += ',';
    first = false;
    if (item == "*") {
      tbl.append_read_columns(out);
      continue;
    }
    out += item;
    // The executor's items for the embed's rows go inside its parentheses.
    for (const auto& [name, items] : call.extra_within)
      if (item.size() > name.size() + 1 && item.compare(0, name.size(), name) == 0 && item[name.size()] == '(') {
        out.back() = ',';
        out.append(items).append(")");
        break;
      }
  }
}

// The call's select items, then the executor's (extra_select).
void append_select(std::string& out, const tool_call& call) {
  append_own_select(out, call);
  if (!call.extra_select.empty()) out.append(",").append(call.extra_select);
}

// Union of the rows' keys in first-seen order, for `columns=`. `extra` is
// the owner column ("" for none), which ends every row.
std::vector<std::string_view> union_keys(const std::vector<row>& rows, std::string_view extra, bool& keys_differ) {
  std::vector<std::string_view> keys;
  auto add = [&](std::string_view key) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  };
  for (const auto& fields : rows) {
    for (const auto& field : fields) add(field.column);
    if (!extra.empty()) add(extra);
  }
  const std::size_t extra_count = extra.empty() ? 0 : 1;
  keys_differ = false;
  for (const auto& fields : rows)
    if (fields.size() + extra_count != keys.size()) keys_differ = true;
  return keys;
}

// Calls `f(name, value_prefix, value)` for each header every request with
// `options` carries, in send order; the value sent is value_prefix + value.
template <class F>
void for_each_context_header(const request_options& options, F&& f) {
  if (!options.api_key.empty()) f("apikey", "", options.api_key);
  if (!options.access_token.empty())
    f("Authorization", "Bearer ", options.access_token);
  else if (!options.api_key.empty() && detail::is_bearer_key(options.api_key))
    f("Authorization", "Bearer ", options.api_key);
  f("Accept", "", "application/json");
}

// The headers that depend on the request, sent after the context's.
template <class F>
void for_each_request_header(const request_parts& req, F&& f) {
  if (req.body) f("Content-Type", "", "application/json");
  if (!req.prefer.empty()) f("Prefer", "", req.prefer);
}

// Every header, in send order.
template <class F>
void for_each_header(const request_parts& req, const request_options& options, F&& f) {
  for_each_context_header(options, f);
  for_each_request_header(req, f);
}

// `{"method", "url", "headers": {…}, "body": "…"|null}`; `write_headers`
// writes the headers object's members.
template <class F>
void write_request_object(json_writer& w, std::string_view method, std::string_view url,
                          const std::optional<std::string>& body, F&& write_headers) {
  w.begin_object();
  w.key("method");
  w.string(method);
  w.key("url");
  w.string(url);
  w.key("headers");
  w.begin_object();
  write_headers();
  w.end_object();
  w.key("body");
  if (body)
    w.string(*body);
  else
    w.null();
  w.end_object();
}

// The owner id a call's rows or filters carry ("" for none): created rows
// get it, and every filter of an owner-scoped table; otherwise row-level
// security alone decides.
result<std::string> owner_id(const tool_call& call, const request_options& options) {
  const table& tbl = *call.tbl;
  if (!tbl.has_owner() || (call.kind != tool_kind::create && !tbl.owner_scoped)) return std::string();
  if (options.user_id.empty())
    return error{codes::missing_user_id, "userId",
                 textfmt::format("{} belongs to users; a user id is required", tbl.name),
                 "pass userId (the signed-in user's id, the JWT's sub claim)"};
  if (!is_uuid_syntax(options.user_id)) return error{codes::invalid_option, "userId", "userId must be a UUID", ""};
  return canonical_uuid(options.user_id);
}

// Writes a call's method, query parameters, body and preferences into a
// request whose URL holds the table's path, one method per kind of call.
class request_writer {
 public:
  request_writer(const tool_call& call, std::string_view owner, request_parts& req)
      : call_(call), tbl_(*call.tbl), owner_(owner), req_(req), query_(req.url), conditions_(query_) {}

  void read() {
    req_.method = "GET";
    std::string& select = query_.scratch();
    if (call_.select_text.empty())
      append_select(select, call_);
    else
      select = call_.select_text;  // an aggregate's, made by the executor from validated names
    query_.add("select", select);
    owner_filter();
    for (const auto& f : call_.filters) encode_filter(f, conditions_);
    for (const auto& [key, value] : call_.extra_filters) query_.add(key, value);
    // Repeated `or` parameters are ANDed by PostgREST.
    or_group(call_.or_filters);
    for (const auto& group : call_.or_groups) or_group(group);
    if (!call_.order_by.empty()) {
      std::string& text = query_.scratch();
      text += call_.order_by;
      text += call_.descending ? ".desc" : ".asc";
      query_.add("order", text);
    }
    if (call_.offset) query_.add("offset", std::to_string(*call_.offset));
    if (call_.limit) query_.add("limit", std::to_string(*call_.limit));
    if (!call_.count.empty()) req_.prefer = "count=" + call_.count;
  }

  void create() {
    req_.method = "POST";
    const owner_field owner{owner_.empty() ? std::string_view() : std::string_view(tbl_.owner), owner_};
    std::string body;
    json_writer w(body);
    if (call_.batch) {
      bool keys_differ = false;
      batch_columns(union_keys(call_.rows, owner.column, keys_differ));
      // Without it, a key missing from one row would be inserted as NULL
      // instead of the column default (docs/postgrest-wire.md#writes-and-prefer).
      if (keys_differ) req_.prefer = "missing=default, ";
      w.begin_array();
      for (const auto& fields : call_.rows) write_row(w, fields, owner);
      w.end_array();
    } else {
      write_row(w, call_.rows.front(), owner);
    }
    req_.body = std::move(body);
    // A write-only table's rows cannot be read back: PostgreSQL would hold
    // the read-back to the SELECT policies the table does not have.
    if (!tbl_.readable || call_.unread) return void(req_.prefer += "return=minimal");
    read_back();
    req_.prefer += "return=representation";
  }

  /// An update or a delete: the rows its filters select.
  void narrowed_write() {
    req_.method = call_.kind == tool_kind::update ? "PATCH" : "DELETE";
    owner_filter();
    for (const auto& f : call_.filters) encode_filter(f, conditions_);
    read_back();
    if (call_.kind == tool_kind::update) {
      std::string body;
      json_writer w(body);
      write_row(w, call_.rows.front());
      req_.body = std::move(body);
    }
    // handling=strict makes PostgREST refuse (and roll back) a write
    // over the limit instead of ignoring the preference.
    if (call_.max_affected > 0) req_.prefer = textfmt::format("handling=strict, max-affected={}, ", call_.max_affected);
    req_.prefer += "return=representation";
  }

 private:
  // A write reads back the columns a read would: column privileges may
  // refuse `*` (docs/own-schema.md#column-privileges).
  void read_back() {
    std::string& select = query_.scratch();
    tbl_.append_read_columns(select);
    query_.add("select", select);
  }

  void owner_filter() {
    if (owner_.empty() || !tbl_.owner_scoped) return;
    std::string& text = query_.scratch();
    text += "eq.";
    text += owner_;
    query_.add(tbl_.owner, text);
  }

  // Conditions of which one must hold, as one `or=(…)` parameter.
  void or_group(const std::vector<filter>& group) {
    if (group.empty()) return;
    const condition_writer::group_state any = conditions_.open_group(true);
    for (const auto& f : group) encode_filter(f, conditions_);
    conditions_.close_group(any);
  }

  // `columns="a","b"`: the keys of a batch's rows.
  void batch_columns(const std::vector<std::string_view>& keys) {
    std::string& text = query_.scratch();
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i) text += ',';
      text += '"';
      text += keys[i];
      text += '"';
    }
    query_.add("columns", text);
  }

  const tool_call& call_;
  const table& tbl_;
  std::string_view owner_;
  request_parts& req_;
  query_writer query_;
  condition_writer conditions_;
};

result<request_parts> build_request_parts(const domain& /*dom*/, const tool_call& call,
                                          const request_context& context) {
  if (call.kind == tool_kind::call) return detail::build_call_parts(call, context);
  const table& tbl = *call.tbl;
  if (!call.semantic_query.empty())
    return error{codes::requires_executor, "filters",
                 "semantic search needs an embedding of the query, which a plain request cannot carry",
                 "run it through createAct().execute(), which embeds the text and calls the search RPC"};
  if (context.send_error()) return *context.send_error();
  const request_options& options = context.options();
  const std::string_view base = context.base();
  auto owner = owner_id(call, options);
  if (!owner) return owner.take_error();

  request_parts req;
  req.url.reserve(base.size() + tbl.name.size() + 512);
  req.url += base;
  req.url += '/';
  append_percent_encoded(req.url, tbl.name);
  request_writer writer(call, *owner, req);
  switch (call.kind) {
    case tool_kind::read:
      writer.read();
      break;
    case tool_kind::create:
      writer.create();
      break;
    case tool_kind::update:
    case tool_kind::remove:
      writer.narrowed_write();
      break;
    case tool_kind::aggregate:
      return error{codes::requires_executor, "metrics", "an aggregate takes the executor's requests",
                   "run it through createAct().execute()"};
    case tool_kind::call:
      break;  // build_call_parts
  }

  if (req.url.size() > options.max_url_length)
    return error{codes::url_too_long, "filters",
                 textfmt::format("the request URL would be {} bytes, over the {}-byte limit", req.url.size(),
                                 options.max_url_length),
                 "split the value list into several smaller calls, or filter on fewer values"};
  return req;
}

}  // namespace

namespace detail {

http_request to_http_request(request_parts parts, const request_options& options) {
  http_request req;
  req.headers.reserve(5);  // the context's three, Content-Type and Prefer at most
  for_each_header(parts, options, [&](std::string_view name, std::string_view prefix, std::string_view value) {
    std::string text;
    text.reserve(prefix.size() + value.size());
    text += prefix;
    text += value;
    req.headers.emplace_back(std::string(name), std::move(text));
  });
  req.method = std::string(parts.method);
  req.url = std::move(parts.url);
  req.body = std::move(parts.body);
  return req;
}

}  // namespace detail

using detail::to_http_request;

result<http_request> build_request(const domain& dom, const tool_call& call, const request_context& context) {
  auto parts = build_request_parts(dom, call, context);
  if (!parts) return parts.take_error();
  return to_http_request(std::move(*parts), context.options());
}

result<http_request> build_request(const domain& dom, const tool_call& call, const request_options& options) {
  return build_request(dom, call, request_context(options));
}

status append_request_result(std::string& out, const domain& dom, const tool_call& call,
                             const request_options& options) {
  const request_context context(options);
  auto parts = build_request_parts(dom, call, context);
  if (!parts) return parts.take_error();
  out += "{\"data\":";
  json_writer w(out);
  write_request_object(w, parts->method, parts->url, parts->body, [&]() {
    for_each_header(*parts, options, [&](std::string_view name, std::string_view prefix, std::string_view value) {
      w.key(name);
      w.string(prefix, value);
    });
  });
  out += ",\"error\":null}";
  return ok_status();
}

status append_request_parts(std::string& out, request_layout& layout, const domain& dom, const tool_call& call,
                            const request_context& context) {
  auto parts = build_request_parts(dom, call, context);
  if (!parts) return parts.take_error();
  layout.method_length = parts->method.size();
  layout.url_length = parts->url.size();
  layout.has_body = parts->body.has_value();
  layout.body_length = parts->body ? parts->body->size() : 0;
  out += parts->method;
  out += parts->url;
  if (parts->body) out += *parts->body;
  json_writer w(out);
  w.begin_object();
  for_each_request_header(*parts, [&](std::string_view name, std::string_view prefix, std::string_view value) {
    w.key(name);
    w.string(prefix, value);
  });
  w.end_object();
  return ok_status();
}

void write_context_headers(json_writer& w, const request_context& context) {
  for_each_context_header(context.options(),
                          [&](std::string_view name, std::string_view prefix, std::string_view value) {
                            w.key(name);
                            w.string(prefix, value);
                          });
}

std::size_t context_header_count(const request_options& options) {
  std::size_t count = 0;
  for_each_context_header(options, [&](std::string_view, std::string_view, std::string_view) { ++count; });
  return count;
}

result<http_request> build_request(const domain& dom, const ref_registry& registry, std::string_view tool,
                                   std::string_view params_json, const request_options& options) {
  auto call = parse_tool_call(dom, registry, tool, params_json, options.user_id);
  if (!call) return call.take_error();
  return build_request(dom, *call, options);
}

void write_request(json_writer& w, const http_request& request, std::size_t first_header) {
  write_request_object(w, request.method, request.url, request.body, [&]() {
    for (std::size_t i = first_header; i < request.headers.size(); ++i) {
      w.key(request.headers[i].first);
      w.string(request.headers[i].second);
    }
  });
}

}  // namespace alfred
