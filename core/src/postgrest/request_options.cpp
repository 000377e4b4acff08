// Request options: parsed from the package's JSON, checked once, and made
// ready for many requests (request_context).
#include <algorithm>
#include <array>

#include "../json/format.h"
#include "../json/json_fields.h"
#include "alfred/postgrest/request.h"
#include "alfred/uuid/uuid.h"
#include "credentials.h"

namespace alfred {
namespace {

// A byte the base URL must not hold (a loop: find_first_of on a set calls
// memchr on the set for every byte of the URL).
bool is_query_fragment_or_space(char c) {
  return c == '?' || c == '#' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim_trailing_slashes(std::string_view url) {
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  return url;
}

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

constexpr const char* kUrlHint =
    "pass url, the Supabase URL (https://<project>.supabase.co or http://127.0.0.1:54321), or restUrl, the PostgREST "
    "root";

// The PostgREST root for the one URL option given.
result<std::string> rest_root(std::string_view field, std::string_view value) {
  const std::string_view trimmed = trim_trailing_slashes(value);
  if (field == "url") {
    if (ends_with(trimmed, kRestPath))
      return error{codes::invalid_option, "url",
                   "url is the Supabase URL and gets /rest/v1 added; this one already ends in /rest/v1", kUrlHint};
    // An empty or scheme-less url keeps failing the http(s) check, as given.
    if (trimmed.find("://") == std::string_view::npos) return std::string(value);
    std::string root(trimmed);
    root += kRestPath;
    return root;
  }
  if (is_bare_supabase_project(trimmed))
    return error{
        codes::invalid_option, std::string(field),
        textfmt::format("{} is the PostgREST root, but {} is a Supabase project URL (PostgREST is under /rest/v1)",
                        field, trimmed),
        textfmt::format("pass it as url (it gets /rest/v1), or {}: '{}/rest/v1'", field, trimmed)};
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
    return error{codes::invalid_option, std::string(*key), textfmt::format("unknown option {}", *key),
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
      return error{codes::invalid_option, std::string(key), textfmt::format("{} must be a string", key), ""};
    const bool is_url = key == "url" || key == "restUrl" || key == "baseUrl";
    if (is_url && !url_field.empty())
      return error{codes::invalid_option, std::string(key),
                   textfmt::format("give either {} or {}, not both", url_field, key),
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

namespace {

// Why the context does not act as a signed-in user ("no signed-in user's
// access token was given"), or null when it does.
const char* not_signed_in_because(const request_context& context) {
  if (context.options().access_token.empty()) return "no signed-in user's access token was given";
  if (context.token_is_jwt() && context.token_role() == "anon")
    return "the access token is the anon key, not a user's token";
  if (context.token_is_jwt() && context.token_sub().empty()) return "the access token names no user (no sub claim)";
  return nullptr;
}

// `not_signed_in`: `what` needs a signed-in user ("inventory belongs to
// users"), and `because` says what the context lacks.
error not_signed_in(std::string_view what, std::string_view because) {
  return error{codes::not_signed_in, "accessToken", textfmt::format("{}, and {}", what, because),
               "pass the signed-in user's session: createAct({ supabase }) or accessToken (a string or a function "
               "returning one)"};
}

}  // namespace

// The message is written only for a call that is refused: every call of a
// user's table asks.
status require_signed_in(const table& tbl, const request_context& context) {
  if (!tbl.has_owner() && !tbl.signed_in) return ok_status();
  const char* because = not_signed_in_because(context);
  if (!because) return ok_status();
  return not_signed_in(
      textfmt::format("{} {}", tbl.name, tbl.has_owner() ? "belongs to users" : "is for signed-in users only"),
      because);
}

status require_signed_in(const db_function& fn, const request_context& context) {
  const char* because = not_signed_in_because(context);
  if (!because) return ok_status();
  return not_signed_in(textfmt::format("{} runs as the signed-in user", fn.name), because);
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
  if (options.base_url.empty())
    return error{codes::invalid_option, field, textfmt::format("{} is required", field), kUrlHint};
  if (base.rfind("http://", 0) != 0 && base.rfind("https://", 0) != 0)
    return error{codes::invalid_option, field, textfmt::format("{} must be an http:// or https:// URL", field),
                 field == "url" ? "the Supabase URL, e.g. https://<project>.supabase.co or http://127.0.0.1:54321"
                                : "the PostgREST root, e.g. https://<project>.supabase.co/rest/v1"};
  if (std::any_of(base.begin(), base.end(), is_query_fragment_or_space))
    return error{codes::invalid_option, field,
                 textfmt::format("{} must not contain a query, fragment or spaces", field), ""};
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

}  // namespace alfred
