#include "values.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "../json/echo.h"
#include "../json/format.h"
#include "../json/text.h"
#include "alfred/domain/ref_format.h"
#include "alfred/uuid/uuid.h"
#include "value_refs.h"

namespace alfred {

namespace detail {
namespace {

std::string lower(std::string_view text) { return trimmed_lower(text, ""); }

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
      return "an array of strings such as [\"first\", \"second\"]";
    case column_type::uuid_array:
      return "an array of refs";
    case column_type::jsonb:
      return "a JSON object";
    case column_type::uuid:
      return "a ref";
    case column_type::text:
      return "a string";
    case column_type::tsvector:
      return "words to find with op search";
  }
  return "a value";
}

// A text as its column takes it: one of the allowed values, and never holding
// `<id>` (a key the model was not shown).
status check_allowed(const column& col, std::string_view text, const param_path& path) {
  if (text.find("<id>") != std::string_view::npos) return hidden_key_error(path.str());
  if (col.allowed_values.empty() ||
      std::find(col.allowed_values.begin(), col.allowed_values.end(), text) != col.allowed_values.end())
    return ok_status();
  return invalid_value(path.str(),
                       textfmt::format("'{}' is not an allowed value for {}", detail::echoed(text), col.name),
                       textfmt::format("use one of: {}", textfmt::join(col.allowed_values, ", ")));
}

std::string shown(json_value value) {
  return value.is_string() ? textfmt::format("'{}'", detail::echoed(value.str())) : std::string(value.kind_name());
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
    return invalid_value(path.str(), textfmt::format("{} expects {}, got {}", col.name, type_hint(col), shown(value)),
                         textfmt::format("give {}", type_hint(col)));
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

error hidden_key_error(std::string path) {
  return invalid_value(std::move(path), "<id> is a key never shown: it cannot be sent",
                       "leave it out, or give the row's ref");
}

status check_sent_text(std::string_view text, const param_path& path) {
  if (contains_nul(text)) return nul_error(path.str());
  if (text.find("<id>") != std::string_view::npos) return hidden_key_error(path.str());
  return ok_status();
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
  const int year = two_digits(text, 0) * 100 + two_digits(text, 2);
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

namespace {

// A user id column (auth.users) takes `me`, or another user's ref (`user_2`):
// a foreign key to the domain's users.
result<std::string> user_id_value(const value_scope& scope, const column& col, json_value value,
                                  const param_path& path) {
  if (const table* users = scope.dom.users_table()) return resolve_row_ref(scope, *users, value, path, col.name);
  return invalid_value(path.str(), textfmt::format("{} holds user ids, which this domain has no refs for", col.name));
}

}  // namespace

result<scalar> check_filter_scalar(const value_scope& scope, const column& col, json_value value,
                                   const param_path& path) {
  if (!value.is_primitive())
    return invalid_value(path.str(),
                         textfmt::format("{} compares against one value, got {}", col.name, value.kind_name()),
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
      return invalid_value(path.str(), textfmt::format("{} cannot be filtered on", col.name));
    case column_type::text_array:
    case column_type::uuid_array:
    case column_type::jsonb:
      return invalid_value(
          path.str(),
          textfmt::format("{} is {}; compare it with contains, contained_by or overlaps", col.name,
                          column_type_name(col.type)),
          textfmt::format("{{\"field\": \"{}\", \"op\": \"contains\", \"value\": [\"…\"]}}", col.name));
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
      failure = invalid_value(item_path.str(), textfmt::format("{} holds strings, got {}", col.name, item.kind_name()));
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
      return invalid_value(path.str(), textfmt::format("{} cannot be written", col.name));
    case column_type::text_array:
    case column_type::uuid_array: {
      if (!value.is_array() && !value.is_string())
        return invalid_value(path.str(),
                             textfmt::format("{} expects {}, got {}", col.name, type_hint(col), value.kind_name()),
                             textfmt::format("give {} (one string is taken as a list of one)", type_hint(col)));
      auto items = collect_array_elements(scope, col, value, path, nul_handling::strip);
      if (!items) return items.take_error();
      w.begin_array();
      for (const auto& item : *items) w.string(item.text);
      w.end_array();
      return out;
    }
    case column_type::jsonb: {
      status written = write_json_with_keys(w, scope, value, path, true);
      if (!written) return written.take_error();
      return out;
    }
    case column_type::text: {
      if (!value.is_string())
        return invalid_value(path.str(), textfmt::format("{} expects a string, got {}", col.name, value.kind_name()),
                             textfmt::format("give it as text: \"{}\"", detail::echoed(value.raw())));
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
  // chooses), not a ref, unless it is another table's key (a one-to-one
  // table's): then the parent row's ref. Other key-holding columns take refs.
  const bool own_key = &col == scope.tbl.key_column();
  const table* target = !own_key ? row_target(scope, col)
                        : col.references.empty() || col.references == scope.tbl.name
                            ? nullptr
                            : scope.dom.find_table(col.references);
  const bool empty_uuid = (col.type == column_type::uuid || target) && value.is_string() && value.str().empty();
  if (value.is_null() || empty_uuid) {
    if (col.required || !col.nullable)
      return invalid_value(path.str(), textfmt::format("{} cannot be null", col.name),
                           textfmt::format("give {}", type_hint(col)));
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

result<std::string> check_fixed_value(const column& col, std::string_view json, const param_path& path) {
  auto doc = json_document::parse(json);
  const std::string where = path.str();
  if (!doc)
    return error{codes::invalid_option, where, textfmt::format("the app's value for {} is not JSON", col.name), ""};
  const json_value value = doc->root();
  const bool uuid = col.type == column_type::uuid;
  const bool fits = value.is_null()                    ? col.nullable
                    : uuid                             ? value.is_string() && is_uuid_syntax(value.str())
                    : col.type == column_type::integer ? value.is_integer()
                    : col.type == column_type::numeric ? value.is_number()
                    : col.type == column_type::boolean ? value.is_bool()
                    : col.type == column_type::jsonb   ? true
                    : col.type == column_type::text_array || col.type == column_type::uuid_array ? value.is_array()
                                                                                                 : value.is_string();
  if (!fits)
    return error{codes::invalid_option, where,
                 textfmt::format("the app's value for {} ({}) is not a {} value", col.name, value.kind_name(),
                                 column_type_name(col.type)),
                 "context values are the app's own: give each as the column stores it (a uuid as its text)"};
  if (uuid) return uuid_json(canonical_uuid(value.str()));
  return std::string(value.raw());
}

}  // namespace detail
}  // namespace alfred
