// A function's request (`db_call`, docs/functions.md): `GET /rpc/<name>`
// with its arguments in the query string for a read, which PostgREST runs in
// a read-only transaction, `POST` with a JSON body otherwise; the search
// RPC of semantic search.
#include <algorithm>

#include "../json/format.h"
#include "alfred/postgrest/postgrest_encoding.h"
#include "alfred/postgrest/request.h"
#include "request_conditions.h"
#include "request_parts.h"

namespace alfred {
namespace {

using detail::query_writer;

// Whether a call's arguments can go in a GET's query string: none is
// embedded (an embedding is kilobytes) and none given has a name PostgREST
// reads as its own (`limit`, `select`, …).
bool call_fits_query(const tool_call& call) {
  if (!call.embeds.empty()) return false;
  return std::none_of(call.args.begin(), call.args.end(),
                      [](const row_field& arg) { return is_postgrest_reserved(arg.column); });
}

// An argument's JSON value as a query-string value: text as it is, numbers
// and booleans as written, arrays as PostgreSQL array literals (elements
// quoted), objects as JSON text.
void append_query_value(std::string& out, json_value value) {
  if (value.is_string()) {
    out += value.str();
  } else if (value.is_array()) {
    out += '{';
    value.for_each_element([&](std::size_t i, json_value item) {
      if (i) out += ',';
      if (item.is_null()) {
        out += "NULL";
        return;
      }
      out += '"';
      const std::string text = item.is_string() ? std::string(item.str()) : std::string(item.raw());
      for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += '"';
    });
    out += '}';
  } else {
    out += value.raw();
  }
}

// `GET /rpc/<name>?arg=value` for a read (PostgREST runs it read-only),
// `POST /rpc/<name>` with the arguments as a JSON object otherwise; a
// function returning rows of a table with hidden columns selects the
// visible ones, one returning JSON the columns its domain lists.
}  // namespace

namespace detail {

result<request_parts> build_call_parts(const tool_call& call, const request_context& context) {
  for (const auto& embed : call.embeds) {
    const std::string_view name = embed.first;
    if (std::none_of(call.args.begin(), call.args.end(), [&](const row_field& f) { return f.column == name; }))
      return error{codes::requires_executor, textfmt::format("args.{}", name),
                   textfmt::format("{} is searched by meaning: its embedding is computed first, which a plain request "
                                   "cannot do",
                                   name),
                   "run it through createAct().execute(), which embeds the text and calls the function"};
  }
  if (context.send_error()) return *context.send_error();
  const db_function& fn = *call.fn;
  request_parts req;
  req.url.reserve(context.base().size() + fn.name.size() + 256);
  req.url += context.base();
  req.url += "/rpc/";
  append_percent_encoded(req.url, fn.name);
  query_writer query(req.url);
  const bool by_get = fn.read && call_fits_query(call);
  if (by_get) {
    req.method = "GET";
    for (const auto& field : call.args) {
      auto doc = json_document::parse(field.json);
      if (!doc || doc->root().is_null()) continue;
      std::string& text = query.scratch();
      append_query_value(text, doc->root());
      query.add(field.column, text);
    }
  } else {
    req.method = "POST";
    std::string body;
    json_writer w(body);
    write_row(w, call.args);
    req.body = std::move(body);
  }
  if (call.tbl && !call.tbl->hidden_columns.empty()) {
    std::string& select = query.scratch();
    call.tbl->append_read_columns(select);
    query.add("select", select);
  } else if (!fn.returns.columns.empty()) {
    query.add("select", fn.returns.columns);
  }
  // A set's cap and its total (PostgREST takes both on a function as on a table).
  if (call.limit) query.add("limit", std::to_string(*call.limit));
  if (call.offset) query.add("offset", std::to_string(*call.offset));
  if (!call.count.empty()) req.prefer = "count=" + call.count;
  if (req.url.size() > context.options().max_url_length)
    return error{codes::url_too_long, "args",
                 textfmt::format("the request URL would be {} bytes, over the {}-byte limit", req.url.size(),
                                 context.options().max_url_length),
                 "give shorter argument values"};
  return req;
}

}  // namespace detail

result<http_request> build_rpc_request(std::string_view function, std::string body_json,
                                       const request_context& context) {
  if (context.send_error()) return *context.send_error();
  detail::request_parts parts;
  parts.method = "POST";
  parts.url = std::string(context.base()) + "/rpc/";
  append_percent_encoded(parts.url, function);
  parts.body = std::move(body_json);
  return detail::to_http_request(std::move(parts), context.options());
}

}  // namespace alfred
