// The registry's hot half: lookups by ref and UUID, registration and
// batches. Row translation calls these for every id and foreign key of a
// response; serialization stays in registry.cpp.

#include <charconv>

#include "alfred/registry/registry.h"

namespace alfred {
namespace {

// FNV-1a: refs are short ASCII strings.
std::uint32_t ref_hash(std::string_view ref) {
  std::uint32_t hash = 2166136261u;
  for (char c : ref) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return hash;
}

// (type, key) for keys that are not UUIDs: `1` of one table is not `1` of another.
std::uint32_t key_hash(std::string_view type, std::string_view key) {
  std::uint32_t hash = ref_hash(type);
  hash = (hash ^ 0x1Fu) * 16777619u;
  for (char c : key) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  return hash;
}

}  // namespace

std::uint32_t ref_registry::find_ref_index(std::string_view ref) const {
  return by_ref_.find(ref_hash(ref), [&](std::uint32_t at) { return entries_[at].ref == ref; });
}

const ref_entry* ref_registry::find(std::string_view ref) const {
  const std::uint32_t at = find_ref_index(ref);
  return at == detail::entry_index::npos ? nullptr : &entries_[at];
}

std::size_t ref_registry::find_index(uuid_bits uuid, std::string_view type) const {
  const std::uint32_t at = by_uuid_.find(uuid_hash(uuid), [&](std::uint32_t i) {
    return uuid_bits_[i] == uuid && (type.empty() || entries_[i].type == type);
  });
  return at == detail::entry_index::npos ? npos : at;
}

std::size_t ref_registry::find_key_index(std::string_view type, std::string_view key) const {
  const std::uint32_t at = by_key_.find(key_hash(type, key), [&](std::uint32_t i) {
    const ref_entry& entry = entries_[i];
    return entry.key == key && entry.type == type;
  });
  return at == detail::entry_index::npos ? npos : at;
}

const ref_entry* ref_registry::find_by_key(std::string_view type, std::string_view key) const {
  const std::size_t at = find_key_index(type, key);
  return at == npos ? nullptr : &entries_[at];
}

const ref_entry* ref_registry::find_by_uuid(std::string_view uuid, std::string_view type) const {
  const auto bits = parse_uuid_bits(uuid);
  const std::size_t at = bits ? find_index(*bits, type) : npos;
  return at == npos ? nullptr : &entries_[at];
}

const ref_entry* ref_registry::find_by_uuid_preferring(std::string_view uuid, std::string_view type) const {
  const auto bits = parse_uuid_bits(uuid);
  if (!bits) return nullptr;
  std::size_t at = type.empty() ? npos : find_index(*bits, type);
  if (at == npos) at = find_index(*bits);
  return at == npos ? nullptr : &entries_[at];
}

const ref_entry* ref_registry::resolve(std::string_view ref) const {
  const ref_entry* entry = find(ref);
  if (entry && !entry->saved_as.empty()) return find(entry->saved_as);
  return entry;
}

std::string ref_registry::next_ref(std::string_view type, bool generated) {
  auto& counters = generated ? gen_counters_ : counters_;
  auto it = counters.find(type);
  if (it == counters.end()) it = counters.emplace(std::string(type), 0).first;
  if (it->second >= kMaxRefNumber) return {};
  return ref_text(type, ++it->second, generated);
}

ref_entry& ref_registry::add(ref_entry entry, uuid_bits uuid) {
  const auto index = std::uint32_t(entries_.size());
  by_ref_.insert(ref_hash(entry.ref), index);
  entries_.push_back(std::move(entry));
  uuid_bits_.push_back(uuid);
  index_key(index);
  return entries_.back();
}

// A regular ref's key goes in the index of its kind; a gen_ ref (pending,
// or an alias of the row that saved it) is found by its ref only.
void ref_registry::index_key(std::uint32_t index) {
  const ref_entry& entry = entries_[index];
  if (entry.key.empty() || entry.generated) return;
  if (entry.uuid_key)
    by_uuid_.insert(uuid_hash(uuid_bits_[index]), index);
  else
    by_key_.insert(key_hash(entry.type, entry.key), index);
}

void ref_registry::rebuild_indexes() {
  by_ref_.clear();
  by_uuid_.clear();
  by_key_.clear();
  for (std::uint32_t i = 0; i < entries_.size(); ++i) {
    by_ref_.insert(ref_hash(entries_[i].ref), i);
    index_key(i);
  }
}

void ref_registry::refresh(std::size_t index, ref_action action, std::string_view label) {
  ref_entry& entry = entries_[index];
  if (batch_open_ && index < batch_first_new_) undo_.push_back({index, entry.action, entry.turn_last, false, {}});
  entry.action = action;
  entry.turn_last = turn_;
  set_label(index, label);
}

void ref_registry::set_label(std::size_t index, std::string_view label) {
  ref_entry& entry = entries_[index];
  if (label.empty() || entry.label == label) return;
  std::string capped = capped_label(label);
  if (entry.label == capped) return;
  if (batch_open_ && index < batch_first_new_)
    undo_.push_back({index, entry.action, entry.turn_last, true, std::move(entry.label)});
  entry.label = std::move(capped);
}

std::size_t ref_registry::register_row_index(std::string_view table, std::string_view type, uuid_bits uuid,
                                             ref_action action, std::string_view label) {
  if (const std::size_t known = find_index(uuid, type); known != npos) {
    refresh(known, action, label);
    return known;
  }
  return add_row(table, type, uuid_text(uuid), true, uuid, action, label);
}

std::size_t ref_registry::register_linked_index(std::string_view table, std::string_view type, uuid_bits uuid) {
  if (const std::size_t known = find_index(uuid, type); known != npos) return known;
  return register_row_index(table, type, uuid, ref_action::linked, {});
}

std::size_t ref_registry::register_key_index(std::string_view table, std::string_view type, std::string_view key,
                                             ref_action action, std::string_view label) {
  if (const std::size_t known = find_key_index(type, key); known != npos) {
    refresh(known, action, label);
    return known;
  }
  return add_row(table, type, std::string(key), false, uuid_bits{}, action, label);
}

std::size_t ref_registry::add_row(std::string_view table, std::string_view type, std::string key, bool uuid_key,
                                  uuid_bits uuid, ref_action action, std::string_view label) {
  ref_entry entry;
  entry.ref = next_ref(type, false);
  if (entry.ref.empty()) return npos;
  entry.type = std::string(type);
  entry.table = std::string(table);
  entry.key = std::move(key);
  entry.uuid_key = uuid_key;
  entry.label = capped_label(label);
  entry.action = action;
  entry.turn_created = entry.turn_last = turn_;
  add(std::move(entry), uuid);
  return entries_.size() - 1;
}

std::size_t ref_registry::register_linked_key_index(std::string_view table, std::string_view type,
                                                    std::string_view key) {
  if (const std::size_t known = find_key_index(type, key); known != npos) return known;
  return register_key_index(table, type, key, ref_action::linked, {});
}

std::string ref_registry::register_row(std::string_view table, std::string_view type, std::string_view raw_uuid,
                                       ref_action action, std::string_view label) {
  const auto bits = parse_uuid_bits(raw_uuid);
  if (!bits) return {};
  const std::size_t index = register_row_index(table, type, *bits, action, label);
  return index == npos ? std::string() : entries_[index].ref;
}

std::string ref_registry::register_linked(std::string_view table, std::string_view type, std::string_view uuid) {
  const auto bits = parse_uuid_bits(uuid);
  if (!bits) return {};
  const std::size_t index = register_linked_index(table, type, *bits);
  return index == npos ? std::string() : entries_[index].ref;
}

std::string ref_registry::register_keyed_row(std::string_view table, std::string_view type, column_type key_type,
                                             std::string_view key, ref_action action, std::string_view label) {
  if (key_type == column_type::uuid) return register_row(table, type, key, action, label);
  if (key.empty()) return {};
  const std::size_t index = register_key_index(table, type, key, action, label);
  return index == npos ? std::string() : entries_[index].ref;
}

void ref_registry::begin_batch() {
  batch_open_ = true;
  batch_first_new_ = entries_.size();
  batch_counters_ = counters_;
  undo_.clear();
}

void ref_registry::commit_batch() {
  batch_open_ = false;
  undo_.clear();
}

void ref_registry::rollback_batch() {
  if (!batch_open_) return;
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    ref_entry& entry = entries_[it->index];
    entry.action = it->action;
    entry.turn_last = it->turn_last;
    if (it->label_changed) entry.label = std::move(it->label);
  }
  entries_.resize(batch_first_new_);
  uuid_bits_.resize(batch_first_new_);
  // A huge batch that failed must not keep its room (the WASM memory never
  // shrinks; freed room at least goes back to the allocator).
  if (entries_.capacity() > 2 * entries_.size() + 1024) {
    entries_.shrink_to_fit();
    uuid_bits_.shrink_to_fit();
  }
  counters_ = std::move(batch_counters_);
  rebuild_indexes();
  commit_batch();
}

}  // namespace alfred
