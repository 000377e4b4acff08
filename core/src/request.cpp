#include "alfred/request.h"

#include <fmt/format.h>

#include <algorithm>

#include "alfred/postgrest_encoding.h"
#include "alfred/uuid.h"
#include "credentials.h"

namespace alfred {
namespace {

// The decoded query, as (key, value) pairs in order; encoded at the end.
using query_params = std::vector<std::pair<std::string, std::string>>;

// The elements of an in/not_in list, with SQL NULL split out: PostgREST's
// `in.(null)` compares with the string "null", never with NULL.
struct split_list {
  std::vector<std::string> items;
  bool has_null = false;
};

split_list split_nulls(const std::vector<scalar>& list) {
  split_list out;
  for (const auto& item : list) {
    if (item.is_null())
      out.has_null = true;
    else
      out.items.push_back(item.text);
  }
  return out;
}

std::string list_text(const std::vector<std::string>& items) {
  std::string out = "(";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    out += quote_list_value(items[i]);
  }
  out += ')';
  return out;
}

std::string_view pattern_op(filter_op op) {
  switch (op) {
    case filter_op::like: return "like";
    case filter_op::ilike: return "ilike";
    case filter_op::not_like: return "not.like";
    default: return "not.ilike";
  }
}

std::string_view comparison_op(filter_op op) {
  switch (op) {
    case filter_op::gt: return "gt";
    case filter_op::gte: return "gte";
    case filter_op::lt: return "lt";
    default: return "lte";
  }
}

std::string_view array_op(filter_op op) {
  switch (op) {
    case filter_op::contains: return "cs";
    case filter_op::contained_by: return "cd";
    default: return "ov";
  }
}

// cs/cd/ov operand: a PostgreSQL array literal, or JSON text for jsonb.
std::string containment_operand(const filter& f) {
  return f.col->type == column_type::jsonb ? f.json_operand : array_literal(f.values);
}

// One AND filter as top-level query parameters (`col=op.value`). Values are
// verbatim at this level; only list elements are quoted.
void append_filter(const filter& f, query_params& query) {
  const std::string& col = f.field;
  switch (f.op) {
    case filter_op::eq:
      query.emplace_back(col, f.value().is_null() ? "is.null" : "eq." + f.value().text);
      return;
    case filter_op::neq:
      query.emplace_back(col, f.value().is_null() ? "not.is.null" : "neq." + f.value().text);
      return;
    case filter_op::gt:
    case filter_op::gte:
    case filter_op::lt:
    case filter_op::lte:
      query.emplace_back(col, fmt::format("{}.{}", comparison_op(f.op), f.value().text));
      return;
    case filter_op::in: {
      const split_list list = split_nulls(f.values);
      if (list.has_null && list.items.empty()) {
        query.emplace_back(col, "is.null");
      } else if (list.has_null) {
        query.emplace_back("or", fmt::format("({}.in.{},{}.is.null)", col, list_text(list.items), col));
      } else if (list.items.size() == 1 && list.items[0].empty()) {
        query.emplace_back(col, "eq.");  // in.("") would be the empty list
      } else {
        query.emplace_back(col, "in." + list_text(list.items));
      }
      return;
    }
    case filter_op::not_in: {
      const split_list list = split_nulls(f.values);
      if (list.items.size() == 1 && list.items[0].empty())
        query.emplace_back(col, "neq.");
      else if (!list.items.empty() || !list.has_null)
        query.emplace_back(col, "not.in." + list_text(list.items));
      if (list.has_null) query.emplace_back(col, "not.is.null");
      return;
    }
    case filter_op::like:
    case filter_op::ilike:
    case filter_op::not_like:
    case filter_op::not_ilike:
      query.emplace_back(col, fmt::format("{}.{}", pattern_op(f.op), f.value().text));
      return;
    case filter_op::is_null: query.emplace_back(col, "is.null"); return;
    case filter_op::is_not_null: query.emplace_back(col, "not.is.null"); return;
    case filter_op::contains:
    case filter_op::contained_by:
    case filter_op::overlaps:
      query.emplace_back(col, fmt::format("{}.{}", array_op(f.op), containment_operand(f)));
      return;
    case filter_op::similar: return;  // consumed before building
  }
}

// One condition inside `or=(…)`: every value quoted as the logic-tree
// grammar needs, so a value can never add or close a condition.
std::string logic_condition(const filter& f) {
  const std::string& col = f.field;
  auto value = [&]() { return quote_list_value(f.value().text); };
  switch (f.op) {
    case filter_op::eq:
      return f.value().is_null() ? col + ".is.null" : fmt::format("{}.eq.{}", col, value());
    case filter_op::neq:
      return f.value().is_null() ? col + ".not.is.null" : fmt::format("{}.neq.{}", col, value());
    case filter_op::gt:
    case filter_op::gte:
    case filter_op::lt:
    case filter_op::lte:
      return fmt::format("{}.{}.{}", col, comparison_op(f.op), value());
    case filter_op::in: {
      const split_list list = split_nulls(f.values);
      if (list.has_null && list.items.empty()) return col + ".is.null";
      // in.("") is the empty list, so a lone "" is written as eq.
      std::string cond = list.items.size() == 1 && list.items[0].empty()
                             ? fmt::format("{}.eq.\"\"", col)
                             : fmt::format("{}.in.{}", col, list_text(list.items));
      if (list.has_null) cond += fmt::format(",{}.is.null", col);
      return cond;
    }
    case filter_op::not_in: {
      const split_list list = split_nulls(f.values);
      if (list.has_null && list.items.empty()) return col + ".not.is.null";
      const std::string cond = list.items.size() == 1 && list.items[0].empty()
                                   ? fmt::format("{}.neq.\"\"", col)
                                   : fmt::format("{}.not.in.{}", col, list_text(list.items));
      return list.has_null ? fmt::format("and({},{}.not.is.null)", cond, col) : cond;
    }
    case filter_op::like:
    case filter_op::ilike:
    case filter_op::not_like:
    case filter_op::not_ilike:
      return fmt::format("{}.{}.{}", col, pattern_op(f.op), quote_list_value(f.value().text));
    case filter_op::is_null: return col + ".is.null";
    case filter_op::is_not_null: return col + ".not.is.null";
    case filter_op::contains:
    case filter_op::contained_by:
    case filter_op::overlaps:
      return fmt::format("{}.{}.{}", col, array_op(f.op), quote_list_value(containment_operand(f)));
    case filter_op::similar: break;
  }
  return {};
}

std::string select_text(const domain& dom, const tool_call& call) {
  const table& tbl = *call.tbl;
  if (call.columns.empty()) {
    if (tbl.hidden_columns.empty()) return "*";
    std::vector<std::string_view> names;
    for (const auto& col : tbl.columns)
      if (col.name != dom.owner_column &&
          std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), col.name) == tbl.hidden_columns.end())
        names.push_back(col.name);
    return fmt::format("{}", fmt::join(names, ","));
  }
  const bool has_star = std::find(call.columns.begin(), call.columns.end(), "*") != call.columns.end();
  const bool has_id = std::find(call.columns.begin(), call.columns.end(), "id") != call.columns.end();
  std::string out = has_star || has_id ? "" : "id";
  for (const auto& item : call.columns) {
    if (!out.empty()) out += ',';
    out += item;
  }
  return out;
}

