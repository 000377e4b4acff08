#include "query_record.h"

#include <algorithm>

#include "../json/echo.h"
#include "../json/format.h"
#include "alfred/domain/ref_format.h"
#include "alfred/uuid/uuid.h"

namespace alfred::detail {
namespace {

// What a filter's values name: rows of a table (its key, a foreign key, or
// a user-id column's users), so the record shows refs and `me` where the
// request had keys, whatever their type.
struct value_names {
  const ref_registry& registry;
  const table* rows = nullptr;
  std::string_view me;
};

bool shows_uuid(std::string_view text);
void write_masked(json_writer& w, json_value value);

value_names names_of(const ref_registry& registry, const domain* dom, const tool_call& call, const column* col) {
  value_names names{registry, nullptr, call.current_user};
  if (!col || !dom) return names;
  const table* tbl = call.kind == tool_kind::call ? (call.fn ? &call.fn->args : nullptr) : call.tbl;
  if (tbl && col == tbl->key_column())
    names.rows = tbl;
  else if (!col->references.empty())
    names.rows = dom->find_table(col->references);
  else if (col->user_id)
    names.rows = dom->users_table();
  return names;
}

// A key as its ref (or `me`); "(unregistered row)" for a row's key no ref
// holds, whatever its type (a bigint key is no more the model's to read than
// a UUID: a number it cannot use, which reads as one it could).
void write_key(json_writer& w, const value_names& names, std::string_view key, bool quoted) {
  // A user id, or the key of a table keyed by user ids (a profile, a personal account), that is the signed-in user's.
  const bool user_key = names.rows && names.rows->keyed_by_user();
  if (user_key && !names.me.empty() && canonical_uuid(key) == canonical_uuid(names.me))
    return w.string(kCurrentUserRef);
  const bool uuid = is_uuid_syntax(key);
  const std::string_view type = names.rows ? std::string_view(names.rows->ref_prefix) : std::string_view();
  const ref_entry* entry = uuid         ? names.registry.find_by_uuid_preferring(key, type)
                           : names.rows ? names.registry.find_by_key(type, key)
                                        : nullptr;
  if (entry) return w.string(entry->ref);
  if (uuid || names.rows) return w.string("(unregistered row)");
  if (quoted)
    w.string(key);
  else
    w.raw_value(key);
}

void write_scalar(json_writer& w, const value_names& names, const scalar& value) {
  const bool names_rows = names.rows;
  switch (value.type) {
    case scalar::kind::null:
      w.null();
      return;
    case scalar::kind::number:
      if (names_rows) return write_key(w, names, value.text, false);
      w.raw_value(value.text);
      return;
    case scalar::kind::boolean:
      w.raw_value(value.text);
      return;
    case scalar::kind::text:
      if (names_rows || is_uuid_syntax(value.text)) return write_key(w, names, value.text, true);
      // A UUID inside the model's text (a pattern, an array's item) is its
      // own invention: the record shows the model no UUID.
      w.string(shows_uuid(value.text) ? std::string_view("(uuid)") : std::string_view(value.text));
      return;
  }
}

void write_filter(json_writer& w, const value_names& names, const filter& f) {
  w.begin_object();
  w.key("field");
  w.string(f.field);
  w.key("op");
  w.string(filter_op_name(f.op));
  w.key("value");
  if (!f.json_operand.empty()) {
    w.raw_value(f.json_operand);
  } else if (takes_list(filter_op_rule_of(f.op).shape)) {
    w.begin_array();
    for (const auto& value : f.values) write_scalar(w, names, value);
    w.end_array();
  } else if (f.values.empty()) {
    w.null();
  } else {
    write_scalar(w, names, f.value());
  }
  // A text search's mode when not the default, and its configuration.
  for (const auto& mode : search_modes())
    if (!f.search_operator.empty() && mode.postgrest == f.search_operator && &mode != &search_modes().front()) {
      w.key("mode");
      w.string(mode.name);
    }
  if (!f.language.empty()) {
    w.key("language");
    w.string(f.language);
  }
  w.end_object();
}

void write_filters(json_writer& w, const ref_registry& registry, const domain* dom, const tool_call& call,
                   const std::vector<filter>& filters) {
  w.begin_array();
  for (const auto& f : filters) write_filter(w, names_of(registry, dom, call, f.col), f);
  w.end_array();
}

// A db_call's arguments, keys shown as refs and `me`; an argument sent as
// an embedding shows the text it was made from.
void write_args(json_writer& w, const ref_registry& registry, const domain* dom, const tool_call& call) {
  w.begin_object();
  for (const auto& field : call.args) {
    if (call.fn && call.fn->embeds(field.column)) continue;  // its text is written below
    w.key(field.column);
    const column* arg = call.fn ? call.fn->args.find_column(field.column) : nullptr;
    const value_names names = names_of(registry, dom, call, arg);
    auto doc = json_document::parse(field.json);
    if (!doc) {
      w.null();
      continue;
    }
    const json_value value = doc->root();
    if (names.rows && (value.is_string() || value.is_integer()))
      write_key(w, names, value.is_string() ? value.str() : value.raw(), value.is_string());
    else if (value.is_array() && names.rows) {
      w.begin_array();
      value.for_each_element([&](std::size_t, json_value item) {
        if (item.is_string() || item.is_integer())
          write_key(w, names, item.is_string() ? item.str() : item.raw(), item.is_string());
        else
          write_masked(w, item);
      });
      w.end_array();
    } else {
      write_masked(w, value);  // no UUID of the model's own in its text
    }
  }
  for (const auto& [name, text] : call.embeds) {
    w.key(name);
    w.string(echoed_text(text));
  }
  w.end_object();
}

// The member's value after its key: the number or null.
void write_optional_integer(json_writer& w, const std::optional<long long>& value) {
  if (value)
    w.integer(*value);
  else
    w.null();
}

// A db_aggregate's groups, metrics (by key), order and `having`.
void write_aggregate(json_writer& w, const aggregate_spec& spec) {
  w.key("group_by");
  w.begin_array();
  for (const column* col : spec.group_by) w.string(col->name);
  w.end_array();
  w.key("metrics");
  w.begin_array();
  for (const metric& m : spec.metrics) w.string(m.key);
  w.end_array();
  w.key("order_metric");
  if (spec.order_metric)
    w.string(textfmt::format("{} {}", spec.metrics[*spec.order_metric].key, spec.descending ? "desc" : "asc"));
  else
    w.null();
  w.key("having");
  w.begin_array();
  for (const having_clause& h : spec.having)
    w.string(textfmt::format("{} {} {}", spec.metrics[h.metric].key, h.op, h.value));
  w.end_array();
  w.key("group_limit");
  write_optional_integer(w, spec.limit);
}

// db_call's record: the function, its arguments, and the page of the set
// it returns where the call asked for one.
void write_function_call(json_writer& w, const ref_registry& registry, const domain* dom, const tool_call& call) {
  w.key("function");
  w.string(call.fn ? std::string_view(call.fn->name) : std::string_view());
  w.key("args");
  write_args(w, registry, dom, call);
  if (call.limit) {
    w.key("limit");
    w.integer(*call.limit);
  }
  if (call.offset) {
    w.key("offset");
    w.integer(*call.offset);
  }
  w.end_object();
}

void write_call(json_writer& w, const ref_registry& registry, const domain* dom, const tool_call& call) {
  w.begin_object();
  if (call.kind == tool_kind::call) return write_function_call(w, registry, dom, call);
  w.key("filters");
  write_filters(w, registry, dom, call, call.filters);
  w.key("or_filters");
  write_filters(w, registry, dom, call, call.or_filters);
  if (!call.or_groups.empty()) {
    w.key("or_groups");
    w.begin_array();
    for (const auto& group : call.or_groups) write_filters(w, registry, dom, call, group);
    w.end_array();
  }
  w.key("columns");
  if (call.columns.empty()) {
    w.null();
  } else {
    w.begin_array();
    for (const auto& item : call.columns) w.string(item);
    w.end_array();
  }
  w.key("limit");
  write_optional_integer(w, call.limit);
  w.key("offset");
  write_optional_integer(w, call.offset);
  w.key("order_by");
  if (call.order_by.empty())
    w.null();
  else
    w.string(call.order_by);
  w.key("order_dir");
  if (call.order_by.empty())
    w.null();
  else
    w.string(call.descending ? "desc" : "asc");
  w.key("data_columns");
  if (call.rows.empty()) {
    w.null();
  } else {
    std::vector<std::string_view> columns;
    for (const auto& fields : call.rows)
      for (const auto& field : fields)
        if (std::find(columns.begin(), columns.end(), field.column) == columns.end()) columns.push_back(field.column);
    w.begin_array();
    for (auto name : columns) w.string(name);
    w.end_array();
  }
  w.key("records");
  write_optional_integer(w,
                         call.kind == tool_kind::create ? std::optional<long>(long(call.rows.size())) : std::nullopt);
  if (call.kind == tool_kind::aggregate) write_aggregate(w, call.aggregate);
  w.end_object();
}

bool contains_uuid(std::string_view text) {
  for (std::size_t at = 0; at + 36 <= text.size(); ++at)
    if (is_uuid_syntax(text.substr(at, 36))) return true;
  return false;
}

// Whether a string shows a UUID as the record writes it: without U+0000,
// which the writer strips ("c69607\u0000bb-…" is shown as a UUID), whole,
// broken, or inside longer text, including text that its escapes make up
// ("c69\u001f607bb-…" holds "01f607bb-…" once written).
bool shows_uuid(std::string_view text) {
  std::string stripped;
  if (text.find('\0') != std::string_view::npos) {
    stripped.assign(text);
    stripped.erase(std::remove(stripped.begin(), stripped.end(), '\0'), stripped.end());
    text = stripped;
  }
  if (is_uuid_syntax(text) || looks_like_broken_uuid(text) || contains_uuid(text)) return true;
  const bool escaped =
      std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  return escaped && contains_uuid(json_quote(text));
}

// The model's own params, for a call that failed validation. Strings shaped
// like UUIDs are masked: they are the model's inventions, and the record is
// shown to the model again (a truncated or padded one too).
// The params of a call that failed validation, echoed: UUIDs masked, long
// texts and keys cut (the model wrote them; a 200 KB text need not come back).
void write_masked(json_writer& w, json_value value) {
  if (value.is_string() && shows_uuid(value.str())) {
    w.string("(uuid)");
  } else if (value.is_string() && value.str().size() > kEchoBytes) {
    w.string(clip_utf8(value.str(), kEchoBytes));
  } else if (value.is_array()) {
    w.begin_array();
    value.for_each_element([&](std::size_t, json_value item) { write_masked(w, item); });
    w.end_array();
  } else if (value.is_object()) {
    w.begin_object();
    value.for_each_member([&](std::string_view key, json_value item) {
      w.key(key.size() > kEchoBytes ? clip_utf8(key, kEchoBytes) : std::string(key));
      write_masked(w, item);
    });
    w.end_object();
  } else {
    w.value(value, true);
  }
}

std::string_view source_name(query_source source) {
  switch (source) {
    case query_source::database:
      return "database";
    case query_source::generated:
      return "generated";
    case query_source::none:
      return "none";
  }
  return "none";
}

}  // namespace

std::string echoed_text(std::string_view text) {
  // Control characters are left out: JSON writes one as \u00XX, whose hex
  // digits beside the text could make a UUID the text itself does not show.
  std::string plain;
  if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
    plain.reserve(text.size());
    for (char c : text)
      if (static_cast<unsigned char>(c) >= 0x20) plain += c;
    text = plain;
  }
  return shows_uuid(text) ? std::string("(uuid)") : clip_utf8(text, kEchoBytes);
}

