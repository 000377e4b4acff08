// One table of a domain read from its JSON: columns, key, owner, labels,
// middleware and relations, each setting checked on its own. What the tables
// say about each other is checked once all are read (domain_checks.cpp).
#include <algorithm>
#include <optional>

#include "../json/format.h"
#include "alfred/domain/ref_format.h"
#include "domain_config.h"

namespace alfred::detail {
namespace {

// `"writable"` as true, false or a list of writes among `allowed` (bits
// named "create", "update", "delete"): its write_op bits, or nullopt when it
// is none of those.
std::optional<unsigned char> write_bits(json_value given, unsigned char allowed) {
  std::vector<std::string> names;
  if (given.is_bool()) return given.as_bool() ? allowed : 0;
  if (read_text_list(given, names) != field_state::ok) return std::nullopt;
  unsigned char bits = 0;
  for (const std::string& name : names) {
    const int bit = name == "create"   ? write_create
                    : name == "update" ? write_update
                    : name == "delete" ? write_delete
                                       : 0;
    if (!(bit & allowed)) return std::nullopt;
    bits |= bit;
  }
  return bits;
}

// A column's `"writable"`: true (the default), false, or the writes that
// may set it (docs/own-schema.md#column-privileges).
status parse_column_writes(column& col, std::optional<json_value> given, const std::string& path) {
  if (!given || given->is_null()) return ok_status();
  const auto bits = write_bits(*given, write_create | write_update);
  if (!bits)
    return config_error(path + ".writable",
                        "must be true, false, or the writes that may set it: \"create\", \"update\"");
  col.writes = *bits;
  col.writable = *bits != 0;
  return ok_status();
}

}  // namespace

result<column> parse_column(const std::string& name, json_value spec, const std::string& path,
                            std::initializer_list<std::string_view> extra_keys) {
  if (!is_identifier(name))
    return config_error(path, textfmt::format("column name '{}' is not a lower-case identifier", name));
  if (!spec.is_object()) return config_error(path, "must be an object");
  std::vector<std::string_view> keys{"type", "required", "writable", "nullable", "references", "values"};
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  if (auto key = unknown_key(spec, keys))
    return error{codes::invalid_domain, textfmt::format("{}.{}", path, *key),
                 textfmt::format("'{}' is not a domain setting", *key),
                 textfmt::format("allowed here: {}", textfmt::join(keys, ", "))};
  column col;
  col.name = name;
  const std::string type = text_field(spec, "type");
  if (type.empty()) return config_error(path + ".type", "is required");
  auto found = std::find_if(kColumnTypes.begin(), kColumnTypes.end(),
                            [&](const column_type_entry& t) { return t.name == type; });
  if (found == kColumnTypes.end())
    return config_error(path + ".type", textfmt::format("unknown column type '{}'", type));
  col.type = found->type;
  col.required = flag(spec, "required", false);
  if (auto ok = parse_column_writes(col, spec.find("writable"), path); !ok) return ok.take_error();
  col.nullable = flag(spec, "nullable", !col.required);
  col.references = text_field(spec, "references");
  if (col.references == kUsersReference) {
    col.user_id = true;
    col.references.clear();
  }
  auto allowed = string_list(spec.find("values"), path + ".values");
  if (!allowed) return allowed.take_error();
  col.allowed_values = std::move(*allowed);
  return col;
}

namespace {

result<semantic_search> parse_semantic(json_value spec, const std::string& path) {
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec, {"rpc", "embedding_arg", "count_arg", "distance_arg", "limit", "max_distance", "text"},
                           path);
      !ok)
    return ok.take_error();
  semantic_search out;
  out.rpc = text_field(spec, "rpc");
  if (!is_identifier(out.rpc)) return config_error(path + ".rpc", "must name a database function");
  for (auto [key, target] : {std::pair{"embedding_arg", &out.embedding_arg}, std::pair{"count_arg", &out.count_arg},
                             std::pair{"distance_arg", &out.distance_arg}}) {
    if (auto value = spec.find(key)) {
      if (!value->is_string() || !is_identifier(value->str()))
        return config_error(path + "." + key, "must be an argument name");
      *target = std::string(value->str());
    }
  }
  if (auto limit = spec.find("limit")) {
    auto n = limit->as_integer();
    if (!n || *n < 1 || *n > 1000) return config_error(path + ".limit", "must be a whole number from 1 to 1000");
    out.limit = int(*n);
  }
  if (auto distance = spec.find("max_distance")) {
    if (!distance->is_number()) return config_error(path + ".max_distance", "must be a number");
    out.max_distance = std::string(distance->raw());
  }
  auto text = string_list(spec.find("text"), path + ".text");
  if (!text) return text.take_error();
  out.text_columns = std::move(*text);
  return out;
}

