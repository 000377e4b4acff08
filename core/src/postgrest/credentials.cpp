#include "credentials.h"

#include "../json/format.h"
#include "alfred/json/json.h"

namespace alfred::detail {
namespace {

int base64url_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-' || c == '+') return 62;
  if (c == '_' || c == '/') return 63;
  return -1;
}

bool base64url_decode(std::string_view text, std::string& out) {
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const int digit = base64url_digit(c);
    if (digit < 0) return false;
    buffer = (buffer << 6) | unsigned(digit);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += char((buffer >> bits) & 0xFF);
    }
  }
  return true;
}

jwt_claims decode_claims(std::string_view token) {
  jwt_claims out;
  const auto first = token.find('.');
  if (first == std::string_view::npos) return out;
  const auto second = token.find('.', first + 1);
  if (second == std::string_view::npos) return out;
  std::string payload;
  if (!base64url_decode(token.substr(first + 1, second - first - 1), payload)) return out;
  auto claims = json_document::parse(payload);
  if (!claims || !claims->root().is_object()) return out;
  out.is_jwt = true;
  if (auto role = claims->root().find("role"); role && role->is_string()) out.role = std::string(role->str());
  if (auto sub = claims->root().find("sub"); sub && sub->is_string()) out.sub = std::string(sub->str());
  return out;
}

}  // namespace

// A session sends the same key and token with every request, and an act
// made per request (a worker's) reads its token's claims three times: the
// last two tokens' claims are kept. Decoding a payload was ~3% of a build
// and a sixth of making an act. Thread-local, so native callers on several
// threads need no lock.
jwt_claims decode_jwt_claims(std::string_view token) {
  struct answer {
    std::string token;
    jwt_claims claims;
  };
  thread_local answer recent[2];
  thread_local std::size_t oldest = 0;
  for (const answer& known : recent)
    if (known.token == token) return known.claims;
  // Made whole before it replaces a slot: an allocation that fails on the
  // way leaves no token kept with another token's claims.
  answer fresh{std::string(token), decode_claims(token)};
  answer& slot = recent[oldest];
  oldest = 1 - oldest;
  slot = std::move(fresh);
  return slot.claims;
}

std::string jwt_role(std::string_view token) { return decode_jwt_claims(token).role; }

status check_credential(std::string_view value, std::string_view field) {
  for (unsigned char c : value) {
    if (c < 0x21 || c == 0x7F)
      return error{codes::invalid_option, std::string(field),
                   textfmt::format("{} contains spaces or control characters", field),
                   "pass the key or token exactly as issued"};
    // fetch's Headers rejects these, and no issued key or JWT contains them.
    if (c > 0x7F)
      return error{codes::invalid_option, std::string(field),
                   textfmt::format("{} contains non-ASCII characters", field),
                   "pass the key or token exactly as issued"};
  }
  if (value.rfind("sb_secret_", 0) == 0 || jwt_role(value) == "service_role")
    return error{codes::service_key_refused, std::string(field),
                 textfmt::format("{} is a service-role key, which bypasses row-level security", field),
                 "use the anon/publishable key and the signed-in user's access token"};
  return ok_status();
}

bool is_bearer_key(std::string_view api_key) {
  return api_key.rfind("sb_publishable_", 0) != 0 && api_key.rfind("sb_secret_", 0) != 0;
}

}  // namespace alfred::detail
