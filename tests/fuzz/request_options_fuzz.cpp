// Request options (`parse_request_options`, core/src/postgrest/request_options.cpp) on
// arbitrary JSON: the base URL, key, token and user id come from the
// caller's configuration and session storage. Options that parse either
// build requests that go to the base URL (and nowhere else), carry the key
// and token unchanged as header values fetch accepts, are scoped to the user
// on user-owned tables and fit the URL limit; or the build fails with a
// structured error. A service-role key or token is never sent.
// Input: the options object, as JS passes it to buildRequest.

#include <cstdint>
#include <string>

#include "alfred/json/json.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

// The JWT's `role` claim, decoded here independently of the core.
std::string token_role(const std::string& token) {
  const auto first = token.find('.');
  const auto second = first == std::string::npos ? std::string::npos : token.find('.', first + 1);
  if (second == std::string::npos) return {};
  std::string payload;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : token.substr(first + 1, second - first - 1)) {
    if (c == '=') break;
    int digit = -1;
    if (c >= 'A' && c <= 'Z') digit = c - 'A';
    if (c >= 'a' && c <= 'z') digit = c - 'a' + 26;
    if (c >= '0' && c <= '9') digit = c - '0' + 52;
    if (c == '-' || c == '+') digit = 62;
    if (c == '_' || c == '/') digit = 63;
    if (digit < 0) return {};
    buffer = (buffer << 6) | unsigned(digit);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      payload += char((buffer >> bits) & 0xFF);
    }
  }
  const auto claims = parse_reference(payload);
  if (!claims.value || !claims.value->is_object()) return {};
  const auto role = claims.value->find("role");
  return role != claims.value->end() && role->is_string() ? role->get<std::string>() : std::string();
}

bool fetch_header_value(std::string_view value) {
  return std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

void check_request(const request_options& opts, const http_request& req, std::string_view table, bool owned) {
  std::string_view base = opts.base_url;
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  check(base.rfind("http://", 0) == 0 || base.rfind("https://", 0) == 0, "a request to a base that is not http(s)",
        opts.base_url);
  check(base.find_first_of("?# \t\r\n") == std::string_view::npos, "a base URL with a query, fragment or space",
        opts.base_url);
  check(req.url.rfind(std::string(base) + "/" + std::string(table), 0) == 0, "a request goes elsewhere", req.url);
  check(req.url.size() <= opts.max_url_length, "the URL is over the limit", req.url);
  if (owned) {
    check(is_uuid_syntax(opts.user_id), "a user-owned request without a UUID user id", opts.user_id);
    check(req.url.find("user_id=eq." + canonical_uuid(opts.user_id)) != std::string::npos,
          "a request on a user-owned table is not scoped to the user", req.url);
  }
  check(opts.api_key.rfind("sb_secret_", 0) != 0, "a secret key is sent", opts.api_key);
  for (const std::string* credential : {&opts.api_key, &opts.access_token})
    check(token_role(*credential) != "service_role", "a service-role token is sent", *credential);
  bool api_key = false, authorization = false;
  for (const auto& [name, value] : req.headers) {
    check(fetch_header_value(value), "a header value fetch refuses", name + ": " + value);
    if (name == "apikey") {
      api_key = true;
      check(value == opts.api_key, "the apikey header is not the key", value);
    }
    if (name == "Authorization") {
      authorization = true;
      const std::string& bearer = opts.access_token.empty() ? opts.api_key : opts.access_token;
      check(value == "Bearer " + bearer, "the Authorization header is not the token", value);
    }
  }
  check(api_key == !opts.api_key.empty(), "the apikey header is missing or unasked", opts.api_key);
  // Without a user token, a JWT-shaped key is the bearer (as supabase-js sends it).
  check(authorization == !opts.access_token.empty() || (authorization && !opts.api_key.empty()),
        "the Authorization header is missing or unasked", opts.access_token);
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto doc = json_document::parse(input);
  if (!doc) return 0;
  auto opts = parse_request_options(doc->root());
  if (!opts) {
    check(opts.err().code == "invalid_option", "an unexpected options error code", opts.err().code);
    check(!opts.err().message.empty(), "an options error without a message");
    return 0;
  }
  struct call {
    const char* tool;
    const char* params;
    const char* table;
    bool owned;
  };
  static const call calls[] = {
      {"db_read", R"({"table":"recipes","filters":[{"field":"name","op":"ilike","value":"%chicken%"}],"limit":5})",
       "recipes", true},
      {"db_read", R"({"table":"ingredients","limit":3})", "ingredients", false},
      {"db_update",
       R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}],"data":{"quantity":2}})",
       "inventory", true},
  };
  for (const auto& c : calls) {
    auto req = build_request(kitchen(), sample_registry(), c.tool, c.params, *opts);
    if (req) {
      check_request(*opts, *req, c.table, c.owned);
    } else {
      check(!req.err().code.empty() && !req.err().message.empty(), "an error without a code or message",
            req.err().code);
    }
  }
  return 0;
}