result<catalog_link> parse_catalog(json_value spec, const std::string& path) {
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec, {"table", "name", "aliases", "link", "copy", "dedupe"}, path); !ok)
    return ok.take_error();
  catalog_link out;
  out.catalog = text_field(spec, "table");
  out.link_column = text_field(spec, "link");
  out.alias_column = text_field(spec, "aliases");
  if (auto name = text_field(spec, "name"); !name.empty()) out.name_column = name;
  if (out.catalog.empty() || out.link_column.empty())
    return config_error(path, "needs \"table\" (the catalog) and \"link\" (the foreign key to it)");
  auto copy = string_list(spec.find("copy"), path + ".copy");
  if (!copy) return copy.take_error();
  out.copy_columns = std::move(*copy);
  out.dedupe_batches = flag(spec, "dedupe", false);
  return out;
}

result<table_middleware> parse_middleware(json_value spec, const std::string& path) {
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec, {"fuzzy", "include", "semantic", "catalog"}, path); !ok) return ok.take_error();
  table_middleware out;
  auto fuzzy = string_list(spec.find("fuzzy"), path + ".fuzzy");
  if (!fuzzy) return fuzzy.take_error();
  out.fuzzy_columns = std::move(*fuzzy);
  auto include = string_list(spec.find("include"), path + ".include");
  if (!include) return include.take_error();
  out.include = std::move(*include);
  if (auto semantic = spec.find("semantic"); semantic && !semantic->is_null()) {
    auto parsed = parse_semantic(*semantic, path + ".semantic");
    if (!parsed) return parsed.take_error();
    out.semantic = std::move(*parsed);
  }
  if (auto catalog = spec.find("catalog"); catalog && !catalog->is_null()) {
    auto parsed = parse_catalog(*catalog, path + ".catalog");
    if (!parsed) return parsed.take_error();
    out.catalog = std::move(*parsed);
  }
  return out;
}

// `"key": "id"` or `"key": ["channel_id", "user_id"]`; without it, `id`
// when the table has such a column, else no key.
status parse_key(table& tbl, json_value spec, const std::string& path) {
  auto key = spec.find("key");
  if (!key) {
    if (tbl.find_column("id")) tbl.key = {"id"};
  } else if (key->is_string()) {
    tbl.key = {std::string(key->str())};
  } else {
    auto names = string_list(key, path + ".key");
    if (!names) return names.take_error();
    tbl.key = std::move(*names);
    if (key->is_null()) tbl.key.clear();
  }
  for (std::size_t i = 0; i < tbl.key.size(); ++i) {
    const column* col = tbl.find_column(tbl.key[i]);
    if (!col) return config_error(path + ".key", textfmt::format("'{}' is not a column of {}", tbl.key[i], tbl.name));
    if (std::find(tbl.key.begin(), tbl.key.begin() + long(i), tbl.key[i]) != tbl.key.begin() + long(i))
      return config_error(path + ".key", textfmt::format("'{}' appears twice", tbl.key[i]));
    const bool keyable =
        col->type == column_type::uuid || col->type == column_type::integer || col->type == column_type::text;
    if (!keyable)
      return config_error(path + ".key", textfmt::format("{} is {}; a key column is uuid, integer or text", col->name,
                                                         column_type_name(col->type)));
  }
  return ok_status();
}

