#pragma once
// Shared pieces of the fuzz targets: the kitchen domain, a registry with a
// few refs of every kind, and the checks several targets make. A broken
// invariant aborts with a message, which libFuzzer reports as a crash and
// keeps the input that caused it.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/postgrest/request.h"
#include "alfred/registry/registry.h"
#include "alfred/uuid/uuid.h"
#include "domain_packs.h"

namespace alfred::fuzz {

using nlohmann::json;

/// Reports a broken invariant and stops: libFuzzer saves the input.
[[noreturn]] inline void fail(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "\nFUZZ INVARIANT BROKEN: %.*s\n", int(what.size()), what.data());
  if (!detail.empty()) std::fprintf(stderr, "%.*s\n", int(std::min<std::size_t>(detail.size(), 4000)), detail.data());
  std::abort();
}

inline void check(bool ok, std::string_view what, std::string_view detail = {}) {
  if (!ok) fail(what, detail);
}

inline const domain& kitchen() {
  static const domain dom = [] {
    std::string_view json;
    for (const auto& entry : kDomainPacks)
      if (entry.name == "kitchen/domain") json = entry.text;
    auto parsed = parse_domain(json);
    if (!parsed) fail("the kitchen domain does not load", parsed.err().message);
    return std::move(parsed).value();
  }();
  return dom;
}

inline constexpr const char* kAlice = "6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11";
inline constexpr const char* kRecipe1 = "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61";
inline constexpr const char* kRecipe2 = "0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c22";
inline constexpr const char* kInv1 = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51";
inline constexpr const char* kMilk = "11111111-2222-4333-8444-555555555501";
inline constexpr const char* kMeal1 = "7d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e01";
inline constexpr const char* kSaved = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c01";

/// recipe_1 (Butter Chicken), recipe_2 (Cod Curry, deleted), inv_1 (milk),
/// ing_1 (milk, catalog), meal_1, gen_recipe_1 (pending), gen_recipe_2
/// (saved as recipe_3), at turn 2.
inline const ref_registry& sample_registry() {
  static const ref_registry reg = [] {
    ref_registry r;
    r.set_turn(1);
    r.register_row("recipes", "recipe", kRecipe1, ref_action::read, "Butter Chicken");
    r.register_row("recipes", "recipe", kRecipe2, ref_action::read, "Cod Curry");
    r.register_row("inventory", "inv", kInv1, ref_action::read, "milk");
    r.register_row("ingredients", "ing", kMilk, ref_action::linked, "milk");
    r.register_row("meal_plans", "meal", kMeal1, ref_action::created, "Feb 9 [dinner]");
    r.register_generated("recipes", "recipe", R"({"name":"Thai Basil Chicken","cuisine":"thai"})",
                         "Thai Basil Chicken");
    r.register_generated("recipes", "recipe", R"({"name":"Dal"})", "Dal");
    if (!r.promote("gen_recipe_2", kSaved, "Dal")) fail("gen_recipe_2 does not promote");
    r.mark("recipe_2", ref_action::deleted);
    r.set_turn(2);
    return r;
  }();
  return reg;
}

inline request_options alice_options() {
  request_options opts;
  opts.base_url = "http://127.0.0.1:3000";
  opts.user_id = kAlice;
  opts.access_token = "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl";
  opts.api_key = "anon-key";
  return opts;
}

/// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or
/// code points above U+10FFFF), as TextEncoder always produces.
inline bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = 0;
    unsigned cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1, cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n >= text.size()) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(text[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n + 1;
  }
  return true;
}

/// The first 8-4-4-4-12 hex run in `text` (either case), or "".
inline std::string_view find_uuid(std::string_view text) {
  for (std::size_t dash = text.find('-'); dash != std::string_view::npos; dash = text.find('-', dash + 1)) {
    if (dash < 8 || dash + 28 > text.size()) continue;
    const auto candidate = text.substr(dash - 8, 36);
    if (is_uuid_syntax(candidate)) return candidate;
  }
  return {};
}

/// Calls `f(uuid)` for every 8-4-4-4-12 hex run in `text`, overlapping ones too.
template <class F>
void for_each_uuid(std::string_view text, F&& f) {
  for (std::size_t dash = text.find('-'); dash != std::string_view::npos; dash = text.find('-', dash + 1)) {
    if (dash < 8 || dash + 28 > text.size()) continue;
    const auto candidate = text.substr(dash - 8, 36);
    if (is_uuid_syntax(candidate)) f(candidate);
  }
}

/// nlohmann's reading of `text`: nothing when it rejects it, or when the text
/// holds a NUL byte (never valid JSON, but nlohmann takes it for the end of
/// the input and reads what came before) or starts with a byte order mark
/// (which nlohmann skips and JSON.parse refuses). `number_overflow`
/// is set for numbers beyond a double (JSON.parse reads them as Infinity,
/// nlohmann refuses them); `duplicate_keys` when an object repeats a key.
struct reference_parse {
  std::optional<json> value;
  bool number_overflow = false;
  bool duplicate_keys = false;
  /// The deepest nesting nlohmann reached (1 for `[]`).
  std::size_t depth = 0;
  /// False when nlohmann was not asked (NUL byte, byte order mark).
  bool asked = false;
};

inline reference_parse parse_reference(std::string_view text) {
  reference_parse out;
  if (text.find('\0') != std::string_view::npos || text.substr(0, 3) == "\xEF\xBB\xBF") return out;
  out.asked = true;
  std::vector<std::vector<std::string>> keys;
  std::size_t depth = 0;
  auto callback = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        keys.emplace_back();
        [[fallthrough]];
      case json::parse_event_t::array_start:
        out.depth = std::max(out.depth, ++depth);
        break;
      case json::parse_event_t::object_end:
        keys.pop_back();
        [[fallthrough]];
      case json::parse_event_t::array_end:
        --depth;
        break;
      case json::parse_event_t::key: {
        auto& seen = keys.back();
        const auto& key = parsed.get_ref<const std::string&>();
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) out.duplicate_keys = true;
        seen.push_back(key);
        break;
      }
      default:
        break;
    }
    return true;
  };
  try {
    out.value = json::parse(text.begin(), text.end(), callback);
  } catch (const json::out_of_range& e) {
    out.number_overflow = e.id == 406;
  } catch (const json::exception&) {
  }
  return out;
}

/// Whether `text` is one JSON number: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
inline bool is_json_number(std::string_view text) {
  std::size_t i = 0;
  const auto digits = [&]() {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (i < text.size() && text[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return false;
  }
  if (i < text.size() && text[i] == '.' && (++i, digits() == 0)) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

/// `text` with every number beyond a double (outside strings) replaced by
/// 0, so that nlohmann reads what JSON.parse reads as Infinity and the checks
/// on the rest of the value still run. A run of number characters that is
/// not one whole number (`1e999e5`) is left as it is, so text that is not
/// JSON stays text that is not JSON.
inline std::string without_overflowing_numbers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        in_string = false;
      ++i;
    } else if (c == '"') {
      in_string = true;
      out += c;
      ++i;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i + 1;
      while (end < text.size() && std::strchr("0123456789.eE+-", text[end]) && text[end] != '\0') ++end;
      const std::string number(text.substr(i, end - i));
      out += is_json_number(number) && std::isinf(std::strtod(number.c_str(), nullptr)) ? std::string("0") : number;
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace alfred::fuzz