// Union of the rows' keys in first-seen order, for `columns=`.
std::vector<std::string> union_keys(const std::vector<row>& rows, bool& keys_differ) {
  std::vector<std::string> keys;
  keys_differ = false;
  for (const auto& fields : rows)
    for (const auto& field : fields)
      if (std::find(keys.begin(), keys.end(), field.column) == keys.end()) keys.push_back(field.column);
  for (const auto& fields : rows)
    if (fields.size() != keys.size()) keys_differ = true;
  return keys;
}

void write_row(json_writer& w, const row& fields) {
  w.begin_object();
  for (const auto& field : fields) {
    w.key(field.column);
    w.raw_value(field.json);
  }
  w.end_object();
}

std::string trim_trailing_slashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

result<request_options> parse_request_options(json_value options) {
  request_options out;
  if (options.is_null()) return out;
  if (!options.is_object())
    return error{"invalid_option", "", "options must be an object", "{ baseUrl, apiKey, accessToken, userId }"};
  std::optional<error> failure;
  options.for_each_member([&](std::string_view key, json_value value) {
    if (failure) return;
    if (key == "maxUrlLength") {
      auto n = value.as_integer();
      if (!n || *n < 256) failure = error{"invalid_option", "maxUrlLength", "maxUrlLength must be a whole number of at least 256", ""};
      else out.max_url_length = std::size_t(*n);
      return;
    }
    std::string* target = key == "baseUrl"       ? &out.base_url
                          : key == "apiKey"      ? &out.api_key
                          : key == "accessToken" ? &out.access_token
                          : key == "userId"      ? &out.user_id
                                                 : nullptr;
    if (!target || value.is_null()) return;  // other options belong to the JS layer
    if (!value.is_string()) failure = error{"invalid_option", std::string(key), fmt::format("{} must be a string", key), ""};
    else *target = std::string(value.str());
  });
  if (failure) return std::move(*failure);
  return out;
}

