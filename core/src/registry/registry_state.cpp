// The registry's state as JSON: what `to_json` writes and `from_json`
// restores (counters, refs with their keys, labels and history, uncertain
// creates, tables that refuse joins), every field of a restored state
// checked before it is used; and the action names that state is written with.
#include <array>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "../json/format.h"
#include "../json/json_fields.h"
#include "alfred/domain/domain.h"
#include "alfred/domain/ref_format.h"
#include "alfred/json/json.h"
#include "alfred/registry/registry.h"
#include "alfred/uuid/uuid.h"

namespace alfred {
namespace {

using counter_map = std::map<std::string, long, std::less<>>;
using uncertain_list = std::vector<std::pair<std::string, std::vector<std::string>>>;

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

namespace {

void write_counters(json_writer& w, std::string_view key, const counter_map& counters) {
  w.key(key);
  w.begin_object();
  for (const auto& [type, n] : counters) {
    w.key(type);
    w.integer(n);
  }
  w.end_object();
}

void write_entry(json_writer& w, const ref_entry& entry) {
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

void write_uncertain(json_writer& w, const uncertain_list& uncertain) {
  if (uncertain.empty()) return;
  w.key("uncertain");
  w.begin_array();
  for (const auto& [key, ids] : uncertain) {
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

void write_joins_refused(json_writer& w, const std::vector<std::string>& tables) {
  if (tables.empty()) return;
  w.key("joins_refused");
  w.begin_array();
  for (const auto& table : tables) w.string(table);
  w.end_array();
}

}  // namespace

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
  if (!user_.empty()) {
    w.key("user");
    w.string(user_);
  }
  write_counters(w, "counters", counters_);
  write_counters(w, "gen_counters", gen_counters_);
  w.key("refs");
  w.begin_array();
  for (const auto& entry : entries_) write_entry(w, entry);
  w.end_array();
  write_uncertain(w, uncertain_);
  write_joins_refused(w, joins_refused_);
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

// The format's name and a version this build reads.
status check_format(json_value state) {
  auto format = state.find("format");
  if (!format || format->str() != kFormat) return state_error("format", textfmt::format("expected \"{}\"", kFormat));
  auto version = state.find("version");
  if (!version || !version->as_integer()) return state_error("version", "is missing");
  if (*version->as_integer() < kOldestVersion || *version->as_integer() > kVersion)
    return error{codes::unsupported_state_version, "version",
                 textfmt::format("registry state version {} is not supported (this build reads {} to {})",
                                 version->raw(), kOldestVersion, kVersion),
                 "restore it with the alfred-act version that wrote it"};
  return ok_status();
}

// `counters` or `gen_counters`: the last ref number of each prefix.
status read_counters(json_value state, const char* key, counter_map& target) {
  auto counters = state.find(key);
  if (!counters || !counters->is_object()) return state_error(key, "must be an object");
  std::optional<error> failure;
  counters->for_each_member([&](std::string_view type, json_value n) {
    auto count = n.as_integer();
    if (!count || *count < 0 || *count > kMaxRefNumber)
      failure = state_error(textfmt::format("{}.{}", key, type),
                            textfmt::format("must be a whole number from 0 to {}", kMaxRefNumber));
    else
      target[std::string(type)] = long(*count);
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

// `uncertain`: creates whose outcome is unknown, by call key, with the ids
// they sent.
status read_uncertain(json_value state, uncertain_list& target) {
  auto uncertain = state.find("uncertain");
  if (!uncertain || uncertain->is_null()) return ok_status();
  if (!uncertain->is_array() || uncertain->size() > kMaxUncertainCreates)
    return state_error("uncertain", textfmt::format("must be an array of at most {} creates", kMaxUncertainCreates));
  std::optional<error> failure;
  uncertain->for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    const std::string where = textfmt::format("uncertain[{}]", i);
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
    target.emplace_back(std::string(key->str()), std::move(kept));
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

// `joins_refused`: the names of tables (refuses_joins), each once.
status read_joins_refused(json_value state, ref_registry& reg) {
  auto tables = state.find("joins_refused");
  if (!tables || tables->is_null()) return ok_status();
  if (!tables->is_array() || tables->size() > kMaxJoinsRefused)
    return state_error("joins_refused",
                       textfmt::format("must be an array of at most {} table names", kMaxJoinsRefused));
  std::optional<error> failure;
  tables->for_each_element([&](std::size_t i, json_value table) {
    if (failure) return;
    if (!table.is_string() || !is_identifier(table.str()) || reg.refuses_joins(table.str()))
      failure = state_error(textfmt::format("joins_refused[{}]", i), "must be a table name, each once");
    else
      reg.note_refused_joins(table.str());
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

// Every saved generated ref (at `aliases` in the entries) names a database
// ref that holds the same key.
status check_aliases(const ref_registry& reg, const std::vector<std::size_t>& aliases) {
  for (std::size_t index : aliases) {
    const ref_entry& gen = reg.entries()[index];
    const ref_entry* saved = reg.find(gen.saved_as);
    if (!saved || saved->generated || saved->key != gen.key || saved->uuid_key != gen.uuid_key)
      return state_error(textfmt::format("refs[{}].saved_as", index),
                         textfmt::format("{} must name a ref holding the same key", gen.saved_as));
  }
  return ok_status();
}

}  // namespace

result<ref_registry> ref_registry::from_json(std::string_view state_json) {
  auto doc = json_document::parse(state_json);
  if (!doc) return state_error("", doc.err().message);
  const json_value state = doc->root();
  if (!state.is_object()) return state_error("", "a registry state must be a JSON object");
  if (auto ok = check_format(state); !ok) return ok.take_error();

  ref_registry reg;
  auto turn = state_number(state, "turn", "");
  if (!turn) return turn.take_error();
  reg.turn_ = int(*turn);
  // The user the refs were made for (a state written before it was kept has none).
  if (auto user = state.find("user"); user && !user->is_null()) {
    if (!user->is_string() || user->str().empty() || user->str().size() > 256)
      return state_error("user", "must be a user id");
    reg.user_ = std::string(user->str());
  }
  if (auto ok = read_counters(state, "counters", reg.counters_); !ok) return ok.take_error();
  if (auto ok = read_counters(state, "gen_counters", reg.gen_counters_); !ok) return ok.take_error();

  auto refs = state.find("refs");
  if (!refs || !refs->is_array()) return state_error("refs", "must be an array");
  std::vector<std::size_t> aliases;
  std::optional<error> failure;
  refs->for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    auto entry = parse_entry(reg, item, textfmt::format("refs[{}]", i));
    if (!entry) {
      failure = entry.take_error();
      return;
    }
    if (!entry->saved_as.empty()) aliases.push_back(reg.entries_.size());
    const uuid_bits bits = entry->uuid_key ? parse_uuid_bits(entry->key).value_or(uuid_bits{}) : uuid_bits{};
    reg.add(std::move(*entry), bits);
  });
  if (failure) return std::move(*failure);
  if (auto ok = read_uncertain(state, reg.uncertain_); !ok) return ok.take_error();
  if (auto ok = read_joins_refused(state, reg); !ok) return ok.take_error();
  if (auto ok = check_aliases(reg, aliases); !ok) return ok.take_error();
  return reg;
}

namespace {

// The fields of one entry of `refs`, with errors at `path` (`refs[3].`).
struct entry_fields {
  json_value item;
  const std::string& path;

  std::optional<std::string> text(const char* key) const {
    std::string_view value;
    if (detail::read_text(item.find(key), value) != detail::field_state::ok) return std::nullopt;
    return std::string(value);
  }
  result<int> turn(const char* key) const {
    auto n = state_number(item, key, path);
    if (!n) return n.take_error();
    return int(*n);
  }
};

// `uuid` or `key` (a generated ref not saved has neither), mapped to no
// other ref.
status read_entry_key(ref_entry& entry, const entry_fields& fields, const ref_registry& reg) {
  const std::string& path = fields.path;
  auto uuid = fields.item.find("uuid");
  auto key = fields.item.find("key");
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
  if (!entry.generated && (entry.uuid_key ? reg.find_by_uuid(entry.key, entry.type) != nullptr
                                          : reg.find_by_key(entry.type, entry.key) != nullptr))
    return state_error(path + (entry.uuid_key ? "uuid" : "key"), "this key already has a ref");
  return ok_status();
}

// Label, action, turns, and a generated ref's content and saved row.
status read_entry_history(ref_entry& entry, const entry_fields& fields) {
  const std::string& path = fields.path;
  auto label = fields.text("label");
  if (!label) return state_error(path + "label", "must be a string");
  entry.label = capped_label(*label);
  auto action = fields.text("action");
  auto parsed_action = action ? parse_action(*action) : std::nullopt;
  if (!parsed_action)
    return state_error(path + "action", "must be one of read, created, updated, deleted, generated, linked");
  entry.action = *parsed_action;
  auto created = fields.turn("turn_created");
  if (!created) return created.take_error();
  auto last = fields.turn("turn_last");
  if (!last) return last.take_error();
  entry.turn_created = *created;
  entry.turn_last = *last;
  if (auto content = fields.item.find("content")) {
    if (!entry.generated) return state_error(path + "content", "only generated refs hold content");
    entry.content = std::string(content->raw());
  }
  if (auto saved_as = fields.text("saved_as")) {
    if (!entry.generated || entry.key.empty())
      return state_error(path + "saved_as", "only saved generated refs have saved_as");
    auto saved_turn = fields.turn("turn_saved");
    if (!saved_turn) return saved_turn.take_error();
    entry.turn_saved = *saved_turn;
    entry.saved_as = *saved_as;
  } else if (entry.generated && !entry.key.empty()) {
    return state_error(path + "saved_as", "a saved generated ref must name its saved row");
  }
  return ok_status();
}

}  // namespace

result<ref_entry> ref_registry::parse_entry(const ref_registry& reg, json_value item, const std::string& where) {
  const std::string path = where + ".";
  if (!item.is_object()) return state_error(where, "must be an object");
  const entry_fields fields{item, path};
  ref_entry entry;
  auto ref = fields.text("ref");
  auto name = ref ? parse_ref_name(*ref) : std::nullopt;
  if (!name)
    return state_error(path + "ref", textfmt::format("must be a ref: {} or {}", ref_pattern("<prefix>"),
                                                     ref_pattern(generated_ref_prefix("<prefix>"))));
  entry.ref = *ref;
  entry.type = name->prefix;
  entry.generated = name->generated;
  if (reg.find(entry.ref)) return state_error(path + "ref", entry.ref + " appears twice");
  const auto& counters = entry.generated ? reg.gen_counters_ : reg.counters_;
  auto counter = counters.find(entry.type);
  if (counter == counters.end() || counter->second < name->number)
    return state_error(path + "ref", textfmt::format("{} is beyond its counter (a number would be reused)", entry.ref));
  auto table = fields.text("table");
  if (!table || table->empty()) return state_error(path + "table", "must be a table name");
  entry.table = *table;
  if (auto ok = read_entry_key(entry, fields, reg); !ok) return ok.take_error();
  if (auto ok = read_entry_history(entry, fields); !ok) return ok.take_error();
  return entry;
}

}  // namespace alfred
