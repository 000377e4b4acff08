#pragma once
// What the streaming row translator (row_translation_stream.cpp) keeps while
// it reads: keys read from the bytes, sets of (table, key) pairs and the
// label values of the rows still open.
//
// Included by that file alone. The unnamed namespace keeps these types and
// functions its own, so that the compiler inlines them as it did when they
// were written there: this is the hot path of every read.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/registry/entry_index.h"
#include "alfred/registry/registry.h"
#include "alfred/uuid/uuid_bits.h"
#include "row_plan.h"
#include "row_translation_labels.h"

namespace alfred::detail {
namespace {

// A key read from the bytes: a UUID's bits, or the text of another key
// (integer digits, text), which is unique only within its table.
struct row_key {
  bool is_uuid = true;
  uuid_bits bits;
  std::string_view text;
};

// Distinct (table, key) pairs in the order first added.
struct row_set {
  struct item {
    const table* tbl;
    bool is_uuid;
    uuid_bits bits;
    std::string text;
  };
  std::vector<item> rows;
  entry_index index;

  static std::uint32_t hash(const table* tbl, const row_key& key) {
    std::uint32_t h = std::uint32_t(reinterpret_cast<std::uintptr_t>(tbl) >> 3);
    if (key.is_uuid) return uuid_hash(key.bits) ^ h;
    for (char c : key.text) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h;
  }
  bool contains(const table* tbl, const row_key& key) const {
    return index.find(hash(tbl, key), [&](std::uint32_t at) {
      const item& it = rows[at];
      return it.tbl == tbl && it.is_uuid == key.is_uuid && (key.is_uuid ? it.bits == key.bits : it.text == key.text);
    }) != entry_index::npos;
  }
  void add(const table* tbl, const row_key& key) {
    if (contains(tbl, key)) return;
    index.insert(hash(tbl, key), std::uint32_t(rows.size()));
    rows.push_back({tbl, key.is_uuid, key.bits, key.is_uuid ? std::string() : std::string(key.text)});
  }
};

// The label values of one open row.
struct row_frame {
  const table_plan* plan = nullptr;
  std::size_t id_index = ref_registry::npos;
  bool has_id = false;
  uuid_bits id;
  bool id_is_uuid = true;
  std::string id_text;  // a key that is not a UUID (surveys; and a row labelled by its key)
  std::vector<std::string_view> values;
  std::vector<std::string> decoded;  // storage for values that had escapes
  // The foreign-key labels written in the row (output offsets: where the
  // member starts, where its quoted label starts, where it ends), so that
  // one that repeats the row's own label can be taken out when it closes.
  struct written_label {
    std::size_t from, label_from, to;
  };
  std::vector<written_label> fk_labels;

  void open(const table_plan& p) {
    plan = &p;
    id_index = ref_registry::npos;
    has_id = false;
    id_text.clear();
    fk_labels.clear();
    values.assign(p.label.names.size(), {});
    if (decoded.size() < values.size()) decoded.resize(values.size());
  }
};

}  // namespace
}  // namespace alfred::detail
