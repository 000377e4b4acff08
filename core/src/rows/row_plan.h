#pragma once
// How to translate rows of one table (row_translation_stream.cpp reads the
// bytes): what each member becomes (dropped, copied, a ref, a foreign key
// with its label, an embed), found by key in a small open-addressing table,
// and which members feed the row's label.

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "row_translation_labels.h"

namespace alfred::detail {

// Equal bytes, compared a word at a time (member keys are short; a memcmp
// call per key showed in profiles).
inline bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  std::size_t i = 0;
  for (; i + 8 <= a.size(); i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return false;
  }
  for (; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// What a member of a row becomes. A user id (auth.users) is a foreign key
// to the domain's users (domain::users_table()).
enum class member_kind : std::uint8_t { drop, copy, row_id, foreign_key, uuid_array, embed };

struct member_rule {
  std::string name;
  member_kind kind = member_kind::drop;
  const table* target = nullptr;
  // For row_id and foreign_key: the type of the key it holds.
  column_type key_type = column_type::uuid;
  // `"name":`, and for foreign keys `,"_name_label":`.
  std::string key_text;
  std::string label_key_text;
  // Index into the row's label values when the label reads this column.
  int label_slot = -1;
};

// How to translate rows of one table: its members by name in a small
// open-addressing table (keys are looked up for every member of every row).
struct table_plan {
  const table* tbl = nullptr;
  std::vector<member_rule> rules;
  // The label: the columns it reads (a row's label values are indexed by
  // them) and how it is made of them.
  compiled_label label;
  // Every column the label reads is written to the model: a row's label is
  // in its own text.
  bool label_shown = true;
  // For a table labelled by its key (table::labelled_by_key: roles by name),
  // the member its rows show the key's text under (`,"_name_label":`); empty
  // for every other table.
  std::string own_label_key_text;
  // A member key's text holds a UUID (a column named like one): the
  // translation then scrubs its output.
  bool quotes_uuid = false;
  std::vector<std::uint16_t> slots;  // rule index + 1; 0 = empty; a power of two

  [[gnu::always_inline]] static std::uint32_t hash(std::string_view key) {
    const auto n = key.size();
    return std::uint32_t(n * 7 + static_cast<unsigned char>(key[0]) * 3 + static_cast<unsigned char>(key[n - 1]) * 5 +
                         static_cast<unsigned char>(key[n / 2]));
  }

  const member_rule* find(std::string_view key) const {
    if (key.empty()) return nullptr;
    const auto mask = std::uint32_t(slots.size() - 1);
    for (std::uint32_t at = hash(key) & mask;; at = (at + 1) & mask) {
      const std::uint16_t slot = slots[at];
      if (slot == 0) return nullptr;
      const member_rule& rule = rules[slot - 1];
      if (same_text(rule.name, key)) return &rule;
    }
  }

  // Fills `slots` at most a quarter full, so a miss ends after a probe or two.
  void index() {
    std::size_t size = 64;
    while (size < rules.size() * 4) size *= 2;
    slots.assign(size, 0);
    const auto mask = std::uint32_t(size - 1);
    for (std::size_t i = 0; i < rules.size(); ++i) {
      std::uint32_t at = hash(rules[i].name) & mask;
      while (slots[at] != 0) at = (at + 1) & mask;
      slots[at] = std::uint16_t(i + 1);
    }
  }
};

/// The plan for rows of `tbl` (made once per table by parse_domain: table_plans).
std::unique_ptr<table_plan> make_plan(const domain& dom, const table& tbl);

}  // namespace alfred::detail
