// The registry's hot half: lookups by ref and UUID, registration and
// batches. Row translation calls these for every id and foreign key of a
// response; serialization stays in registry.cpp.

#include <charconv>

#include "alfred/registry.h"

namespace alfred {
namespace {

// FNV-1a: refs are short ASCII strings.
std::uint32_t ref_hash(std::string_view ref) {
  std::uint32_t hash = 2166136261u;
  for (char c : ref) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
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

std::size_t ref_registry::find_index(uuid_bits uuid) const {
  const std::uint32_t at = by_uuid_.find(uuid_hash(uuid), [&](std::uint32_t i) { return uuid_bits_[i] == uuid; });
  return at == detail::entry_index::npos ? npos : at;
}

const ref_entry* ref_registry::find_by_uuid(std::string_view uuid) const {
  const auto bits = parse_uuid_bits(uuid);
  const std::size_t at = bits ? find_index(*bits) : npos;
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
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, ++it->second).ptr;
  std::string ref;
  ref.reserve((generated ? 4 : 0) + type.size() + 1 + std::size_t(end - digits));
  if (generated) ref += "gen_";
  ref += type;
  ref += '_';
  ref.append(digits, end);
  return ref;
}

ref_entry& ref_registry::add(ref_entry entry, uuid_bits uuid) {
  const auto index = std::uint32_t(entries_.size());
  by_ref_.insert(ref_hash(entry.ref), index);
  if (!entry.uuid.empty() && !entry.generated) by_uuid_.insert(uuid_hash(uuid), index);
  entries_.push_back(std::move(entry));
  uuid_bits_.push_back(uuid);
  return entries_.back();
}

void ref_registry::rebuild_indexes() {
  by_ref_.clear();
  by_uuid_.clear();
  for (std::uint32_t i = 0; i < entries_.size(); ++i) {
    by_ref_.insert(ref_hash(entries_[i].ref), i);
    if (!entries_[i].uuid.empty() && !entries_[i].generated) by_uuid_.insert(uuid_hash(uuid_bits_[i]), i);
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
  if (const std::size_t known = find_index(uuid); known != npos) {
    refresh(known, action, label);
    return known;
  }
  ref_entry entry;
  entry.ref = next_ref(type, false);
  if (entry.ref.empty()) return npos;
  entry.type = std::string(type);
  entry.table = std::string(table);
  entry.uuid = uuid_text(uuid);
  entry.label = capped_label(label);
  entry.action = action;
  entry.turn_created = entry.turn_last = turn_;
  add(std::move(entry), uuid);
  return entries_.size() - 1;
}

std::size_t ref_registry::register_linked_index(std::string_view table, std::string_view type, uuid_bits uuid) {
  if (const std::size_t known = find_index(uuid); known != npos) return known;
  return register_row_index(table, type, uuid, ref_action::linked, {});
}

std::string ref_registry::register_row(std::string_view table, std::string_view type, std::string_view raw_uuid,
                                       ref_action action, std::string_view label) {
  const std::size_t index =
      register_row_index(table, type, parse_uuid_bits(raw_uuid).value_or(uuid_bits{}), action, label);
  return index == npos ? std::string() : entries_[index].ref;
}

std::string ref_registry::register_linked(std::string_view table, std::string_view type, std::string_view uuid) {
  const std::size_t index = register_linked_index(table, type, parse_uuid_bits(uuid).value_or(uuid_bits{}));
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
