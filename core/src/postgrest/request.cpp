#include "alfred/request.h"

#include <fmt/format.h>

#include <algorithm>

#include "../json/echo.h"
#include "../json/json_fields.h"
#include "alfred/like_pattern.h"
#include "alfred/postgrest_encoding.h"
#include "alfred/uuid.h"
#include "credentials.h"

namespace alfred {
namespace {

// Writes the query string straight into the URL. A value is composed in
// PostgREST's grammar (decoded) in one reused buffer and percent-encoded as
// it is appended, so no string is made per parameter.
class query_writer {
 public:
  explicit query_writer(std::string& url) : url_(url) {}

  /// The cleared buffer to compose the next value in.
  std::string& scratch() {
    scratch_.clear();
    return scratch_;
  }

  /// Appends `?key=value` (or `&key=value`), both encoded.
  void add(std::string_view key, std::string_view decoded_value) {
    url_ += first_ ? '?' : '&';
    first_ = false;
    append_percent_encoded(url_, key);
    url_ += '=';
    append_percent_encoded(url_, decoded_value);
  }

 private:
  std::string& url_;
  std::string scratch_;
  bool first_ = true;
};

// The elements of a list filter, with SQL NULL split out: PostgREST's
// `in.(null)` compares with the string "null", never with NULL
// (docs/postgrest-wire.md#null).
struct split_list {
  std::vector<std::string_view> items;
  bool has_null = false;

  bool is_lone_empty() const { return items.size() == 1 && items[0].empty(); }
};

split_list split_nulls(const std::vector<scalar>& list) {
  split_list out;
  out.items.reserve(list.size());
  for (const auto& item : list) {
    if (item.is_null())
      out.has_null = true;
    else
      out.items.push_back(item.text);
  }
  return out;
}

// `(a,"b c")`
void append_list(std::string& out, const std::vector<std::string_view>& items) {
  out += '(';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    append_list_value(out, items[i]);
  }
  out += ')';
}

// cs/cd/ov operand: a PostgreSQL array literal, or JSON text for jsonb.
std::string containment_operand(const filter& f) {
  return f.col->type == column_type::jsonb ? f.json_operand : array_literal(f.values);
}

// Where a filter's conditions go. At the top level each is a query
// parameter, `col=op.value`, ANDed by PostgREST, with the value verbatim
// (only list elements are quoted). Inside a group, `or=(…)` or `and(…)`, each
// is `col.op.value` with the value quoted as the logic-tree grammar needs, so
// a value can never add or close a condition. One encoder (encode_filter)
// writes both.
class condition_writer {
 public:
  /// Top-level parameters of `query`.
  explicit condition_writer(query_writer& query) : query_(query) {}

  /// `col=[not.]op.value`, or `col.[not.]op."value"` in a group.
  void compare(std::string_view col, bool negated, std::string_view op, std::string_view value) {
    std::string& text = start(col, negated, op);
    if (group_)
      append_list_value(text, value);
    else
      text += value;
    finish(col, text);
  }
  /// `col=[not.]op.(a,"b c")`, or `col.[not.]op.(a,"b c")` in a group.
  void list(std::string_view col, bool negated, std::string_view op, const std::vector<std::string_view>& items) {
    std::string& text = start(col, negated, op);
    append_list(text, items);
    finish(col, text);
  }
  /// `col=[not.]is.null`, or `col.[not.]is.null` in a group.
  void null_test(std::string_view col, bool negated) { finish(col, start(col, negated, "is") += "null"); }