// `"owner": "<column>"`, or `"user_owned": true` for the domain's owner
// column; `"scope": "owner"` filters reads and writes to the owner's rows.
status parse_owner(table& tbl, json_value spec, std::string_view domain_owner, const std::string& path) {
  tbl.owner = text_field(spec, "owner");
  if (auto owner = spec.find("owner"); owner && !owner->is_null() && (!owner->is_string() || tbl.owner.empty()))
    return config_error(path + ".owner", "must name the column holding the owner's user id");
  if (tbl.owner.empty() && flag(spec, "user_owned", false)) tbl.owner = std::string(domain_owner);
  const std::string scope = text_field(spec, "scope");
  if (auto given = spec.find("scope"); given && scope != "owner" && scope != "rls")
    return config_error(path + ".scope",
                        "must be \"rls\" (row-level security decides what the user reads) or \"owner\" (also "
                        "filtered to the user's own rows)");
  tbl.owner_scoped = scope == "owner";
  if (tbl.owner_scoped && tbl.owner.empty())
    return config_error(path + ".scope", "\"owner\" needs an owner column (\"owner\": \"<column>\")");
  return ok_status();
}

// The columns of a table, in the order written.
status parse_columns(table& tbl, json_value spec, const std::string& path) {
  auto columns = spec.find("columns");
  if (!columns || !columns->is_object() || columns->empty())
    return config_error(path + ".columns", "must be a non-empty object");
  std::optional<error> failure;
  columns->for_each_member([&](std::string_view col_name, json_value col_spec) {
    if (failure) return;
    const std::string name_text(col_name);
    // A repeated key: the translator would read one declaration and a
    // reader of the JSON (JSON.parse keeps the last) another.
    if (tbl.find_column(name_text)) {
      failure = config_error(path + ".columns." + name_text, "column appears twice");
      return;
    }
    if (is_postgrest_reserved(name_text)) {
      failure = config_error(path + ".columns." + name_text,
                             textfmt::format("column name '{}' is reserved by PostgREST", name_text));
      return;
    }
    auto col = parse_column(name_text, col_spec, path + ".columns." + name_text, {});
    if (!col)
      failure = col.take_error();
    else
      tbl.columns.push_back(std::move(*col));
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

// `"relations": {"<name>": "<table>"}`: tables embeddable under another name.
status parse_relations(table& tbl, json_value spec, const std::string& path) {
  auto relations = spec.find("relations");
  if (!relations) return ok_status();
  if (!relations->is_object()) return config_error(path + ".relations", "must be an object");
  std::optional<error> failure;
  relations->for_each_member([&](std::string_view rel_name, json_value target) {
    if (failure) return;
    if (!target.is_string() || !is_identifier(rel_name))
      failure = config_error(path + ".relations." + std::string(rel_name), "must name a table");
    else if (tbl.find_relation(rel_name))
      failure = config_error(path + ".relations." + std::string(rel_name), "relation appears twice");
    else if (tbl.find_column(rel_name))
      // One key of a row cannot be both: the translator would read the
      // embedded rows as the column's value.
      failure = config_error(path + ".relations." + std::string(rel_name), "a column has the same name");
    else
      tbl.relations.push_back({std::string(rel_name), std::string(target.str())});
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

// `label`, `label_format` and `hidden`: how rows are named and what the
// model never sees.
status parse_presentation(table& tbl, json_value spec, const std::string& path) {
  auto label = string_list(spec.find("label"), path + ".label");
  if (!label) return label.take_error();
  tbl.label_columns = std::move(*label);
  tbl.label_format = text_field(spec, "label_format");
  auto hidden = string_list(spec.find("hidden"), path + ".hidden");
  if (!hidden) return hidden.take_error();
  tbl.hidden_columns = std::move(*hidden);
  // A text search document is searched, never read or written: its text
  // ("'lisbon':3 'contract':4") means nothing to the model.
  for (auto& col : tbl.columns) {
    if (col.type != column_type::tsvector) continue;
    col.writable = false;
    if (std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), col.name) == tbl.hidden_columns.end())
      tbl.hidden_columns.push_back(col.name);
  }
  return ok_status();
}

// `"writable"`: true (the default) or false, or the writes the table takes
// (`["update"]`: its row-level security lets users update its rows, not
// create or delete them).
status parse_writes(table& tbl, std::optional<json_value> given, const std::string& path) {
  if (!given || given->is_null()) return ok_status();
  const auto bits = write_bits(*given, write_all);
  if (!bits)
    return config_error(path + ".writable",
                        "must be true, false or a list of the writes it takes: \"create\", \"update\", \"delete\"");
  tbl.writes = *bits;
  tbl.writable = tbl.writes != 0;
  return ok_status();
}

// `"readable": false`: a table users may add rows to but not read (a
// feedback form's). It takes creates only, which are sent without reading
// their rows back (docs/own-schema.md#write-only-tables).
status parse_readable(table& tbl, json_value spec, const std::string& path) {
  if (read_flag(spec.find("readable"), tbl.readable) == field_state::wrong_type)
    return config_error(path + ".readable", "must be true or false");
  if (tbl.readable) return ok_status();
  if (auto given = spec.find("writable"); !given || given->is_null()) tbl.writes = write_create;
  if (tbl.writes == write_create && tbl.writable) return ok_status();
  return config_error(path + ".writable", "a table users cannot read takes creates only: [\"create\"]");
}

// `"exposed": false`: a table the API does not serve, whose rows are refs
// only (the target of a foreign key into another schema). It has a
// one-column key for its refs and is never written.
status parse_exposure(table& tbl, json_value spec, const std::string& path) {
  tbl.exposed = flag(spec, "exposed", true);
  if (auto given = spec.find("exposed"); given && !given->is_bool())
    return config_error(path + ".exposed", "must be true or false");
  if (tbl.exposed) return ok_status();
  if (!tbl.key_column())
    return config_error(path + ".key",
                        "a table the API does not expose needs a one-column key, which its refs stand for");
  if (spec.find("writable") && tbl.writable)
    return config_error(path + ".writable", "a table the API does not expose cannot be written");
  if (tbl.has_owner()) return config_error(path + ".owner", "a table the API does not expose has no owner column");
  tbl.writable = false;
  return ok_status();
}

}  // namespace

result<table> parse_table(const std::string& name, json_value spec, std::string_view domain_owner) {
  const std::string path = "tables." + name;
  if (!is_identifier(name))
    return config_error(path, textfmt::format("table name '{}' is not a lower-case identifier", name));
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec,
                           {"ref", "key", "owner", "scope", "user_owned", "signed_in", "writable", "readable",
                            "exposed", "label", "label_format", "hidden", "relations", "middleware", "columns"},
                           path);
      !ok)
    return ok.take_error();
  table tbl;
  tbl.name = name;
  tbl.ref_prefix = text_field(spec, "ref");
  if (!is_ref_prefix(tbl.ref_prefix))
    return config_error(path + ".ref",
                        "must be a lower-case identifier that does not start with 'gen' and is not 'me'");
  if (auto ok = parse_writes(tbl, spec.find("writable"), path); !ok) return ok.take_error();
  if (auto ok = parse_readable(tbl, spec, path); !ok) return ok.take_error();
  if (read_flag(spec.find("signed_in"), tbl.signed_in) == field_state::wrong_type)
    return config_error(path + ".signed_in", "must be true or false");

  if (auto ok = parse_columns(tbl, spec, path); !ok) return ok.take_error();
  if (auto ok = parse_key(tbl, spec, path); !ok) return ok.take_error();
  if (auto ok = parse_owner(tbl, spec, domain_owner, path); !ok) return ok.take_error();
  // A table without a key has no way to name one row: reads only (creates
  // that are never read back need none).
  if (tbl.key.empty() && tbl.readable && tbl.writable && spec.find("writable"))
    return config_error(path + ".writable", "a table without a key cannot be written; give its \"key\"");
  if (tbl.key.empty() && tbl.readable) tbl.writable = false;
  if (auto ok = parse_exposure(tbl, spec, path); !ok) return ok.take_error();
  if (auto ok = parse_presentation(tbl, spec, path); !ok) return ok.take_error();

  if (auto middleware = spec.find("middleware")) {
    auto parsed = parse_middleware(*middleware, path + ".middleware");
    if (!parsed) return parsed.take_error();
    tbl.middleware = std::move(*parsed);
  }
  if (auto ok = parse_relations(tbl, spec, path); !ok) return ok.take_error();
  return tbl;
}

}  // namespace alfred::detail