std::string call_params_json(const ref_registry& registry, const tool_call& call, const domain* dom) {
  std::string out;
  json_writer w(out);
  write_call(w, registry, dom, call);
  return out;
}

void write_query_record(json_writer& w, const ref_registry& registry, const query_record& record) {
  w.begin_object();
  w.key("tool");
  w.string(record.tool);
  w.key("table");
  w.string(record.table);
  if (!record.function.empty()) {
    w.key("function");
    w.string(record.function);
    // A function that reads and returns a set: limit and offset page it.
    if (const db_function* fn = record.requested ? record.requested->fn : nullptr; fn && fn->read && fn->returns.set) {
      w.key("pages");
      w.boolean(true);
    }
  }
  w.key("requested");
  const std::size_t requested_at = w.text().size();
  if (record.requested)
    write_call(w, registry, record.dom, *record.requested);
  else if (record.raw_params)
    write_masked(w, *record.raw_params);
  else
    w.null();
  // The effective call is shown when it differs from the requested one as
  // written (compared with the text just written, not written twice).
  std::string effective;
  if (record.effective && record.requested) {
    effective = call_params_json(registry, *record.effective, record.dom);
    if (effective == w.text().substr(requested_at)) effective.clear();
  }
  w.key("effective");
  if (effective.empty())
    w.null();
  else
    w.raw_value(effective);
  w.key("notes");
  w.begin_array();
  for (const auto& note : record.notes) w.string(note);
  w.end_array();
  if (record.exact) {
    w.key("exact");
    w.boolean(*record.exact);
  }
  if (!record.aggregates.empty()) {
    w.key("aggregates");
    w.string(record.aggregates);
  }
  w.key("source");
  w.string(source_name(record.source));
  w.key("count");
  write_optional_integer(w, record.count);
  w.end_object();
}

}  // namespace alfred::detail
