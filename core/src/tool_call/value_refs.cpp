// Refs in tool calls: a ref (or `me`) the model wrote where a row's key
// belongs, resolved through the registry to that key, or refused with the
// reason and the refs it may use instead (values.h declares row_target and
// resolve_row_ref; the checks of other values are values.cpp's). JSON
// values (jsonb) are written here too: a ref inside one is its key.
#include "value_refs.h"

#include <algorithm>
#include <string>
#include <vector>

#include "../json/echo.h"
#include "../json/format.h"
#include "../json/text.h"
#include "alfred/domain/ref_format.h"
#include "alfred/tool_call/like_pattern.h"
#include "alfred/uuid/uuid.h"
#include "values.h"

namespace alfred::detail {
namespace {

constexpr std::size_t kMaxListedRefs = 12;

std::string describe_ref(const ref_entry& entry) {
  return entry.label.empty() || entry.label == entry.ref ? entry.ref
                                                         : textfmt::format("{} ({})", entry.ref, entry.label);
}

// Where the model finds rows of `target` (by name): a read of it; for a table
// it cannot read, the functions and tables whose answers show its refs.
std::string rows_source(const value_scope& scope, const table& target) {
  if (target.exposed && target.readable) return textfmt::format("read {}", target.name);
  std::string hint = scope.dom.ref_source_hint(target);
  return hint.empty() ? textfmt::format("read a table that references {}", target.name) : hint;
}

// "known recipe refs: recipe_1 (Butter Chicken), recipe_2" and `more`, or
// how to get some (which says where rows are found already).
std::string known_refs_hint(const value_scope& scope, const table& target, std::string_view more = {}) {
  std::vector<std::string> listed;
  std::size_t total = 0;
  for (const ref_entry* entry : scope.registry.refs_of_type(target.ref_prefix)) {
    if (entry->pending() || !entry->saved_as.empty()) continue;
    if (entry->action == ref_action::deleted) continue;
    if (++total <= kMaxListedRefs) listed.push_back(describe_ref(*entry));
  }
  // Users have no rows to read: their refs come with the rows and answers that show them.
  const bool users = &target == scope.dom.users_table();
  if (listed.empty() && users)
    return "me is the signed-in user; others get refs from the rows and function answers that show them (a team's "
           "members)";
  if (listed.empty())
    return textfmt::format("no {} refs are known yet; {} first to get refs", target.ref_prefix,
                           rows_source(scope, target));
  std::string hint = textfmt::format("known {} refs: {}", target.ref_prefix, textfmt::join(listed, ", "));
  if (total > listed.size()) hint += textfmt::format(", … ({} in all)", total);
  hint += users ? "; me is the signed-in user" : more;
  return hint;
}

}  // namespace

const table* row_target(const value_scope& scope, const column& col) {
  if (&col == scope.tbl.key_column()) return &scope.tbl;
  if (col.type == column_type::uuid_array || col.references.empty()) return nullptr;
  return scope.dom.find_table(col.references);
}

result<std::string> current_user_key(const value_scope& scope, const param_path& path, std::string_view field) {
  if (scope.me.empty() || !is_uuid_syntax(scope.me))
    return error{codes::not_signed_in, path.str(),
                 textfmt::format("{} was given me, the signed-in user, but nobody is signed in", field),
                 "sign a user in (createAct({ supabase }) or accessToken)"};
  return canonical_uuid(scope.me);
}

namespace {

// The ref known for a raw key the model wrote, for the hint.
const ref_entry* known_raw_key(const value_scope& scope, const table& target, json_value value) {
  const column* key = target.key_column();
  if (!key) return nullptr;
  if (key->type == column_type::uuid)
    return value.is_string() && is_uuid_syntax(value.str())
               ? scope.registry.find_by_uuid_preferring(value.str(), target.ref_prefix)
               : nullptr;
  const std::string_view text = value.is_number() ? value.raw() : value.is_string() ? value.str() : "";
  return text.empty() ? nullptr : scope.registry.find_by_key(target.ref_prefix, text);
}

error raw_id_error(const value_scope& scope, const table& target, json_value value, const param_path& path,
                   std::string_view field, std::string_view what) {
  const ref_entry* known = known_raw_key(scope, target, value);
  if (known && known->type == target.ref_prefix)
    return error{codes::raw_id, path.str(),
                 textfmt::format("{} takes a ref, not {}; that row is {}", field, what, describe_ref(*known)),
                 textfmt::format("use the ref {}", known->ref)};
  return error{codes::raw_id, path.str(),
               textfmt::format("{} takes a ref such as {}, not {}; refs cannot be made from ids", field,
                               ref_text(target.ref_prefix, 1), what),
               known_refs_hint(scope, target)};
}

// The key a ref names, or why it names none a filter or row of `target`
// may use (unknown, of another table, generated and unsaved, deleted).
result<std::string> known_ref_key(const value_scope& scope, const table& target, std::string_view text,
                                  const ref_name& name, const param_path& path, std::string_view field) {
  const auto& registry = scope.registry;
  const ref_entry* entry = registry.find(text);
  if (!entry) {
    const table* other = scope.dom.find_table_by_prefix(name.prefix);
    const bool wrong_table = other && other != &target;
    return error{wrong_table ? codes::ref_type_mismatch : codes::unknown_ref, path.str(),
                 wrong_table ? textfmt::format("{} is not a known ref, and {} refs are rows of {} while {} takes a ref "
                                               "to {} ({})",
                                               detail::echoed(text), name.prefix, other->name, field, target.name,
                                               ref_pattern(target.ref_prefix))
                             : textfmt::format("{} is not a known ref; refs cannot be invented", detail::echoed(text)),
                 known_refs_hint(scope, target)};
  }
  if (entry->type != target.ref_prefix)
    return error{codes::ref_type_mismatch, path.str(),
                 textfmt::format("{} is a row of {}, but {} takes a ref to {} ({})", describe_ref(*entry), entry->table,
                                 field, target.name, ref_pattern(target.ref_prefix)),
                 known_refs_hint(scope, target)};
  if (entry->pending())
    return error{codes::pending_ref, path.str(),
                 textfmt::format("{} is generated content that has not been saved, so it has no "
                                 "row in {} yet",
                                 describe_ref(*entry), target.name),
                 textfmt::format("save it first with db_create on {} (its content is under "
                                 "Generated Data), then use its ref",
                                 target.name)};
  if (entry->action == ref_action::deleted)
    return error{codes::deleted_ref, path.str(),
                 textfmt::format("{} was deleted earlier in this session", describe_ref(*entry)),
                 known_refs_hint(scope, target)};
  // What registry.resolve(text) returns, without looking the ref up again.
  return entry->saved_as.empty() ? entry->key : registry.find(entry->saved_as)->key;
}

// Why a UUID written where a ref belongs is refused: a row of another table,
// an id nobody generated, or any raw id.
error uuid_error(const value_scope& scope, const table& target, json_value value, const param_path& path,
                 std::string_view field) {
  const auto& registry = scope.registry;
  const std::string_view text = value.str();
  const std::string uuid = canonical_uuid(text);
  if (const ref_entry* known = registry.find_by_uuid_preferring(uuid, target.ref_prefix);
      known && known->type != target.ref_prefix)
    return error{
        codes::ref_type_mismatch, path.str(),
        textfmt::format("this UUID belongs to {}, a row of {}, but {} takes a ref to {} ({})", describe_ref(*known),
                        known->table, field, target.name, ref_pattern(target.ref_prefix)),
        known_refs_hint(scope, target)};
  if (auto reason = implausible_uuid_reason(uuid); !reason.empty())
    return error{codes::invented_uuid, path.str(), textfmt::format("'{}' cannot be a row id: {}", text, reason),
                 "use the refs shown in context instead of UUIDs; " + known_refs_hint(scope, target)};
  // A whole UUID the registry does not hold is never taken for another row
  // it resembles: it may be the id of a row this user must not reach, and
  // naming the row that shares its digits would lead the model to it.
  return raw_id_error(scope, target, value, path, field, "a UUID");
}

// Text that is neither a ref, `me` nor a raw key: a ref in the wrong case, a
// row's label given for its ref, or something else.
error not_a_ref_error(const value_scope& scope, const table& target, std::string_view text, const param_path& path,
                      std::string_view field) {
  const auto& registry = scope.registry;
  for (const ref_entry* entry : registry.refs_of_type(target.ref_prefix)) {
    if (trimmed_lower(entry->ref, "") == trimmed_lower(text, ""))
      return error{codes::unknown_ref, path.str(),
                   textfmt::format("'{}' is not a known ref; refs are case-sensitive", detail::echoed(text)),
                   textfmt::format("write it exactly as shown: {}", entry->ref)};
  }
  // A name given where a ref belongs, matched as the catalog matches names
  // (case and accents ignored). Two rows of that name are the user's to
  // choose between: the model is not pointed at either.
  const std::string wanted = fold_latin(text);
  std::vector<std::string> named;
  for (const ref_entry* entry : registry.refs_of_type(target.ref_prefix)) {
    if (!entry->saved_as.empty() || wanted.empty() || entry->action == ref_action::deleted) continue;
    if (fold_latin(entry->label) == wanted) named.push_back(entry->ref);
  }
  if (named.size() == 1)
    return error{
        codes::not_a_ref, path.str(),
        textfmt::format("{} takes a ref, not a name; '{}' is the label of {}", field, detail::echoed(text), named[0]),
        textfmt::format("use the ref {}", named[0])};
  if (named.size() > 1)
    return error{
        codes::not_a_ref, path.str(),
        textfmt::format("{} takes a ref, not a name; '{}' is the label of {}", field, detail::echoed(text),
                        textfmt::join(named, " and ")),
        textfmt::format("ask the user which one they mean ({}), then use its ref", textfmt::join(named, ", "))};
  return error{codes::not_a_ref, path.str(),
               textfmt::format("{} takes a ref such as {}, got '{}'", field, ref_text(target.ref_prefix, 1),
                               detail::echoed(text)),
               known_refs_hint(scope, target,
                               textfmt::format("; to find rows by name, {}{}", rows_source(scope, target),
                                               target.exposed ? " with a name filter first" : ""))};
}

}  // namespace

result<std::string> resolve_row_ref(const value_scope& scope, const table& target, json_value value,
                                    const param_path& path, std::string_view field) {
  const column* key_col = target.key_column();
  if (value.is_number() && key_col && key_col->type == column_type::integer)
    return raw_id_error(scope, target, value, path, field, textfmt::format("the number {}", value.raw()));
  if (!value.is_string())
    return error{
        codes::invalid_value, path.str(),
        textfmt::format("{} takes a ref such as {}, got {}", field, ref_text(target.ref_prefix, 1), value.kind_name()),
        known_refs_hint(scope, target)};
  const std::string_view text = value.str();
  if (text == kCurrentUserRef) {
    if (!target.keyed_by_user())
      return error{codes::invalid_value, path.str(),
                   textfmt::format("me is the signed-in user, and {} does not hold user ids", field),
                   known_refs_hint(scope, target)};
    return current_user_key(scope, path, field);
  }

  if (auto name = parse_ref_name(text)) return known_ref_key(scope, target, text, *name, path, field);

  // A raw key is never sent: the model sees refs only, so a UUID or a
  // number it writes was invented, pasted, or copied from a place it should
  // not have seen, and another user's row id must not reach a filter.
  if (is_uuid_syntax(text)) return uuid_error(scope, target, value, path, field);
  if (key_col && key_col->type == column_type::integer && is_integer_key(text))
    return raw_id_error(scope, target, value, path, field, textfmt::format("the id {}", text));
  if (key_col && key_col->type == column_type::text && known_raw_key(scope, target, value))
    return raw_id_error(scope, target, value, path, field, textfmt::format("the key '{}'", detail::echoed(text)));

  if (looks_like_broken_uuid(text))
    return error{codes::invalid_uuid, path.str(),
                 textfmt::format("'{}' is not a complete UUID (truncated or altered)", detail::echoed(text)),
                 "use the refs shown in context instead of UUIDs; " + known_refs_hint(scope, target)};

  return not_a_ref_error(scope, target, text, path, field);
}

namespace {

// A JSON string or member name as sent: a NUL stripped from a payload's and
// refused in a filter's, a ref of a UUID key as that key, one holding `<id>`
// refused.
result<std::string> json_text(const value_scope& scope, std::string_view text, const param_path& path, bool strip_nul) {
  std::string out(text);
  if (strip_nul) out.erase(std::remove(out.begin(), out.end(), '\0'), out.end());
  if (auto ok = check_sent_text(out, path); !ok) return ok.take_error();
  const ref_entry* entry = scope.registry.resolve(out);
  if (entry && entry->uuid_key && !entry->key.empty()) return entry->key;
  return out;
}

}  // namespace

status write_json_with_keys(json_writer& w, const value_scope& scope, json_value value, const param_path& path,
                            bool strip_nul) {
  if (value.is_string()) {
    auto text = json_text(scope, value.str(), path, strip_nul);
    if (!text) return text.take_error();
    w.string(*text);
    return ok_status();
  }
  status failed = ok_status();
  if (value.is_object()) {
    w.begin_object();
    value.for_each_member([&](std::string_view key, json_value member) {
      if (!failed) return;
      // A name's error is the object's: a path with the name in it could
      // hold the very NUL refused.
      auto name = json_text(scope, key, path, strip_nul);
      if (!name) {
        failed = name.take_error();
        return;
      }
      w.key(*name);
      failed = write_json_with_keys(w, scope, member, path.member(*name), strip_nul);
    });
    w.end_object();
  } else if (value.is_array()) {
    w.begin_array();
    value.for_each_element([&](std::size_t i, json_value item) {
      if (failed) failed = write_json_with_keys(w, scope, item, path.element(i), strip_nul);
    });
    w.end_array();
  } else {
    w.value(value, strip_nul);
  }
  return failed;
}

}  // namespace alfred::detail