  /// What close_group() restores.
  struct group_state {
    bool opened = false;
    bool top_level = false;
    bool any = false;
  };
  /// Starts conditions of which one (`any`) or all must hold: `or=(…)` at
  /// the top level, `or(…)`/`and(…)` inside a group of the other kind, and
  /// nothing where the enclosing conditions combine that way already.
  group_state open_group(bool any) {
    const group_state before{true, group_ == nullptr, any_};
    if (!group_) {
      if (!any) return {};  // parameters are ANDed
      group_ = &query_.scratch();
    } else {
      if (any == any_) return {};
      separate();
      *group_ += any ? "or" : "and";
    }
    *group_ += '(';
    any_ = any;
    first_ = true;
    return before;
  }
  /// Ends the group open_group() started.
  void close_group(const group_state& before) {
    if (!before.opened) return;
    *group_ += ')';
    if (before.top_level) {
      query_.add("or", *group_);
      group_ = nullptr;
    }
    any_ = before.any;
    first_ = false;
  }

 private:
  void separate() {
    if (!first_) *group_ += ',';
    first_ = false;
  }
  std::string& start(std::string_view col, bool negated, std::string_view op) {
    std::string* text = group_;
    if (text) {
      separate();
      *text += col;
      *text += '.';
    } else {
      text = &query_.scratch();
    }
    if (negated) *text += "not.";
    *text += op;
    *text += '.';
    return *text;
  }
  // A top-level condition is a parameter of its own.
  void finish(std::string_view col, const std::string& text) {
    if (!group_) query_.add(col, text);
  }

  query_writer& query_;
  std::string* group_ = nullptr;  // the text of the open group, null at the top level
  bool any_ = false;
  bool first_ = true;
};

// A list filter. NULL goes as a condition of its own, ORed for a list that
// keeps rows (`in`) and ANDed for one that leaves them out (`not_in`); a lone
// "" goes as the equality of the op's polarity, since `in.("")` is the empty
// list.
void encode_list(const filter& f, const filter_op_rule& rule, condition_writer& out) {
  const std::string_view col = f.field;
  const bool excludes = rule.negation != op_negation::none;
  const split_list list = split_nulls(f.values);
  if (list.has_null && list.items.empty()) {
    out.null_test(col, excludes);
    return;
  }
  const condition_writer::group_state group =
      list.has_null ? out.open_group(!excludes) : condition_writer::group_state{};
  if (list.is_lone_empty())
    out.compare(col, false, filter_op_rule_of(excludes ? filter_op::neq : filter_op::eq).postgrest, "");
  else
    out.list(col, rule.negation == op_negation::prefix, rule.postgrest, list.items);
  if (list.has_null) {
    out.null_test(col, excludes);
    out.close_group(group);
  }
}

// One filter as conditions, as its op's row says (filter_ops.h).
void encode_filter(const filter& f, condition_writer& out) {
  const filter_op_rule& rule = filter_op_rule_of(f.op);
  std::string_view op = rule.postgrest;
  std::string operand;  // a value the encoding makes
  std::string_view value;
  switch (rule.shape) {
    case value_shape::none:
      out.null_test(f.field, rule.negation != op_negation::none);
      return;
    case value_shape::scalar_or_null:
      if (f.value().is_null()) {
        out.null_test(f.field, rule.negation != op_negation::none);
        return;
      }
      value = f.value().text;
      break;
    case value_shape::ordered_scalar:
      value = f.value().text;
      break;
    case value_shape::list:
      encode_list(f, rule, out);
      return;
    case value_shape::pattern: {
      // like/ilike, or match/imatch for a pattern with a literal `*` or one that
      // ignores accents (like_pattern.h).
      pattern_operand pattern = encode_like_pattern(f.value().text, rule.postgrest == "ilike", f.accents);
      op = pattern.op;
      operand = std::move(pattern.value);
      value = operand;
      break;
    }
    case value_shape::elements_or_object:
    case value_shape::elements:
      operand = containment_operand(f);
      value = operand;
      break;
    case value_shape::search_text:
      return;  // consumed before building
  }
  out.compare(f.field, rule.negation == op_negation::prefix, op, value);
}

// `*`, or the visible columns when `*` would also fetch hidden ones
// (embedding vectors: kilobytes per row that are dropped anyway).
void append_all_columns(std::string& out, const table& tbl) {
  if (tbl.hidden_columns.empty()) {
    out += '*';
    return;
  }
  bool first = true;
  for (const auto& col : tbl.columns) {
    if (tbl.hides_owner(col.name) ||
        std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), col.name) != tbl.hidden_columns.end())
      continue;
    if (!first) out += ',';
    first = false;
    out += col.name;
  }
}

