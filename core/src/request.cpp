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

split_list split_nulls(const json& list) {
  split_list out;
  for (const auto& item : list) {
    if (item.is_null())
      out.has_null = true;
    else
      out.items.push_back(scalar_text(item));
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
  return f.col->type == column_type::jsonb ? to_json_text(f.value) : array_literal(f.value);
}

// One AND filter as top-level query parameters (`col=op.value`). Values are
// verbatim at this level; only list elements are quoted.
void append_filter(const filter& f, query_params& query) {
  const std::string& col = f.field;
  switch (f.op) {
    case filter_op::eq:
      query.emplace_back(col, f.value.is_null() ? "is.null" : "eq." + scalar_text(f.value));
      return;
    case filter_op::neq:
      query.emplace_back(col, f.value.is_null() ? "not.is.null" : "neq." + scalar_text(f.value));
      return;
    case filter_op::gt:
    case filter_op::gte:
    case filter_op::lt:
    case filter_op::lte:
      query.emplace_back(col, fmt::format("{}.{}", comparison_op(f.op), scalar_text(f.value)));
      return;
    case filter_op::in: {
      const split_list list = split_nulls(f.value);
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
      const split_list list = split_nulls(f.value);
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
      query.emplace_back(col, fmt::format("{}.{}", pattern_op(f.op), f.value.get<std::string>()));
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
  auto value = [&]() { return quote_list_value(scalar_text(f.value)); };
  switch (f.op) {
    case filter_op::eq:
      return f.value.is_null() ? col + ".is.null" : fmt::format("{}.eq.{}", col, value());
    case filter_op::neq:
      return f.value.is_null() ? col + ".not.is.null" : fmt::format("{}.neq.{}", col, value());
    case filter_op::gt:
    case filter_op::gte:
    case filter_op::lt:
    case filter_op::lte:
      return fmt::format("{}.{}.{}", col, comparison_op(f.op), value());
    case filter_op::in: {
      const split_list list = split_nulls(f.value);
      if (list.has_null && list.items.empty()) return col + ".is.null";
      std::string cond = fmt::format("{}.in.{}", col, list_text(list.items));
      if (list.has_null) cond += fmt::format(",{}.is.null", col);
      return cond;
    }
    case filter_op::not_in: {
      const split_list list = split_nulls(f.value);
      const std::string cond = fmt::format("{}.not.in.{}", col, list_text(list.items));
      return list.has_null ? fmt::format("and({},{}.not.is.null)", cond, col) : cond;
    }
    case filter_op::like:
    case filter_op::ilike:
    case filter_op::not_like:
    case filter_op::not_ilike:
      return fmt::format("{}.{}.{}", col, pattern_op(f.op), quote_list_value(f.value.get<std::string>()));
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
std::vector<std::string> union_keys(const std::vector<json>& rows, bool& keys_differ) {
  std::vector<std::string> keys;
  keys_differ = false;
  for (const auto& row : rows)
    for (const auto& [key, value] : row.items())
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  for (const auto& row : rows)
    if (row.size() != keys.size()) keys_differ = true;
  return keys;
}

std::string trim_trailing_slashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

result<request_options> parse_request_options(const json& options) {
  request_options out;
  if (options.is_null()) return out;
  if (!options.is_object())
    return error{"invalid_option", "", "options must be an object", "{ baseUrl, apiKey, accessToken, userId }"};
  for (const auto& [key, value] : options.items()) {
    if (key == "maxUrlLength") {
      if (!value.is_number_unsigned() || value.get<std::size_t>() < 256)
        return error{"invalid_option", key, "maxUrlLength must be a whole number of at least 256", ""};
      out.max_url_length = value.get<std::size_t>();
      continue;
    }
    std::string* target = key == "baseUrl"       ? &out.base_url
                          : key == "apiKey"      ? &out.api_key
                          : key == "accessToken" ? &out.access_token
                          : key == "userId"      ? &out.user_id
                                                 : nullptr;
    if (!target || value.is_null()) continue;  // unrelated options belong to the JS layer
    if (!value.is_string()) return error{"invalid_option", key, fmt::format("{} must be a string", key), ""};
    *target = value.get<std::string>();
  }
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
      std::vector<json> rows = call.rows;
      if (!owner.empty())
        for (auto& row : rows) row[dom.owner_column] = owner;
      if (call.batch) {
        bool keys_differ = false;
        const auto keys = union_keys(rows, keys_differ);
        std::vector<std::string> quoted;
        for (const auto& key : keys) quoted.push_back("\"" + key + "\"");
        query.emplace_back("columns", fmt::format("{}", fmt::join(quoted, ",")));
        // Without it, a key missing from one row would be inserted as NULL
        // instead of the column default (docs/postgrest-wire.md D9).
        if (keys_differ) prefer.push_back("missing=default");
        json body = json::array();
        for (auto& row : rows) body.push_back(std::move(row));
        req.body = to_json_text(body);
      } else {
        req.body = to_json_text(rows.front());
      }
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
      if (call.kind == tool_kind::update) req.body = to_json_text(call.rows.front());
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
                                   const json& params, const request_options& options) {
  auto call = parse_tool_call(dom, registry, tool, params);
  if (!call) return call.take_error();
  return build_request(dom, *call, options);
}

json request_to_json(const http_request& request) {
  json headers = json::object();
  for (const auto& [name, value] : request.headers) headers[name] = value;
  return {{"method", request.method},
          {"url", request.url},
          {"headers", std::move(headers)},
          {"body", request.body ? json(*request.body) : json()}};
}

json error_to_json(const error& err) {
  return {{"code", err.code}, {"message", err.message}, {"path", err.path}, {"hint", err.hint}};
}

}  // namespace alfred
