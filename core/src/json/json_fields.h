#pragma once
// The typed object-field reader every hand-written reader of the core shares
// (tool-call params and filters, request and execution options, the domain,
// the prompt input, query records, decisions, registry states). It reads an
// object's members in one pass into slots named by key, says which key it
// does not know, and reads a member as text, a whole number, a flag or a
// list, telling "absent" from "of the wrong type". How an error is worded
// (its code, path, message and hint) stays with each reader: they answer
// different people (a model, a developer, a stored state).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/json/json.h"

namespace alfred::detail {

/// What reading one member found.
enum class field_state : std::uint8_t {
  /// Not there, or null (JSON null reads as absent in every input of the core).
  absent,
  ok,
  /// There, but not of the type asked for (the reader words the error).
  wrong_type,
};

/// A member of `object` that is there and not null.
inline std::optional<json_value> present_member(json_value object, std::string_view key) {
  auto found = object.find(key);
  if (!found || found->is_null()) return std::nullopt;
  return found;
}

/// The first key of `object` that is none of `keys`.
inline std::optional<std::string_view> unknown_key(json_value object, std::span<const std::string_view> keys) {
  std::optional<std::string_view> found;
  object.for_each_member([&](std::string_view key, json_value) {
    if (found) return;
    for (std::string_view known : keys)
      if (known == key) return;
    found = key;
  });
  return found;
}

/// Reads `value` as text.
inline field_state read_text(std::optional<json_value> value, std::string_view& out) {
  if (!value || value->is_null()) return field_state::absent;
  if (!value->is_string()) return field_state::wrong_type;
  out = value->str();
  return field_state::ok;
}

/// Reads `value` as a whole number written without fraction or exponent,
/// of at most 2^53 (what JavaScript numbers hold exactly).
inline field_state read_whole_number(std::optional<json_value> value, long long& out) {
  if (!value || value->is_null()) return field_state::absent;
  auto n = value->as_integer();
  if (!n) return field_state::wrong_type;
  out = *n;
  return field_state::ok;
}

/// Reads `value` as true or false.
inline field_state read_flag(std::optional<json_value> value, bool& out) {
  if (!value || value->is_null()) return field_state::absent;
  if (!value->is_bool()) return field_state::wrong_type;
  out = value->as_bool();
  return field_state::ok;
}

/// Reads `value` as an array.
inline field_state read_list(std::optional<json_value> value, json_value& out) {
  if (!value || value->is_null()) return field_state::absent;
  if (!value->is_array()) return field_state::wrong_type;
  out = *value;
  return field_state::ok;
}

/// Reads `value` as an array of strings (copied into `out`).
inline field_state read_text_list(std::optional<json_value> value, std::vector<std::string>& out) {
  json_value list;
  const field_state state = read_list(value, list);
  if (state != field_state::ok) return state;
  bool all_text = true;
  list.for_each_element([&](std::size_t, json_value item) {
    all_text = all_text && item.is_string();
    if (all_text) out.emplace_back(item.str());
  });
  return all_text ? field_state::ok : field_state::wrong_type;
}

/// The members of one JSON object under the keys a reader knows (at most
/// kMaxKeys), read in one pass (a repeated key gives its last value, as
/// json_value::find does). Borrows the object's document and `keys`, which
/// must outlive it.
///
///     static constexpr std::array<std::string_view, 2> kKeys{"role", "text"};
///     object_fields fields(item, kKeys);
///     if (fields.unknown()) return error{…, "unknown key '" + *fields.unknown() + "'"};
///     std::string_view text;
///     if (read_text(fields["text"], text) == field_state::wrong_type) return error{…};
class object_fields {
 public:
  static constexpr std::size_t kMaxKeys = 16;

  object_fields(json_value object, std::span<const std::string_view> keys)
      : keys_(keys.first(std::min(keys.size(), kMaxKeys))) {
    object.for_each_member([&](std::string_view key, json_value value) {
      const std::size_t slot = index_of(key);
      if (slot < keys_.size()) {
        values_[slot] = value;
        present_ |= 1u << slot;
      } else if (!unknown_) {
        unknown_ = key;
      }
    });
  }

  /// The first key of the object that is none of the reader's keys.
  const std::optional<std::string_view>& unknown() const { return unknown_; }

  /// The member under `key` (one of the reader's keys) as given, null
  /// included; nothing when the object does not have it.
  std::optional<json_value> operator[](std::string_view key) const {
    const std::size_t slot = index_of(key);
    if (slot >= keys_.size() || !(present_ & (1u << slot))) return std::nullopt;
    return values_[slot];
  }

  /// Whether the object has `key` with a value other than null.
  bool has(std::string_view key) const {
    const auto value = (*this)[key];
    return value && !value->is_null();
  }

 private:
  // Keys are short and few: their length and first byte tell most apart.
  std::size_t index_of(std::string_view key) const {
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      const std::string_view known = keys_[i];
      if (known.size() == key.size() && (key.empty() || known[0] == key[0]) && known == key) return i;
    }
    return keys_.size();
  }

  std::span<const std::string_view> keys_;
  std::array<json_value, kMaxKeys> values_;
  std::uint32_t present_ = 0;
  std::optional<std::string_view> unknown_;
};

/// `"a, b, c"`: a reader's keys, for hints that list what is allowed.
inline std::string key_list(std::span<const std::string_view> keys) {
  std::string out;
  for (std::string_view key : keys) out.append(out.empty() ? "" : ", ").append(key);
  return out;
}

}  // namespace alfred::detail
