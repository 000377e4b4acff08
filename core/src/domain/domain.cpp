#include "alfred/domain/domain.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>

#include "../json/format.h"
#include "alfred/domain/prompt_examples.h"
#include "domain_config.h"

namespace alfred {
namespace {

using detail::config_error;
using detail::known_keys;
using detail::text_field;

}  // namespace

error detail::config_error(const std::string& path, std::string message) {
  return {codes::invalid_domain, path, std::move(message), "docs/own-schema.md describes a domain's shape"};
}

error detail::config_error(const std::string& path, const char* message) {
  return {codes::invalid_domain, path, message, "docs/own-schema.md describes a domain's shape"};
}

std::string_view column_type_name(column_type type) {
  for (const auto& entry : detail::kColumnTypes)
    if (entry.type == type) return entry.name;
  return "unknown";
}

namespace {
constexpr std::array<std::string_view, 9> kReserved{"select", "columns", "on_conflict", "order", "limit",
                                                    "offset", "or",      "and",         "not"};
}  // namespace

bool is_postgrest_reserved(std::string_view name) {
  return std::find(kReserved.begin(), kReserved.end(), name) != kReserved.end();
}

std::span<const std::string_view> postgrest_reserved_names() { return kReserved; }

bool is_identifier(std::string_view name) {
  const identifier_rule& rule = kIdentifierRule;
  if (name.empty() || name.size() > rule.max_length) return false;
  if (rule.first.find(name[0]) == std::string_view::npos) return false;
  return name.find_first_not_of(rule.rest) == std::string_view::npos;
}

const column* table::find_column(std::string_view col_name) const {
  for (const auto& col : columns)
    if (col.name == col_name) return &col;
  return nullptr;
}

const column* table::key_column() const { return key.size() == 1 ? find_column(key.front()) : nullptr; }

bool table::is_key(std::string_view col_name) const { return std::find(key.begin(), key.end(), col_name) != key.end(); }

const relation* table::find_relation(std::string_view rel_name) const {
  for (const auto& rel : relations)
    if (rel.name == rel_name) return &rel;
  return nullptr;
}

const table* domain::find_table(std::string_view table_name) const {
  for (const auto& tbl : tables)
    if (tbl.name == table_name) return &tbl;
  return nullptr;
}

const table* domain::find_table_by_prefix(std::string_view prefix) const {
  for (const auto& tbl : tables)
    if (tbl.ref_prefix == prefix) return &tbl;
  return nullptr;
}

const db_function* domain::find_function(std::string_view function_name) const {
  for (const auto& fn : functions)
    if (fn.name == function_name) return &fn;
  return nullptr;
}

const table* domain::field_reference(std::string_view field) const {
  for (const auto& [name, target] : field_references)
    if (name == field) return target == kUsersReference ? users_table() : find_table(target);
  return nullptr;
}

const table* domain::users_table() const {
  if (users_reference.empty()) return nullptr;
  return users && users_reference == users->name ? users.get() : find_table(users_reference);
}

bool domain::field_holds_user_id(std::string_view field) const {
  for (const auto& [name, target] : field_references)
    if (name == field) return target == kUsersReference;
  return false;
}

bool db_function::embeds(std::string_view arg) const {
  return std::find(embedded_args.begin(), embedded_args.end(), arg) != embedded_args.end();
}

int db_function::embedding_size(std::string_view arg) const {
  for (std::size_t i = 0; i < embedded_args.size() && i < embedding_sizes.size(); ++i)
    if (embedded_args[i] == arg) return embedding_sizes[i];
  return 0;
}

bool table::labelled_by_key() const {
  const column* key = key_column();
  return key && key->type == column_type::text && label_format.empty() && label_columns.size() == 1 &&
         label_columns[0] == key->name;
}

void table::append_read_columns(std::string& out) const {
  if (hidden_columns.empty()) {
    out += '*';
    return;
  }
  bool first = true;
  for (const auto& col : columns) {
    if (hides_owner(col.name) ||
        std::find(hidden_columns.begin(), hidden_columns.end(), col.name) != hidden_columns.end())
      continue;
    if (!first) out += ',';
    first = false;
    out += col.name;
  }
}

std::string_view table::write_note() const {
  // Indexed by the writes taken; read-only when none.
  static constexpr std::string_view notes[] = {
      ", read-only",           ", no update or delete", ", no create or delete", ", no delete",
      ", no create or update", ", no update",           ", no create",           ""};
  if (!readable) return kWriteOnlyNote;
  return notes[writable ? writes & write_all : 0];
}

bool table::keyed_by_user() const {
  const column* key = key_column();
  return key && key->type == column_type::uuid && (key->user_id || owner == key->name);
}

bool table::hides_column(std::string_view name) const {
  return std::find(hidden_columns.begin(), hidden_columns.end(), name) != hidden_columns.end();
}

bool table::shows_column(std::string_view name) const { return !hides_owner(name) && !hides_column(name); }

std::string domain::function_list() const {
  std::string out;
  for (const auto& fn : functions) {
    if (!out.empty()) out += ", ";
    out += fn.name;
  }
  return out;
}

namespace {

// Whether rows of `source` show refs of `target`: a column the model sees
// references `target`.
bool carries_refs_of(const table& source, std::string_view target) {
  return std::any_of(source.columns.begin(), source.columns.end(),
                     [&](const column& col) { return col.references == target && source.shows_column(col.name); });
}

void append_name(std::string& out, std::string_view name, std::string_view suffix = {}) {
  if (!out.empty()) out += ", ";
  out.append(name).append(suffix);
}

}  // namespace

std::string domain::ref_sources(const table& tbl) const {
  // A hint never sends the model to a function that changes data for refs
  // (create_project would make one). First the functions that read a word of
  // whose name is the table's (get_accounts), else its row's (get_account).
  const std::string_view plural = tbl.name;
  const std::string_view words[] = {plural, plural.substr(0, plural.size() - (plural.ends_with('s') ? 1 : 0))};
  std::string out;
  for (std::string_view word : words) {
    for (const auto& fn : functions) {
      if (!fn.read) continue;
      const std::string_view name = fn.name;
      bool named = false;
      for (std::size_t at = name.find(word); !named && at != std::string_view::npos; at = name.find(word, at + 1))
        named = (at == 0 || name[at - 1] == '_') && (at + word.size() == name.size() || name[at + word.size()] == '_');
      if (named) append_name(out, fn.name, "()");
    }
    if (!out.empty()) return out;
  }
  // Else the functions that read and whose results show its refs: its rows,
  // rows that reference it, or its keys.
  for (const auto& fn : functions) {
    if (!fn.read) continue;
    const function_returns& r = fn.returns;
    const table* rows = r.type == function_returns::kind::rows ? find_table(r.table) : nullptr;
    const bool gives = (rows && (rows == &tbl || carries_refs_of(*rows, tbl.name))) ||
                       (r.type == function_returns::kind::value && r.references == tbl.name);
    if (gives) append_name(out, fn.name, "()");
  }
  return out;
}

std::string domain::referencing_tables(const table& tbl) const {
  std::string out;
  for (const auto& source : tables)
    if (source.exposed && source.readable && carries_refs_of(source, tbl.name)) append_name(out, source.name);
  return out;
}

std::string domain::ref_source_hint(const table& tbl) const {
  const std::string functions_hint = ref_sources(tbl);
  const std::string tables_hint = referencing_tables(tbl);
  const std::string call =
      functions_hint.empty() ? std::string() : textfmt::format("call {} (db_call)", functions_hint);
  if (tables_hint.empty()) return call;
  const std::string read = textfmt::format("read {} (their rows show {} refs)", tables_hint, tbl.ref_prefix);
  return call.empty() ? read : textfmt::format("{}, or {}", call, read);
}

std::string domain::table_list() const {
  std::string out;
  for (const auto& tbl : tables) {
    if (!tbl.exposed) continue;
    if (!out.empty()) out += ", ";
    out += tbl.name;
  }
  return out;
}

namespace {

// `"prompt_examples": {"<slot>": "<text>"}`: a domain's own words for the
// example slots of the Act templates.
status parse_prompt_examples(domain& dom, json_value config) {
  auto examples = config.find("prompt_examples");
  if (!examples || examples->is_null()) return ok_status();
  if (!examples->is_object()) return config_error("prompt_examples", "must be an object of slot name → text");
  std::optional<error> failure;
  examples->for_each_member([&](std::string_view slot, json_value text) {
    if (failure) return;
    const std::string path = textfmt::format("prompt_examples.{}", slot);
    if (!is_prompt_example_slot(slot)) {
      std::vector<std::string_view> names;
      for (const auto& known : prompt_example_slots()) names.push_back(known.name);
      failure = error{codes::invalid_domain, path, textfmt::format("'{}' is not a prompt example slot", slot),
                      textfmt::format("slots: {}", textfmt::join(names, ", "))};
    } else if (!text.is_string()) {
      failure = config_error(path, "must be text");
    } else {
      dom.prompt_examples.emplace_back(std::string(slot), std::string(text.str()));
    }
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

// `"tables": {"<name>": {…}}`: each table on its own, with names and ref
// prefixes unique across them.
status parse_tables(domain& dom, json_value config) {
  auto tables = config.find("tables");
  if (!tables || !tables->is_object() || tables->empty()) return config_error("tables", "must be a non-empty object");
  std::set<std::string> prefixes;
  std::optional<error> failure;
  tables->for_each_member([&](std::string_view name_view, json_value spec) {
    if (failure) return;
    const std::string name(name_view);
    auto tbl = detail::parse_table(name, spec, dom.owner_column);
    if (!tbl) {
      failure = tbl.take_error();
    } else if (!prefixes.insert(tbl->ref_prefix).second) {
      failure = config_error("tables." + name + ".ref",
                             textfmt::format("ref prefix '{}' is used by two tables", tbl->ref_prefix));
    } else if (dom.find_table(name)) {
      failure = config_error("tables." + name, "table appears twice");
    } else {
      dom.tables.push_back(std::move(*tbl));
    }
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

}  // namespace

result<domain> parse_domain(std::string_view config_json) {
  auto doc = json_document::parse(config_json);
  if (!doc) return config_error("", doc.err().message);
  const json_value config = doc->root();
  if (!config.is_object()) return config_error("", "a domain must be a JSON object");
  if (auto ok = known_keys(config, {"name", "owner_column", "max_rows", "tables", "functions", "prompt_examples"}, "");
      !ok)
    return ok.take_error();
  domain dom;
  dom.name = text_field(config, "name");
  if (dom.name.empty()) dom.name = "domain";
  const std::string owner = text_field(config, "owner_column");
  if (!owner.empty()) dom.owner_column = owner;
  if (auto max_rows = config.find("max_rows")) {
    auto n = max_rows->as_integer();
    if (!n) return config_error("max_rows", "must be a whole number");
    if (*n < 1 || *n > 1000000) return config_error("max_rows", "must be positive");
    dom.max_rows = int(*n);
  }
  if (auto ok = parse_prompt_examples(dom, config); !ok) return ok.take_error();
  if (auto ok = parse_tables(dom, config); !ok) return ok.take_error();
  if (auto ok = detail::check_domain_tables(dom); !ok) return ok.take_error();
  if (auto ok = detail::parse_functions(dom, config); !ok) return ok.take_error();
  detail::index_field_references(dom);
  // Other users' ids are refs of the one table keyed by them, else of users.
  const auto by_user = [](const table& t) { return t.keyed_by_user(); };
  if (std::count_if(dom.tables.begin(), dom.tables.end(), by_user) == 1) {
    dom.users_reference = std::find_if(dom.tables.begin(), dom.tables.end(), by_user)->name;
  } else {
    dom.users_reference = kUsersReference;
    auto made = std::make_shared<table>();
    table& users = *made;
    users.name = kUsersReference;
    // `user_2`, or `userx_2` beside a domain table whose refs are `user_…`.
    users.ref_prefix = "user";
    while (dom.find_table_by_prefix(users.ref_prefix)) users.ref_prefix += 'x';
    users.key = {"id"};
    users.columns.push_back({.name = "id", .type = column_type::uuid, .user_id = true});
    users.exposed = false;
    users.label_columns = {"name", "full_name", "display_name", "username", "email"};
    dom.users = std::move(made);
  }
  dom.resolved_prompt_examples = prompt_examples(dom);
  dom.row_plans.make(dom);
  return dom;
}

}  // namespace alfred