void append_select(std::string& out, const tool_call& call) {
  const table& tbl = *call.tbl;
  if (call.columns.empty()) {
    append_all_columns(out, tbl);
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
    if (item == "*")
      append_all_columns(out, tbl);
    else
      out += item;
  }
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

// The owner column a created row gets, as a field written after the row's own.
struct owner_field {
  std::string_view column;  // "" for tables that are not user-owned
  std::string_view uuid;
};

void write_row(json_writer& w, const row& fields, const owner_field& owner = {}) {
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

// A byte the base URL must not hold (a loop: find_first_of on a set calls
// memchr on the set for every byte of the URL).
bool is_query_fragment_or_space(char c) {
  return c == '?' || c == '#' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim_trailing_slashes(std::string_view url) {
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  return url;
}

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

}  // namespace

namespace {

// Where a Supabase URL serves PostgREST (createClient: new URL("rest/v1", url)).
constexpr std::string_view kRestPath = "/rest/v1";

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The root of a Supabase project's own domain (https://<ref>.supabase.co):
// as a PostgREST root it would silently build URLs PostgREST does not serve.
bool is_bare_supabase_project(std::string_view url) {
  const auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return false;
  const std::string_view rest = trim_trailing_slashes(url.substr(scheme + 3));
  if (rest.find('/') != std::string_view::npos) return false;
  return ends_with(rest, ".supabase.co") || ends_with(rest, ".supabase.in");
}

// The PostgREST root for the one URL option given.
result<std::string> rest_root(std::string_view field, std::string_view value) {
  const std::string_view trimmed = trim_trailing_slashes(value);
  if (field == "url") {
    if (ends_with(trimmed, kRestPath))
      return error{codes::invalid_option, "url",
                   "url is the Supabase URL and gets /rest/v1 added; this one already ends in /rest/v1",
                   "pass the Supabase URL (https://<project>.supabase.co, http://127.0.0.1:54321) as url, or the "
                   "PostgREST root as restUrl"};
    std::string root(trimmed);
    // An empty or scheme-less url keeps failing the http(s) check, unchanged.
    if (trimmed.find("://") != std::string_view::npos) root += kRestPath;
    return root;
  }
  if (is_bare_supabase_project(trimmed))
    return error{codes::invalid_option, std::string(field),
                 fmt::format("{} is the PostgREST root, but {} is a Supabase project URL (PostgREST is under /rest/v1)",
                             field, trimmed),
                 fmt::format("pass it as url (it gets /rest/v1), or {}: '{}/rest/v1'", field, trimmed)};
  return std::string(value);
}

}  // namespace

// The members of request options, the three ways of giving the URL first.
constexpr std::array<std::string_view, 7> kOptionKeys{"url",         "restUrl", "baseUrl",     "apiKey",
                                                      "accessToken", "userId",  "maxUrlLength"};

result<request_options> parse_request_options(json_value options) {
  request_options out;
  if (options.is_null()) return out;
  if (!options.is_object())
    return error{codes::invalid_option, "", "options must be an object",
                 "{ url | restUrl, apiKey, accessToken, userId }"};
  const detail::object_fields fields(options, kOptionKeys);
  if (const auto& key = fields.unknown())
    return error{codes::invalid_option, std::string(*key), fmt::format("unknown option {}", *key),
                 "request options are url or restUrl, apiKey, accessToken, userId, maxUrlLength"};
  std::string url_field;
  std::string url_value;
  for (std::string_view key : kOptionKeys) {
    if (key == "maxUrlLength") {
      long long n = 0;
      const detail::field_state state = detail::read_whole_number(fields[key], n);
      if (state == detail::field_state::absent) continue;
      if (state == detail::field_state::wrong_type || n < 256)
        return error{codes::invalid_option, "maxUrlLength", "maxUrlLength must be a whole number of at least 256", ""};
      out.max_url_length = std::size_t(n);
      continue;
    }
    std::string_view text;
    const detail::field_state state = detail::read_text(fields[key], text);
    if (state == detail::field_state::absent) continue;
    if (state == detail::field_state::wrong_type)
      return error{codes::invalid_option, std::string(key), fmt::format("{} must be a string", key), ""};
    const bool is_url = key == "url" || key == "restUrl" || key == "baseUrl";
    if (is_url && !url_field.empty())
      return error{codes::invalid_option, std::string(key),
                   fmt::format("give either {} or {}, not both", url_field, key),
                   "url is the Supabase URL (gets /rest/v1); restUrl is the PostgREST root itself"};
    std::string& target = is_url                 ? url_value
                          : key == "apiKey"      ? out.api_key
                          : key == "accessToken" ? out.access_token
                                                 : out.user_id;
    if (is_url) url_field = std::string(key);
    target = std::string(text);
  }
  if (!url_field.empty()) {
    auto root = rest_root(url_field, url_value);
    if (!root) return root.take_error();
    out.base_url = std::move(*root);
    out.base_url_field = url_field;
  }
  if (!out.access_token.empty()) {
    const detail::jwt_claims claims = detail::decode_jwt_claims(out.access_token);
    if (!claims.sub.empty()) {
      if (out.user_id.empty())
        out.user_id = claims.sub;
      else if (!is_uuid_syntax(out.user_id) || !is_uuid_syntax(claims.sub) ||
               canonical_uuid(out.user_id) != canonical_uuid(claims.sub))
        return error{codes::invalid_option, "userId", "userId is not the user the access token belongs to (its sub)",
                     "leave userId out: it defaults to the token's sub"};
    }
  }
  return out;
}

status require_signed_in(const table& tbl, const request_context& context) {
  if (!tbl.has_owner()) return ok_status();
  const std::string hint =
      "pass the signed-in user's session: createAct({ supabase }) or accessToken (a string or a function returning "
      "one)";
  if (context.options().access_token.empty())
    return error{codes::not_signed_in, "accessToken",
                 fmt::format("{} belongs to users, and no signed-in user's access token was given", tbl.name), hint};
  if (context.token_is_jwt() && context.token_role() == "anon")
    return error{codes::not_signed_in, "accessToken",
                 fmt::format("{} belongs to users, and the access token is the anon key, not a user's token", tbl.name),
                 hint};
  if (context.token_is_jwt() && context.token_sub().empty())
    return error{codes::not_signed_in, "accessToken",
                 fmt::format("{} belongs to users, and the access token names no user (no sub claim)", tbl.name), hint};
  return ok_status();
}

status require_signed_in(const table& tbl, const request_options& options) {
  return require_signed_in(tbl, request_context(options));
}

namespace {

// The base URL without trailing slashes, once it and the credentials are
// known to be safe to send.
result<std::string_view> checked_base(const request_options& options) {
  const std::string_view base = trim_trailing_slashes(options.base_url);
  const std::string& field = options.base_url_field;
  if (base.rfind("http://", 0) != 0 && base.rfind("https://", 0) != 0)
    return error{codes::invalid_option, field, fmt::format("{} must be an http:// or https:// URL", field),
                 field == "url" ? "the Supabase URL, e.g. https://<project>.supabase.co or http://127.0.0.1:54321"
                                : "the PostgREST root, e.g. https://<project>.supabase.co/rest/v1"};
  if (std::any_of(base.begin(), base.end(), is_query_fragment_or_space))
    return error{codes::invalid_option, field, fmt::format("{} must not contain a query, fragment or spaces", field),
                 ""};
  for (const auto& [value, field] :
       {std::pair{&options.api_key, "apiKey"}, std::pair{&options.access_token, "accessToken"}}) {
    auto ok = detail::check_credential(*value, field);
    if (!ok) return ok.take_error();
  }
  return base;
}

}  // namespace

status check_request_options(const request_options& options) {
  auto base = checked_base(options);
  if (!base) return base.take_error();
  return ok_status();
}

request_context::request_context(request_options options) : options_(std::move(options)) {
  if (auto base = checked_base(options_))
    base_ = std::string(*base);
  else
    send_error_ = base.take_error();
  if (!options_.access_token.empty()) {
    detail::jwt_claims claims = detail::decode_jwt_claims(options_.access_token);
    token_is_jwt_ = claims.is_jwt;
    token_role_ = std::move(claims.role);
    token_sub_ = std::move(claims.sub);
  }
}

namespace {

result<request_parts> build_request_parts(const domain& /*dom*/, const tool_call& call,
                                          const request_context& context) {
  const table& tbl = *call.tbl;
  if (!call.semantic_query.empty())
    return error{codes::requires_executor, "filters",
                 "semantic search needs an embedding of the query, which a plain request cannot carry",
                 "run it through createAct().execute(), which embeds the text and calls the search RPC"};
  if (context.send_error()) return *context.send_error();
  const request_options& options = context.options();
  const std::string_view base = context.base();
  // The owner's id goes into created rows, and into every filter of an
  // owner-scoped table; otherwise row-level security alone decides.
  std::string owner;
  if (tbl.has_owner() && (call.kind == tool_kind::create || tbl.owner_scoped)) {
    if (options.user_id.empty())
      return error{codes::missing_user_id, "userId",
                   fmt::format("{} belongs to users; a user id is required", tbl.name),
                   "pass userId (the signed-in user's id, the JWT's sub claim)"};
    if (!is_uuid_syntax(options.user_id)) return error{codes::invalid_option, "userId", "userId must be a UUID", ""};
    owner = canonical_uuid(options.user_id);
  }

  request_parts req;
  req.url.reserve(base.size() + tbl.name.size() + 512);
  req.url += base;
  req.url += '/';
  append_percent_encoded(req.url, tbl.name);
  query_writer query(req.url);
  condition_writer conditions(query);
  std::string& prefer = req.prefer;
  auto add_owner_filter = [&]() {
    if (owner.empty() || !tbl.owner_scoped) return;
    std::string& text = query.scratch();
    text += "eq.";
    text += owner;
    query.add(tbl.owner, text);
  };
  switch (call.kind) {
    case tool_kind::read: {
      req.method = "GET";
      std::string& select = query.scratch();
      append_select(select, call);
      query.add("select", select);
      add_owner_filter();
      for (const auto& f : call.filters) encode_filter(f, conditions);
      // Repeated `or` parameters are ANDed by PostgREST.
      auto add_or_group = [&](const std::vector<filter>& group) {
        if (group.empty()) return;
        const condition_writer::group_state any = conditions.open_group(true);
        for (const auto& f : group) encode_filter(f, conditions);
        conditions.close_group(any);
      };
      add_or_group(call.or_filters);
      for (const auto& group : call.or_groups) add_or_group(group);
      if (!call.order_by.empty()) {
        std::string& text = query.scratch();
        text += call.order_by;
        text += call.descending ? ".desc" : ".asc";
        query.add("order", text);
      }
      if (call.offset) query.add("offset", std::to_string(*call.offset));
      if (call.limit) query.add("limit", std::to_string(*call.limit));
      if (!call.count.empty()) prefer = "count=" + call.count;
      break;
    }
    case tool_kind::create: {
      req.method = "POST";
      const owner_field owner_value{owner.empty() ? std::string_view() : std::string_view(tbl.owner), owner};
      std::string body;
      json_writer w(body);
      if (call.batch) {
        bool keys_differ = false;
        const auto keys = union_keys(call.rows, owner_value.column, keys_differ);
        std::string& text = query.scratch();
        for (std::size_t i = 0; i < keys.size(); ++i) {
          if (i) text += ',';
          text += '"';
          text += keys[i];
          text += '"';
        }
        query.add("columns", text);
        // Without it, a key missing from one row would be inserted as NULL
        // instead of the column default (docs/postgrest-wire.md#writes-and-prefer).
        if (keys_differ) prefer = "missing=default, ";
        w.begin_array();
        for (const auto& fields : call.rows) write_row(w, fields, owner_value);
        w.end_array();
      } else {
        write_row(w, call.rows.front(), owner_value);
      }
      req.body = std::move(body);
      query.add("select", "*");
      prefer += "return=representation";
      break;
    }
    case tool_kind::update:
    case tool_kind::remove: {
      req.method = call.kind == tool_kind::update ? "PATCH" : "DELETE";
      add_owner_filter();
      for (const auto& f : call.filters) encode_filter(f, conditions);
      query.add("select", "*");
      if (call.kind == tool_kind::update) {
        std::string body;
        json_writer w(body);
        write_row(w, call.rows.front());
        req.body = std::move(body);
      }
      // handling=strict makes PostgREST refuse (and roll back) a write
      // over the limit instead of ignoring the preference.
      if (call.max_affected > 0) prefer = fmt::format("handling=strict, max-affected={}, ", call.max_affected);
      prefer += "return=representation";
      break;
    }
  }

  if (req.url.size() > options.max_url_length)
    return error{codes::url_too_long, "filters",
                 fmt::format("the request URL would be {} bytes, over the {}-byte limit", req.url.size(),
                             options.max_url_length),
                 "split the value list into several smaller calls, or filter on fewer values"};

  return req;
}

}  // namespace

namespace {

http_request to_http_request(request_parts parts, const request_options& options) {
  http_request req;
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

}  // namespace

result<http_request> build_rpc_request(std::string_view function, std::string body_json,
                                       const request_context& context) {
  if (context.send_error()) return *context.send_error();
  request_parts parts;
  parts.method = "POST";
  parts.url = std::string(context.base()) + "/rpc/";
  append_percent_encoded(parts.url, function);
  parts.body = std::move(body_json);
  return to_http_request(std::move(parts), context.options());
}

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

result<http_request> build_request(const domain& dom, const ref_registry& registry, std::string_view tool,
                                   std::string_view params_json, const request_options& options) {
  auto call = parse_tool_call(dom, registry, tool, params_json, options.user_id);
  if (!call) return call.take_error();
  return build_request(dom, *call, options);
}

void write_request(json_writer& w, const http_request& request) {
  write_request_object(w, request.method, request.url, request.body, [&]() {
    for (const auto& [name, value] : request.headers) {
      w.key(name);
      w.string(value);
    }
  });
}

void write_error(json_writer& w, const error& err) {
  // The last line of defence against an echoed value of any size: messages
  // quote values through detail::echoed, and no field leaves longer than this.
  constexpr std::size_t kFieldBytes = 2000;
  w.begin_object();
  w.key("code");
  w.string(err.code);
  w.key("message");
  w.string(detail::clip_utf8(err.message, kFieldBytes));
  w.key("path");
  w.string(detail::clip_utf8(err.path, kFieldBytes));
  w.key("hint");
  w.string(detail::clip_utf8(err.hint, kFieldBytes));
  if (err.status != 0) {
    w.key("status");
    w.raw_value(std::to_string(err.status));
  }
  if (!err.db_code.empty()) {
    w.key("dbCode");
    w.string(detail::clip_utf8(err.db_code, detail::kEchoBytes));
  }
  if (!err.details.empty()) {
    w.key("details");
    w.string(detail::clip_utf8(err.details, kFieldBytes));
  }
  if (!err.raw_body.empty()) {
    w.key("rawBody");
    w.string(detail::clip_utf8(err.raw_body, kFieldBytes));
  }
  if (err.raw) {
    w.key("raw");
    w.begin_object();
    w.key("message");
    w.string(detail::clip_utf8(err.raw->message, kFieldBytes));
    w.key("details");
    w.string(detail::clip_utf8(err.raw->details, kFieldBytes));
    w.key("hint");
    w.string(detail::clip_utf8(err.raw->hint, kFieldBytes));
    w.end_object();
  }
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
