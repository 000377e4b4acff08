#include "alfred/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "../json/echo.h"
#include "../json/json_fields.h"
#include "../json/text.h"
#include "alfred/uuid.h"

namespace alfred {
namespace {

constexpr std::string_view kFormat = "alfred-act/registry";
// Version 2 added keys that are not UUIDs (`"key"` next to `"uuid"`);
// version 1 states, UUIDs only, restore unchanged.
constexpr int kVersion = 2;
constexpr int kOldestVersion = 1;

constexpr std::array<std::pair<ref_action, std::string_view>, 6> kActions{{
    {ref_action::read, "read"},
    {ref_action::created, "created"},
    {ref_action::updated, "updated"},
    {ref_action::deleted, "deleted"},
    {ref_action::generated, "generated"},
    {ref_action::linked, "linked"},
}};

std::optional<ref_action> parse_action(std::string_view name) {
  for (const auto& [action, action_name] : kActions)
    if (action_name == name) return action;
  return std::nullopt;
}

std::string normalized_label(std::string_view label) { return detail::trimmed_lower(label); }

error registry_full(std::string_view type) {
  return {codes::registry_full, "",
          fmt::format("no ref number is left for {} (the limit is {} per type)", type, kMaxRefNumber),
          "start a new session: this registry cannot name more rows of this type"};
}

error state_error(std::string path, std::string message) {
  return {codes::invalid_state, std::move(path), std::move(message),
          "pass a value produced by registry.toJSON(), or omit it to start a new session"};
}

}  // namespace

std::string_view ref_action_name(ref_action action) {
  for (const auto& [candidate, name] : kActions)
    if (candidate == action) return name;
  return "read";
}

std::optional<ref_action> parse_row_action(std::string_view name) {
  auto action = parse_action(name);
  if (action == ref_action::generated || action == ref_action::linked) return std::nullopt;
  return action;
}

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
    return error{codes::unknown_ref, "", fmt::format("{} is not a pending generated artifact", gen_ref), ""};
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
                 fmt::format("'{}' is not a {} key", detail::echoed(raw_key), column_type_name(key_type)),
                 "pass the key of the row PostgREST returned"};
  const std::string key = uuid_key ? canonical_uuid(raw_key) : std::string(raw_key);
  const std::uint32_t gen_index = find_ref_index(gen_ref);
  if (gen_index == detail::entry_index::npos || !entries_[gen_index].generated)
    return error{codes::unknown_ref, "", fmt::format("{} is not a generated artifact", gen_ref), ""};
  if (!entries_[gen_index].pending())
    return error{codes::already_saved, "",
                 fmt::format("{} was already saved as {}", gen_ref, entries_[gen_index].saved_as),
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

namespace {

// A call's key as kept: short keys as they are, long ones (a call's JSON) as
// a 64-bit FNV-1a hash, which tells calls apart without storing them.
std::string uncertain_key(std::string_view key) {
  if (key.size() <= 64) return std::string(key);
  std::uint64_t hash = 14695981039346656037ull;
  for (char c : key) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return fmt::format("#{:016x}", hash);
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

std::string ref_registry::to_json() const {
  std::string out;
  json_writer w(out);
  w.begin_object();
  w.key("format");
  w.string(kFormat);
  w.key("version");
  w.integer(kVersion);
  w.key("turn");
  w.integer(turn_);
  for (const auto* counters : {&counters_, &gen_counters_}) {
    w.key(counters == &counters_ ? "counters" : "gen_counters");
    w.begin_object();
    for (const auto& [type, n] : *counters) {
      w.key(type);
      w.integer(n);
    }
    w.end_object();
  }
  w.key("refs");
  w.begin_array();
  for (const auto& entry : entries_) {
    w.begin_object();
    w.key("ref");
    w.string(entry.ref);
    w.key("table");
    w.string(entry.table);
    w.key(entry.uuid_key ? "uuid" : "key");
    if (entry.key.empty())
      w.null();
    else
      w.string(entry.key);
    w.key("label");
    w.string(entry.label);
    w.key("action");
    w.string(ref_action_name(entry.action));
    w.key("turn_created");
    w.integer(entry.turn_created);
    w.key("turn_last");
    w.integer(entry.turn_last);
    if (entry.content) {
      w.key("content");
      w.raw_value(*entry.content);
    }
    if (!entry.saved_as.empty()) {
      w.key("saved_as");
      w.string(entry.saved_as);
      w.key("turn_saved");
      w.integer(entry.turn_saved);
    }
    w.end_object();
  }
  w.end_array();
  if (!uncertain_.empty()) {
    w.key("uncertain");
    w.begin_array();
    for (const auto& [key, ids] : uncertain_) {
      w.begin_object();
      w.key("key");
      w.string(key);
      w.key("ids");
      w.begin_array();
      for (const auto& id : ids) w.string(id);
      w.end_array();
      w.end_object();
    }
    w.end_array();
  }
  w.end_object();
  return out;
}

namespace {

// A whole number from 0 to kMaxTurn (a turn) at `key` of a state object.
result<long> state_number(json_value object, const char* key, const std::string& path) {
  long long n = -1;
  if (detail::read_whole_number(object.find(key), n) != detail::field_state::ok || n < 0 || n > kMaxTurn)
    return state_error(path + key, "must be a non-negative integer");
  return long(n);
}

}  // namespace

result<ref_registry> ref_registry::from_json(std::string_view state_json) {
  auto doc = json_document::parse(state_json);
  if (!doc) return state_error("", doc.err().message);
  const json_value state = doc->root();
  if (!state.is_object()) return state_error("", "a registry state must be a JSON object");
  auto format = state.find("format");
  if (!format || format->str() != kFormat) return state_error("format", fmt::format("expected \"{}\"", kFormat));
  auto version = state.find("version");
  if (!version || !version->as_integer()) return state_error("version", "is missing");
  if (*version->as_integer() < kOldestVersion || *version->as_integer() > kVersion)
    return error{codes::unsupported_state_version, "version",
                 fmt::format("registry state version {} is not supported (this build reads {} to {})", version->raw(),
                             kOldestVersion, kVersion),
                 "restore it with the alfred-act version that wrote it"};

  ref_registry reg;
  auto turn = state_number(state, "turn", "");
  if (!turn) return turn.take_error();
  reg.turn_ = int(*turn);

  for (const char* key : {"counters", "gen_counters"}) {
    auto counters = state.find(key);
    if (!counters || !counters->is_object()) return state_error(key, "must be an object");
    auto& target = std::string_view(key) == "counters" ? reg.counters_ : reg.gen_counters_;
    std::optional<error> failure;
    counters->for_each_member([&](std::string_view type, json_value n) {
      auto count = n.as_integer();
      if (!count || *count < 0 || *count > kMaxRefNumber)
        failure = state_error(fmt::format("{}.{}", key, type),
                              fmt::format("must be a whole number from 0 to {}", kMaxRefNumber));
      else
        target[std::string(type)] = long(*count);
    });
    if (failure) return std::move(*failure);
  }

  auto refs = state.find("refs");
  if (!refs || !refs->is_array()) return state_error("refs", "must be an array");
  std::vector<std::size_t> aliases;
  std::optional<error> failure;
  refs->for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    auto entry = parse_entry(reg, item, fmt::format("refs[{}]", i));
    if (!entry) {
      failure = entry.take_error();
      return;
    }
    if (!entry->saved_as.empty()) aliases.push_back(reg.entries_.size());
    const uuid_bits bits = entry->uuid_key ? parse_uuid_bits(entry->key).value_or(uuid_bits{}) : uuid_bits{};
    reg.add(std::move(*entry), bits);
  });
  if (failure) return std::move(*failure);
  if (auto uncertain = state.find("uncertain"); uncertain && !uncertain->is_null()) {
    if (!uncertain->is_array() || uncertain->size() > kMaxUncertainCreates)
      return state_error("uncertain", fmt::format("must be an array of at most {} creates", kMaxUncertainCreates));
    uncertain->for_each_element([&](std::size_t i, json_value item) {
      if (failure) return;
      const std::string where = fmt::format("uncertain[{}]", i);
      auto key = item.is_object() ? item.find("key") : std::nullopt;
      auto ids = item.is_object() ? item.find("ids") : std::nullopt;
      if (!key || !key->is_string() || key->str().empty() || key->str().size() > 64) {
        failure = state_error(where + ".key", "must be a key of at most 64 bytes");
        return;
      }
      std::vector<std::string> kept;
      if (ids && ids->is_array())
        ids->for_each_element([&](std::size_t, json_value id) {
          if (id.is_string() && is_uuid_syntax(id.str())) kept.push_back(canonical_uuid(id.str()));
        });
      if (!ids || !ids->is_array() || kept.size() != ids->size() || kept.empty()) {
        failure = state_error(where + ".ids", "must be a non-empty array of UUIDs");
        return;
      }
      reg.uncertain_.emplace_back(std::string(key->str()), std::move(kept));
    });
    if (failure) return std::move(*failure);
  }
  for (std::size_t index : aliases) {
    const ref_entry& gen = reg.entries_[index];
    const ref_entry* saved = reg.find(gen.saved_as);
    if (!saved || saved->generated || saved->key != gen.key || saved->uuid_key != gen.uuid_key)
      return state_error(fmt::format("refs[{}].saved_as", index),
                         fmt::format("{} must name a ref holding the same key", gen.saved_as));
  }
  return reg;
}

result<ref_entry> ref_registry::parse_entry(const ref_registry& reg, json_value item, const std::string& where) {
  const std::string path = where + ".";
  if (!item.is_object()) return state_error(where, "must be an object");
  auto str_field = [&](const char* key) -> std::optional<std::string> {
    std::string_view text;
    if (detail::read_text(item.find(key), text) != detail::field_state::ok) return std::nullopt;
    return std::string(text);
  };
  auto int_field = [&](const char* key) -> result<int> {
    auto n = state_number(item, key, path);
    if (!n) return n.take_error();
    return int(*n);
  };
  ref_entry entry;
  auto ref = str_field("ref");
  auto name = ref ? parse_ref_name(*ref) : std::nullopt;
  if (!name)
    return state_error(path + "ref", fmt::format("must be a ref: {} or {}", ref_pattern("<prefix>"),
                                                 ref_pattern(generated_ref_prefix("<prefix>"))));
  entry.ref = *ref;
  entry.type = name->prefix;
  entry.generated = name->generated;
  if (reg.find(entry.ref)) return state_error(path + "ref", entry.ref + " appears twice");
  const auto& counters = entry.generated ? reg.gen_counters_ : reg.counters_;
  auto counter = counters.find(entry.type);
  if (counter == counters.end() || counter->second < name->number)
    return state_error(path + "ref", fmt::format("{} is beyond its counter (a number would be reused)", entry.ref));
  auto table = str_field("table");
  if (!table || table->empty()) return state_error(path + "table", "must be a table name");
  entry.table = *table;
  auto uuid = item.find("uuid");
  auto key = item.find("key");
  if (uuid && key) return state_error(path + "key", "a ref holds a uuid or a key, not both");
  if (uuid && !uuid->is_null()) {
    if (!uuid->is_string() || !is_uuid_syntax(uuid->str())) return state_error(path + "uuid", "must be a UUID or null");
    entry.key = canonical_uuid(uuid->str());
  } else if (key && !key->is_null()) {
    if (!key->is_string() || key->str().empty()) return state_error(path + "key", "must be a non-empty string or null");
    entry.key = std::string(key->str());
    entry.uuid_key = false;
  } else if (!entry.generated) {
    return state_error(path + "uuid", "a database ref needs its key (uuid or key)");
  }
  if (!entry.generated &&
      (entry.uuid_key ? reg.find_by_uuid(entry.key) != nullptr : reg.find_by_key(entry.type, entry.key) != nullptr))
    return state_error(path + (entry.uuid_key ? "uuid" : "key"), "this key already has a ref");
  auto label = str_field("label");
  if (!label) return state_error(path + "label", "must be a string");
  entry.label = capped_label(*label);
  auto action = str_field("action");
  auto parsed_action = action ? parse_action(*action) : std::nullopt;
  if (!parsed_action)
    return state_error(path + "action", "must be one of read, created, updated, deleted, generated, linked");
  entry.action = *parsed_action;
  auto created = int_field("turn_created");
  if (!created) return created.take_error();
  auto last = int_field("turn_last");
  if (!last) return last.take_error();
  entry.turn_created = *created;
  entry.turn_last = *last;
  if (auto content = item.find("content")) {
    if (!entry.generated) return state_error(path + "content", "only generated refs hold content");
    entry.content = std::string(content->raw());
  }
  if (auto saved_as = str_field("saved_as")) {
    if (!entry.generated || entry.key.empty())
      return state_error(path + "saved_as", "only saved generated refs have saved_as");
    auto saved_turn = int_field("turn_saved");
    if (!saved_turn) return saved_turn.take_error();
    entry.turn_saved = *saved_turn;
    entry.saved_as = *saved_as;
  } else if (entry.generated && !entry.key.empty()) {
    return state_error(path + "saved_as", "a saved generated ref must name its saved row");
  }
  return entry;
}

}  // namespace alfred
