#include "alfred/registry/registry.h"

#include <algorithm>

#include "../json/echo.h"
#include "../json/format.h"
#include "../json/json_fields.h"
#include "../json/text.h"
#include "alfred/uuid/uuid.h"

namespace alfred {
namespace {

std::string normalized_label(std::string_view label) { return detail::trimmed_lower(label); }

error registry_full(std::string_view type) {
  return {codes::registry_full, "",
          textfmt::format("no ref number is left for {} (the limit is {} per type)", type, kMaxRefNumber),
          "start a new session: this registry cannot name more rows of this type"};
}

}  // namespace

std::string capped_label(std::string_view label) {
  // Fewer bytes than the limit means fewer code points too.
  if (label.size() <= kMaxLabelChars) return std::string(label);
  std::size_t points = 0;
  for (std::size_t i = 0; i < label.size(); ++i) {
    if ((static_cast<unsigned char>(label[i]) & 0xC0) == 0x80) continue;
    if (++points == kMaxLabelChars) {
      // `i` starts the last code point that fits: keep what comes before it
      // unless the label ends within that code point.
      std::size_t end = i + 1;
      while (end < label.size() && (static_cast<unsigned char>(label[end]) & 0xC0) == 0x80) ++end;
      if (end == label.size()) return std::string(label);
      return std::string(label.substr(0, i)) + "…";
    }
  }
  return std::string(label);
}

result<std::string> ref_registry::register_generated(std::string_view table, std::string_view type, std::string content,
                                                     std::string_view label) {
  ref_entry entry;
  entry.ref = next_ref(type, true);
  if (entry.ref.empty()) return registry_full(generated_ref_prefix(type));
  entry.type = std::string(type);
  entry.table = std::string(table);
  entry.label = capped_label(label);
  entry.action = ref_action::generated;
  entry.generated = true;
  entry.content = std::move(content);
  entry.turn_created = entry.turn_last = turn_;
  return add(std::move(entry), uuid_bits{}).ref;
}

status ref_registry::update_generated(std::string_view gen_ref, std::string content, std::string_view label) {
  const std::uint32_t at = find_ref_index(gen_ref);
  if (at == detail::entry_index::npos || !entries_[at].pending())
    return error{codes::unknown_ref, "", textfmt::format("{} is not a pending generated artifact", gen_ref), ""};
  ref_entry& entry = entries_[at];
  entry.content = std::move(content);
  if (!label.empty()) entry.label = capped_label(label);
  entry.turn_last = turn_;
  return ok_status();
}

bool is_integer_key(std::string_view text) {
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  if (text.empty() || text.size() > 20 || (text.size() > 1 && text.front() == '0')) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

result<std::string> ref_registry::promote(std::string_view gen_ref, std::string_view raw_key, std::string_view label,
                                          column_type key_type) {
  const bool uuid_key = key_type == column_type::uuid;
  if (uuid_key                           ? !is_uuid_syntax(raw_key)
      : key_type == column_type::integer ? !is_integer_key(raw_key)
                                         : raw_key.empty())
    return error{codes::invalid_uuid, "uuid",
                 textfmt::format("'{}' is not a {} key", detail::echoed(raw_key), column_type_name(key_type)),
                 "pass the key of the row PostgREST returned"};
  const std::string key = uuid_key ? canonical_uuid(raw_key) : std::string(raw_key);
  const std::uint32_t gen_index = find_ref_index(gen_ref);
  if (gen_index == detail::entry_index::npos || !entries_[gen_index].generated)
    return error{codes::unknown_ref, "", textfmt::format("{} is not a generated artifact", gen_ref), ""};
  if (!entries_[gen_index].pending())
    return error{codes::already_saved, "",
                 textfmt::format("{} was already saved as {}", gen_ref, entries_[gen_index].saved_as),
                 "refer to the saved row by its ref"};
  const std::string table = entries_[gen_index].table;
  const std::string type = entries_[gen_index].type;
  const std::string final_label = label.empty() ? entries_[gen_index].label : std::string(label);
  std::string saved = register_keyed_row(table, type, key_type, key, ref_action::created, final_label);
  if (saved.empty()) return registry_full(type);
  ref_entry& gen = entries_[gen_index];  // register_row may have reallocated
  gen.key = key;
  gen.uuid_key = uuid_key;
  if (uuid_key) uuid_bits_[gen_index] = *parse_uuid_bits(key);
  gen.saved_as = saved;
  gen.action = ref_action::created;
  gen.turn_saved = gen.turn_last = turn_;
  return saved;
}

const ref_entry* ref_registry::find_pending_by_label(std::string_view type, std::string_view label) const {
  const std::string wanted = normalized_label(capped_label(label));
  if (wanted.empty()) return nullptr;
  for (const auto& entry : entries_)
    if (entry.pending() && entry.type == type && normalized_label(entry.label) == wanted) return &entry;
  return nullptr;
}

void ref_registry::mark(std::string_view ref, ref_action action) {
  const std::uint32_t at = find_ref_index(ref);
  if (at == detail::entry_index::npos) return;
  entries_[at].action = action;
  entries_[at].turn_last = turn_;
}

bool ref_registry::claim_save(std::string_view gen_ref) {
  if (save_claimed(gen_ref)) return false;
  saves_in_flight_.emplace_back(gen_ref);
  return true;
}

void ref_registry::release_save(std::string_view gen_ref) {
  const auto at = std::find(saves_in_flight_.begin(), saves_in_flight_.end(), gen_ref);
  if (at != saves_in_flight_.end()) saves_in_flight_.erase(at);
}

bool ref_registry::save_claimed(std::string_view gen_ref) const {
  return std::find(saves_in_flight_.begin(), saves_in_flight_.end(), gen_ref) != saves_in_flight_.end();
}

std::optional<error> ref_registry::refused_user(std::string_view user) const {
  if (user_.empty() || user_ == user) return std::nullopt;
  if (!user.empty() && is_uuid_syntax(user_) && is_uuid_syntax(user) && canonical_uuid(user_) == canonical_uuid(user))
    return std::nullopt;
  return error{codes::state_of_another_user, "state",
               user.empty() ? "these refs are a signed-in user's, and no one is signed in now"
                            : "these refs are another signed-in user's",
               "sign in as the user these refs were made for, or start a new conversation (an act without that state)"};
}

namespace {

// A call's key as kept: short keys as they are, long ones (a call's JSON) as
// a 64-bit FNV-1a hash, which tells calls apart without storing them.
std::string uncertain_key(std::string_view key) {
  if (key.size() <= 64) return std::string(key);
  std::uint64_t hash = 14695981039346656037ull;
  for (char c : key) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return textfmt::format("#{:016x}", hash);
}

}  // namespace

const std::vector<std::string>* ref_registry::uncertain_ids(std::string_view key) const {
  const std::string wanted = uncertain_key(key);
  for (const auto& [k, ids] : uncertain_)
    if (k == wanted) return &ids;
  return nullptr;
}

void ref_registry::remember_uncertain(std::string_view key, std::vector<std::string> ids) {
  forget_uncertain(key);
  uncertain_.emplace_back(uncertain_key(key), std::move(ids));
  if (uncertain_.size() > kMaxUncertainCreates) uncertain_.erase(uncertain_.begin());
}

void ref_registry::forget_uncertain(std::string_view key) {
  const std::string wanted = uncertain_key(key);
  uncertain_.erase(
      std::remove_if(uncertain_.begin(), uncertain_.end(), [&](const auto& item) { return item.first == wanted; }),
      uncertain_.end());
}

bool ref_registry::refuses_joins(std::string_view table) const {
  return std::find(joins_refused_.begin(), joins_refused_.end(), table) != joins_refused_.end();
}

void ref_registry::note_refused_joins(std::string_view table) {
  if (table.empty() || refuses_joins(table)) return;
  joins_refused_.emplace_back(table);
  if (joins_refused_.size() > kMaxJoinsRefused) joins_refused_.erase(joins_refused_.begin());
}

void ref_registry::set_turn(int n) { turn_ = std::clamp(n, turn_, kMaxTurn); }

void ref_registry::end_turn() {
  for (auto& entry : entries_)
    if (entry.generated && !entry.pending()) entry.content.reset();
}

std::vector<const ref_entry*> ref_registry::refs_of_type(std::string_view type) const {
  std::vector<const ref_entry*> out;
  for (const auto& entry : entries_)
    if (entry.type == type) out.push_back(&entry);
  return out;
}

}  // namespace alfred
