#include "values.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "../json/echo.h"
#include "../json/text.h"
#include "alfred/like_pattern.h"
#include "alfred/uuid.h"

namespace alfred {

namespace detail {
namespace {

constexpr std::size_t kMaxListedRefs = 12;

std::string lower(std::string_view text) { return trimmed_lower(text, ""); }

std::string describe_ref(const ref_entry& entry) {
  return entry.label.empty() || entry.label == entry.ref ? entry.ref : fmt::format("{} ({})", entry.ref, entry.label);
}

// "known recipe refs: recipe_1 (Butter Chicken), recipe_2" or how to get some.
std::string known_refs_hint(const ref_registry& registry, const table& target) {
  std::vector<std::string> listed;
  std::size_t total = 0;
  for (const ref_entry* entry : registry.refs_of_type(target.ref_prefix)) {
    if (entry->pending() || !entry->saved_as.empty()) continue;
    if (entry->action == ref_action::deleted) continue;
    if (++total <= kMaxListedRefs) listed.push_back(describe_ref(*entry));
  }
  if (listed.empty())
    return fmt::format("no {} refs are known yet; read {} first to get refs", target.ref_prefix, target.name);
  std::string hint = fmt::format("known {} refs: {}", target.ref_prefix, fmt::join(listed, ", "));
  if (total > listed.size()) hint += fmt::format(", … ({} in all)", total);
  return hint;
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_integer_text(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  return all_digits(text) && text.size() <= 18;
}

bool is_numeric_text(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  const auto dot = text.find('.');
  if (dot == std::string_view::npos) return all_digits(text);
  const auto whole = text.substr(0, dot);
  const auto frac = text.substr(dot + 1);
  return (all_digits(whole) || whole.empty()) && (all_digits(frac) || frac.empty()) && !(whole.empty() && frac.empty());
}

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

int two_digits(std::string_view text, std::size_t at) { return (text[at] - '0') * 10 + (text[at + 1] - '0'); }

bool digits_at(std::string_view text, std::size_t at, std::size_t count) {
  return at + count <= text.size() && all_digits(text.substr(at, count));
}

std::string type_hint(const column& col) {
  switch (col.type) {
    case column_type::integer:
      return "a whole number such as 30";
    case column_type::numeric:
      return "a number such as 2.5";
    case column_type::boolean:
      return "true or false";
    case column_type::date:
      return "an ISO date such as 2026-03-14";
    case column_type::timestamp:
      return "an ISO timestamp such as 2026-03-14T18:30:00Z";
    case column_type::text_array:
      return "an array of strings such as [\"weeknight\"]";
    case column_type::uuid_array:
      return "an array of refs";
    case column_type::jsonb:
      return "a JSON object";
    case column_type::uuid:
      return "a ref";
    case column_type::text:
      return "a string";
  }
  return "a value";
}

status check_allowed(const column& col, std::string_view text, const param_path& path) {
  if (col.allowed_values.empty() ||
      std::find(col.allowed_values.begin(), col.allowed_values.end(), text) != col.allowed_values.end())
    return ok_status();
  return invalid_value(path.str(), fmt::format("'{}' is not an allowed value for {}", detail::echoed(text), col.name),
                       fmt::format("use one of: {}", fmt::join(col.allowed_values, ", ")));
}

std::string shown(json_value value) {
  return value.is_string() ? fmt::format("'{}'", detail::echoed(value.str())) : std::string(value.kind_name());
}

scalar text_scalar(std::string_view text) { return {scalar::kind::text, std::string(text)}; }

// A JSON number with an integral value ("6", "6.0", "6e0") as integer text.
std::optional<std::string> integral_text(json_value value) {
  auto n = value.as_integer();
  if (!n) n = whole_number(value, 9'000'000'000'000'000);
  if (!n) return std::nullopt;
  return std::to_string(*n);
}

// Text, numbers, booleans and dates as the column's type expects them.
result<scalar> check_plain_scalar(const column& col, json_value value, const param_path& path) {
  auto wrong = [&]() -> error {
    return invalid_value(path.str(), fmt::format("{} expects {}, got {}", col.name, type_hint(col), shown(value)),
                         fmt::format("give {}", type_hint(col)));
  };
  switch (col.type) {
    case column_type::text: {
      if (value.is_number()) return text_scalar(value.raw());
      if (!value.is_string()) return wrong();
      auto ok = check_allowed(col, value.str(), path);
      if (!ok) return ok.take_error();
      return text_scalar(value.str());
    }
    case column_type::integer:
      if (auto text = integral_text(value)) return scalar{scalar::kind::number, *text};
      if (value.is_string() && is_integer_text(value.str())) return text_scalar(value.str());
      return wrong();
    case column_type::numeric:
      if (value.is_number()) return scalar{scalar::kind::number, std::string(value.raw())};
      if (value.is_string() && is_numeric_text(value.str())) return text_scalar(value.str());
      return wrong();
    case column_type::boolean:
      if (value.is_bool()) return scalar{scalar::kind::boolean, value.as_bool() ? "true" : "false"};
      if (value.is_string()) {
        const std::string text = lower(value.str());
        if (text == "true" || text == "false") return scalar{scalar::kind::boolean, text};
      }
      return wrong();
    case column_type::date:
      if (value.is_string() && is_iso_date(value.str())) return text_scalar(value.str());
      return wrong();
    case column_type::timestamp:
      if (value.is_string() && is_iso_timestamp(value.str())) return text_scalar(value.str());
      return wrong();
    default:
      return wrong();
  }
}

}  // namespace

error invalid_value(std::string path, std::string message, std::string hint) {
  return {codes::invalid_value, std::move(path), std::move(message), std::move(hint)};
}

error nul_error(std::string path) {
  return {codes::nul_byte, std::move(path), "the value contains a NUL byte (U+0000)",
          "PostgREST truncates filter values at NUL; remove it"};
}

std::optional<long long> whole_number(json_value value, long long bound) {
  if (!value.is_number()) return std::nullopt;
  std::string_view text = value.raw();  // the parser checked the JSON number grammar
  const bool negative = text.front() == '-';
  if (negative) text.remove_prefix(1);
  std::string digits;  // significant digits, without the point
  long exponent = 0;   // value = digits * 10^exponent
  std::size_t i = 0;
  for (bool fraction = false; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      fraction = true;
    } else if (digits.size() < 40) {
      if (!digits.empty() || text[i] != '0') digits += text[i];
      if (fraction) --exponent;
    } else if (!fraction) {
      ++exponent;  // an integer part too long to matter: only its magnitude counts
    } else if (text[i] != '0') {
      return std::nullopt;
    }
  }
  if (i < text.size()) {
    const bool minus = text[++i] == '-';
    if (text[i] == '-' || text[i] == '+') ++i;
    long e = 0;
    for (; i < text.size(); ++i) e = std::min(e * 10 + (text[i] - '0'), 100000L);
    exponent += minus ? -e : e;
  }
  while (!digits.empty() && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  if (digits.empty()) return 0;
  if (exponent < 0 || long(digits.size()) + exponent > 18) return std::nullopt;
  long long n = 0;
  for (char c : digits) n = n * 10 + (c - '0');
  for (long k = 0; k < exponent; ++k) n *= 10;
  if (n >= bound) return std::nullopt;
  return negative ? -n : n;
}

bool contains_nul(std::string_view text) { return text.find('\0') != std::string_view::npos; }

bool is_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  if (!digits_at(text, 0, 4) || !digits_at(text, 5, 2) || !digits_at(text, 8, 2)) return false;
  const int year = std::stoi(std::string(text.substr(0, 4)));
  const int month = two_digits(text, 5);
  const int day = two_digits(text, 8);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= days_in_month(year, month);
}

bool is_iso_timestamp(std::string_view text) {
  if (text.size() < 10 || !is_iso_date(text.substr(0, 10))) return false;
  if (text.size() == 10) return true;
  if (text[10] != 'T' && text[10] != ' ') return false;
  std::size_t at = 11;
  if (!digits_at(text, at, 2) || two_digits(text, at) > 23) return false;
  if (at + 2 >= text.size() || text[at + 2] != ':') return false;
  if (!digits_at(text, at + 3, 2) || two_digits(text, at + 3) > 59) return false;
  at += 5;
  if (at < text.size() && text[at] == ':') {
    if (!digits_at(text, at + 1, 2) || two_digits(text, at + 1) > 60) return false;
    at += 3;
    if (at < text.size() && text[at] == '.') {
      const std::size_t start = ++at;
      while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
      if (at == start) return false;
    }
  }
  if (at == text.size()) return true;
  if (text[at] == 'Z' || text[at] == 'z') return at + 1 == text.size();
  if (text[at] != '+' && text[at] != '-') return false;
  const auto zone = text.substr(at + 1);
  if (zone.size() == 2) return all_digits(zone);
  if (zone.size() == 4) return all_digits(zone);
  return zone.size() == 5 && zone[2] == ':' && digits_at(zone, 0, 2) && digits_at(zone, 3, 2);
}

const table* row_target(const value_scope& scope, const column& col) {
  if (&col == scope.tbl.key_column()) return &scope.tbl;
  if (col.type == column_type::uuid_array || col.references.empty()) return nullptr;
  return scope.dom.find_table(col.references);
}

namespace {

// Whether rows of `target` are keyed by user ids (`profiles.id` references
// auth.users): `me` names the signed-in user's own row there.
bool keyed_by_user(const table& target) {
  const column* key = target.key_column();
  return key && key->type == column_type::uuid && (key->user_id || target.owner == key->name);
}

result<std::string> current_user_key(const value_scope& scope, const param_path& path, std::string_view field) {
  if (scope.me.empty() || !is_uuid_syntax(scope.me))
    return error{codes::not_signed_in, path.str(),
                 fmt::format("{} was given me, the signed-in user, but nobody is signed in", field),
                 "sign a user in (createAct({ supabase }) or accessToken)"};
  return canonical_uuid(scope.me);
}

// The ref known for a raw key the model wrote, for the hint.
const ref_entry* known_raw_key(const value_scope& scope, const table& target, json_value value) {
  const column* key = target.key_column();
  if (!key) return nullptr;
  if (key->type == column_type::uuid)
    return value.is_string() && is_uuid_syntax(value.str()) ? scope.registry.find_by_uuid(value.str()) : nullptr;
  const std::string_view text = value.is_number() ? value.raw() : value.is_string() ? value.str() : "";
  return text.empty() ? nullptr : scope.registry.find_by_key(target.ref_prefix, text);
}

error raw_id_error(const value_scope& scope, const table& target, json_value value, const param_path& path,
                   std::string_view field, std::string_view what) {
  const ref_entry* known = known_raw_key(scope, target, value);
  if (known && known->type == target.ref_prefix)
    return error{codes::raw_id, path.str(),
                 fmt::format("{} takes a ref, not {}; that row is {}", field, what, describe_ref(*known)),
                 fmt::format("use the ref {}", known->ref)};
  return error{codes::raw_id, path.str(),
               fmt::format("{} takes a ref such as {}, not {}; refs cannot be made from ids", field,
                           ref_text(target.ref_prefix, 1), what),
               known_refs_hint(scope.registry, target)};
}

// The key a ref names, or why it names none a filter or row of `target`
// may use (unknown, of another table, generated and unsaved, deleted).
result<std::string> known_ref_key(const value_scope& scope, const table& target, std::string_view text,
                                  const ref_name& name, const param_path& path, std::string_view field) {
  const auto& registry = scope.registry;
  const ref_entry* entry = registry.find(text);
  if (!entry) {
    const table* other = scope.dom.find_table_by_prefix(name.prefix);
    const bool wrong_table = other && other != &target;
    return error{wrong_table ? codes::ref_type_mismatch : codes::unknown_ref, path.str(),
                 wrong_table ? fmt::format("{} is not a known ref, and {} refs are rows of {} while {} takes a ref "
                                           "to {} ({})",
                                           detail::echoed(text), name.prefix, other->name, field, target.name,
                                           ref_pattern(target.ref_prefix))
                             : fmt::format("{} is not a known ref; refs cannot be invented", detail::echoed(text)),
                 known_refs_hint(registry, target)};
  }
  if (entry->type != target.ref_prefix)
    return error{codes::ref_type_mismatch, path.str(),
                 fmt::format("{} is a row of {}, but {} takes a ref to {} ({})", describe_ref(*entry), entry->table,
                             field, target.name, ref_pattern(target.ref_prefix)),
                 known_refs_hint(registry, target)};
  if (entry->pending())
    return error{codes::pending_ref, path.str(),
                 fmt::format("{} is generated content that has not been saved, so it has no "
                             "row in {} yet",
                             describe_ref(*entry), target.name),
                 fmt::format("save it first with db_create on {} (its content is under "
                             "Generated Data), then use its ref",
                             target.name)};
  if (entry->action == ref_action::deleted)
    return error{codes::deleted_ref, path.str(),
                 fmt::format("{} was deleted earlier in this session", describe_ref(*entry)),
                 known_refs_hint(registry, target)};
  // What registry.resolve(text) returns, without looking the ref up again.
  return entry->saved_as.empty() ? entry->key : registry.find(entry->saved_as)->key;
}

// Why a UUID written where a ref belongs is refused: a row of another table,
// an id nobody generated, a corrupted copy of a known one, or any raw id.
error uuid_error(const value_scope& scope, const table& target, json_value value, const param_path& path,
                 std::string_view field) {
  const auto& registry = scope.registry;
  const std::string_view text = value.str();
  const std::string uuid = canonical_uuid(text);
  if (const ref_entry* known = registry.find_by_uuid(uuid); known && known->type != target.ref_prefix)
    return error{codes::ref_type_mismatch, path.str(),
                 fmt::format("this UUID belongs to {}, a row of {}, but {} takes a ref to {} ({})",
                             describe_ref(*known), known->table, field, target.name, ref_pattern(target.ref_prefix)),
                 known_refs_hint(registry, target)};
  if (auto reason = implausible_uuid_reason(uuid); !reason.empty())
    return error{codes::invented_uuid, path.str(), fmt::format("'{}' cannot be a row id: {}", text, reason),
                 "use the refs shown in context instead of UUIDs; " + known_refs_hint(registry, target)};
  if (!registry.find_by_uuid(uuid))
    for (const ref_entry* entry : registry.refs_of_type(target.ref_prefix))
      if (entry->uuid_key && !entry->key.empty() && entry->saved_as.empty() &&
          entry->key.compare(0, 8, uuid, 0, 8) == 0)
        return error{codes::mangled_uuid, path.str(),
                     fmt::format("'{}' looks like a corrupted copy of the id of {}", text, describe_ref(*entry)),
                     fmt::format("use the ref {} instead of a UUID", entry->ref)};
  return raw_id_error(scope, target, value, path, field, "a UUID");
}

// Text that is neither a ref, `me` nor a raw key: a ref in the wrong case, a
// row's label given for its ref, or something else.
error not_a_ref_error(const value_scope& scope, const table& target, std::string_view text, const param_path& path,
                      std::string_view field) {
  const auto& registry = scope.registry;
  for (const ref_entry* entry : registry.refs_of_type(target.ref_prefix)) {
    if (lower(entry->ref) == lower(text))
      return error{codes::unknown_ref, path.str(),
                   fmt::format("'{}' is not a known ref; refs are case-sensitive", detail::echoed(text)),
                   fmt::format("write it exactly as shown: {}", entry->ref)};
  }
  // A name given where a ref belongs, matched as the catalog matches names
  // (case and accents ignored).
  const std::string wanted = fold_latin(text);
  for (const ref_entry* entry : registry.refs_of_type(target.ref_prefix)) {
    if (!entry->saved_as.empty() || wanted.empty()) continue;
    if (fold_latin(entry->label) == wanted)
      return error{
          codes::not_a_ref, path.str(),
          fmt::format("{} takes a ref, not a name; '{}' is the label of {}", field, detail::echoed(text), entry->ref),
          fmt::format("use the ref {}", entry->ref)};
  }
  return error{
      codes::not_a_ref, path.str(),
      fmt::format("{} takes a ref such as {}, got '{}'", field, ref_text(target.ref_prefix, 1), detail::echoed(text)),
      known_refs_hint(registry, target) +
          fmt::format("; to find rows by name, read {} with a name filter first", target.name)};
}

}  // namespace

result<std::string> resolve_row_ref(const value_scope& scope, const table& target, json_value value,
                                    const param_path& path, std::string_view field) {
  const auto& registry = scope.registry;
  const column* key_col = target.key_column();
  if (value.is_number() && key_col && key_col->type == column_type::integer)
    return raw_id_error(scope, target, value, path, field, fmt::format("the number {}", value.raw()));
  if (!value.is_string())
    return error{
        codes::invalid_value, path.str(),
        fmt::format("{} takes a ref such as {}, got {}", field, ref_text(target.ref_prefix, 1), value.kind_name()),
        known_refs_hint(registry, target)};
  const std::string_view text = value.str();
  if (text == kCurrentUserRef) {
    if (!keyed_by_user(target))
      return error{codes::invalid_value, path.str(),
                   fmt::format("me is the signed-in user, and {} does not hold user ids", field),
                   known_refs_hint(registry, target)};
    return current_user_key(scope, path, field);
  }

  if (auto name = parse_ref_name(text)) return known_ref_key(scope, target, text, *name, path, field);

  // A raw key is never sent: the model sees refs only, so a UUID or a
  // number it writes was invented, pasted, or copied from a place it should
  // not have seen, and another user's row id must not reach a filter.
  if (is_uuid_syntax(text)) return uuid_error(scope, target, value, path, field);
  if (key_col && key_col->type == column_type::integer && is_integer_key(text))
    return raw_id_error(scope, target, value, path, field, fmt::format("the id {}", text));
  if (key_col && key_col->type == column_type::text && known_raw_key(scope, target, value))
    return raw_id_error(scope, target, value, path, field, fmt::format("the key '{}'", detail::echoed(text)));

  if (looks_like_broken_uuid(text))
    return error{codes::invalid_uuid, path.str(),
                 fmt::format("'{}' is not a complete UUID (truncated or altered)", detail::echoed(text)),
                 "use the refs shown in context instead of UUIDs; " + known_refs_hint(registry, target)};

  return not_a_ref_error(scope, target, text, path, field);
}

namespace {

// A user id column (auth.users) takes `me`: other users' ids are never shown,
// so the model has nothing else to give.
result<std::string> user_id_value(const value_scope& scope, const column& col, json_value value,
                                  const param_path& path) {
  if (value.is_string() && value.str() == kCurrentUserRef) return current_user_key(scope, path, col.name);
  if (value.is_string() && is_uuid_syntax(value.str()))
    return error{codes::raw_id, path.str(),
                 fmt::format("{} holds user ids; the model gives me (the signed-in user), never a UUID", col.name),
                 fmt::format("{{\"field\": \"{}\", \"op\": \"=\", \"value\": \"me\"}}", col.name)};
  return invalid_value(
      path.str(), fmt::format("{} holds user ids and takes me (the signed-in user), got {}", col.name, shown(value)),
      fmt::format("{{\"field\": \"{}\", \"op\": \"=\", \"value\": \"me\"}}", col.name));
}

}  // namespace

result<scalar> check_filter_scalar(const value_scope& scope, const column& col, json_value value,
                                   const param_path& path) {
  if (!value.is_primitive())
    return invalid_value(path.str(), fmt::format("{} compares against one value, got {}", col.name, value.kind_name()),
                         "use op 'in' with a list, or 'contains' for array columns");
  if (value.is_string() && contains_nul(value.str())) return nul_error(path.str());
  if (const table* target = row_target(scope, col)) {
    auto key = resolve_row_ref(scope, *target, value, path, col.name);
    if (!key) return key.take_error();
    return scalar{col.type == column_type::integer ? scalar::kind::number : scalar::kind::text, std::move(*key)};
  }
  if (col.user_id) {
    auto me = user_id_value(scope, col, value, path);
    if (!me) return me.take_error();
    return scalar{scalar::kind::text, std::move(*me)};
  }
  switch (col.type) {
    case column_type::uuid:
      return invalid_value(path.str(), fmt::format("{} cannot be filtered on", col.name));
    case column_type::text_array:
    case column_type::uuid_array:
    case column_type::jsonb:
      return invalid_value(path.str(),
                           fmt::format("{} is {}; compare it with contains, contained_by or overlaps", col.name,
                                       column_type_name(col.type)),
                           fmt::format("{{\"field\": \"{}\", \"op\": \"contains\", \"value\": [\"…\"]}}", col.name));
    default:
      return check_plain_scalar(col, value, path);
  }
}

namespace {

// Filters refuse a NUL (PostgREST would truncate the value); payload text is
// model-written, so NULs are stripped there (docs/postgrest-wire.md#nul-bytes).
enum class nul_handling { refuse, strip };

result<std::vector<scalar>> collect_array_elements(const value_scope& scope, const column& col, json_value value,
                                                   const param_path& path, nul_handling nuls) {
  std::vector<scalar> out;
  std::optional<error> failure;
  auto check = [&](json_value item, const param_path& item_path) {
    if (failure) return;
    if (col.type == column_type::uuid_array) {
      auto uuid = resolve_row_ref(scope, *scope.dom.find_table(col.references), item, item_path, col.name);
      if (!uuid)
        failure = uuid.take_error();
      else
        out.push_back({scalar::kind::text, std::move(*uuid)});
      return;
    }
    if (item.is_number()) {
      out.push_back(text_scalar(item.raw()));
      return;
    }
    if (!item.is_string()) {
      failure = invalid_value(item_path.str(), fmt::format("{} holds strings, got {}", col.name, item.kind_name()));
      return;
    }
    std::string text(item.str());
    if (contains_nul(text)) {
      if (nuls == nul_handling::refuse) {
        failure = nul_error(item_path.str());
        return;
      }
      text.erase(std::remove(text.begin(), text.end(), '\0'), text.end());
    }
    auto ok = check_allowed(col, text, item_path);
    if (!ok)
      failure = ok.take_error();
    else
      out.push_back(text_scalar(text));
  };
  if (value.is_array())
    value.for_each_element([&](std::size_t i, json_value item) { check(item, path.element(i)); });
  else
    check(value, path);
  if (failure) return std::move(*failure);
  return out;
}

}  // namespace

result<std::vector<scalar>> check_array_elements(const value_scope& scope, const column& col, json_value value,
                                                 const param_path& path) {
  return collect_array_elements(scope, col, value, path, nul_handling::refuse);
}

namespace {

std::string uuid_json(const std::string& uuid) { return "\"" + uuid + "\""; }

// A payload value that is not a key, a ref or a user id, as the JSON its
// column's type takes.
result<std::string> typed_payload_value(const value_scope& scope, const column& col, json_value value,
                                        const param_path& path) {
  std::string out;
  json_writer w(out);
  switch (col.type) {
    case column_type::uuid:
      return invalid_value(path.str(), fmt::format("{} cannot be written", col.name));
    case column_type::text_array:
    case column_type::uuid_array: {
      if (!value.is_array() && !value.is_string())
        return invalid_value(path.str(),
                             fmt::format("{} expects {}, got {}", col.name, type_hint(col), value.kind_name()));
      auto items = collect_array_elements(scope, col, value, path, nul_handling::strip);
      if (!items) return items.take_error();
      w.begin_array();
      for (const auto& item : *items) w.string(item.text);
      w.end_array();
      return out;
    }
    case column_type::jsonb:
      w.value(value, true);
      return out;
    case column_type::text: {
      if (!value.is_string())
        return invalid_value(path.str(), fmt::format("{} expects a string, got {}", col.name, value.kind_name()));
      std::string text(value.str());
      text.erase(std::remove(text.begin(), text.end(), '\0'), text.end());
      auto ok = check_allowed(col, text, path);
      if (!ok) return ok.take_error();
      w.string(text);
      return out;
    }
    default: {
      auto checked = check_plain_scalar(col, value, path);
      if (!checked) return checked.take_error();
      if (checked->type == scalar::kind::text)
        w.string(checked->text);
      else
        w.raw_value(checked->text);
      return out;
    }
  }
}

}  // namespace

result<std::string> check_payload_value(const value_scope& scope, const column& col, json_value value,
                                        const param_path& path) {
  // A row's own key in its payload is a new value (a slug the model
  // chooses), not a ref; other key-holding columns take refs.
  const table* target = &col == scope.tbl.key_column() ? nullptr : row_target(scope, col);
  const bool empty_uuid = (col.type == column_type::uuid || target) && value.is_string() && value.str().empty();
  if (value.is_null() || empty_uuid) {
    if (col.required || !col.nullable)
      return invalid_value(path.str(), fmt::format("{} cannot be null", col.name),
                           fmt::format("give {}", type_hint(col)));
    return std::string("null");
  }
  if (target) {
    auto key = resolve_row_ref(scope, *target, value, path, col.name);
    if (!key) return key.take_error();
    if (col.type == column_type::integer) return std::move(*key);  // digits: a JSON number, every digit kept
    return uuid_json(*key);
  }
  if (col.user_id) {
    auto me = user_id_value(scope, col, value, path);
    if (!me) return me.take_error();
    return uuid_json(*me);
  }
  return typed_payload_value(scope, col, value, path);
}

}  // namespace detail
}  // namespace alfred