result<http_request> build_request(const domain& dom, const tool_call& call, const request_options& options) {
  const table& tbl = *call.tbl;
  if (!call.semantic_query.empty())
    return error{"requires_executor", "filters",
                 "semantic search needs an embedding of the query, which a plain request cannot carry",
                 "run it through createAct().execute(), which embeds the text and calls the search RPC"};

  const std::string base = trim_trailing_slashes(options.base_url);
  if (base.rfind("http://", 0) != 0 && base.rfind("https://", 0) != 0)
    return error{"invalid_option", "baseUrl", "baseUrl must be an http:// or https:// URL",
                 "the PostgREST root, e.g. https://<project>.supabase.co/rest/v1"};
  if (base.find_first_of("?# \t\r\n") != std::string::npos)
    return error{"invalid_option", "baseUrl", "baseUrl must not contain a query, fragment or spaces", ""};
  for (const auto& [value, field] : {std::pair{&options.api_key, "apiKey"}, std::pair{&options.access_token, "accessToken"}}) {
    auto ok = detail::check_credential(*value, field);
    if (!ok) return ok.take_error();
  }
  std::string owner;
  if (tbl.user_owned) {
    if (options.user_id.empty())
      return error{"missing_user_id", "userId", fmt::format("{} belongs to users; a user id is required", tbl.name),
                   "pass userId (the signed-in user's id, the JWT's sub claim)"};
    if (!is_uuid_syntax(options.user_id))
      return error{"invalid_option", "userId", "userId must be a UUID", ""};
    owner = canonical_uuid(options.user_id);
  }

  http_request req;
  query_params query;
  std::vector<std::string> prefer;
  switch (call.kind) {
    case tool_kind::read: {
      req.method = "GET";
      query.emplace_back("select", select_text(dom, call));
      if (!owner.empty()) query.emplace_back(dom.owner_column, "eq." + owner);
      for (const auto& f : call.filters) append_filter(f, query);
      if (!call.or_filters.empty()) {
        std::vector<std::string> conditions;
        for (const auto& f : call.or_filters) conditions.push_back(logic_condition(f));
        query.emplace_back("or", fmt::format("({})", fmt::join(conditions, ",")));
      }
      if (!call.order_by.empty())
        query.emplace_back("order", call.order_by + (call.descending ? ".desc" : ".asc"));
      if (call.offset) query.emplace_back("offset", std::to_string(*call.offset));
      if (call.limit) query.emplace_back("limit", std::to_string(*call.limit));
      if (!call.count.empty()) prefer.push_back("count=" + call.count);
      break;
    }
    case tool_kind::create: {
      req.method = "POST";
      std::vector<row> rows = call.rows;
      if (!owner.empty())
        for (auto& fields : rows) fields.push_back({dom.owner_column, "\"" + owner + "\""});
      std::string body;
      json_writer w(body);
      if (call.batch) {
        bool keys_differ = false;
        const auto keys = union_keys(rows, keys_differ);
        std::vector<std::string> quoted;
        for (const auto& key : keys) quoted.push_back("\"" + key + "\"");
        query.emplace_back("columns", fmt::format("{}", fmt::join(quoted, ",")));
        // Without it, a key missing from one row would be inserted as NULL
        // instead of the column default (docs/postgrest-wire.md D9).
        if (keys_differ) prefer.push_back("missing=default");
        w.begin_array();
        for (const auto& fields : rows) write_row(w, fields);
        w.end_array();
      } else {
        write_row(w, rows.front());
      }
      req.body = std::move(body);
      query.emplace_back("select", "*");
      prefer.push_back("return=representation");
      break;
    }
    case tool_kind::update:
    case tool_kind::remove: {
      req.method = call.kind == tool_kind::update ? "PATCH" : "DELETE";
      if (!owner.empty()) query.emplace_back(dom.owner_column, "eq." + owner);
      for (const auto& f : call.filters) append_filter(f, query);
      query.emplace_back("select", "*");
      if (call.kind == tool_kind::update) {
        std::string body;
        json_writer w(body);
        write_row(w, call.rows.front());
        req.body = std::move(body);
      }
      prefer.push_back("return=representation");
      break;
    }
  }

  req.url = base + "/" + percent_encode(tbl.name);
  for (std::size_t i = 0; i < query.size(); ++i) {
    req.url += i == 0 ? '?' : '&';
    req.url += percent_encode(query[i].first);
    req.url += '=';
    req.url += percent_encode(query[i].second);
  }
  if (req.url.size() > options.max_url_length)
    return error{"url_too_long", "filters",
                 fmt::format("the request URL would be {} bytes, over the {}-byte limit", req.url.size(),
                             options.max_url_length),
                 "split the value list into several smaller calls, or filter on fewer values"};

  if (!options.api_key.empty()) req.headers.emplace_back("apikey", options.api_key);
  if (!options.access_token.empty())
    req.headers.emplace_back("Authorization", "Bearer " + options.access_token);
  else if (!options.api_key.empty() && detail::is_bearer_key(options.api_key))
    req.headers.emplace_back("Authorization", "Bearer " + options.api_key);
  req.headers.emplace_back("Accept", "application/json");
  if (req.body) req.headers.emplace_back("Content-Type", "application/json");
  if (!prefer.empty()) req.headers.emplace_back("Prefer", fmt::format("{}", fmt::join(prefer, ", ")));
  return req;
}

result<http_request> build_request(const domain& dom, const ref_registry& registry, std::string_view tool,
                                   std::string_view params_json, const request_options& options) {
  auto call = parse_tool_call(dom, registry, tool, params_json);
  if (!call) return call.take_error();
  return build_request(dom, *call, options);
}

void write_request(json_writer& w, const http_request& request) {
  w.begin_object();
  w.key("method");
  w.string(request.method);
  w.key("url");
  w.string(request.url);
  w.key("headers");
  w.begin_object();
  for (const auto& [name, value] : request.headers) {
    w.key(name);
    w.string(value);
  }
  w.end_object();
  w.key("body");
  if (request.body) w.string(*request.body); else w.null();
  w.end_object();
}

void write_error(json_writer& w, const error& err) {
  w.begin_object();
  w.key("code");
  w.string(err.code);
  w.key("message");
  w.string(err.message);
  w.key("path");
  w.string(err.path);
  w.key("hint");
  w.string(err.hint);
  w.end_object();
}

std::string data_result(std::string_view data_json) {
  std::string out;
  out.reserve(data_json.size() + 24);
  out += "{\"data\":";
  out += data_json;
  out += ",\"error\":null}";
  return out;
}

std::string error_result(const error& err) {
  std::string out = "{\"data\":null,\"error\":";
  json_writer w(out);
  write_error(w, err);
  out += '}';
  return out;
}

}  // namespace alfred
