// The streaming row translator (core/src/rows/row_translation_stream.cpp) on
// response bodies, checked four ways:
// - it accepts exactly what the JSON reader accepts, and a refused body
//   leaves the registry as it was;
// - on JSON that nlohmann reads, its rows are nlohmann's rows as the domain
//   says they are shown: declared columns copied with the same values,
//   UUIDs replaced by refs that the registry maps back to the same UUID
//   (a user id's by a ref of the domain's users),
//   the owner and hidden columns and undeclared members left out,
//   embedded rows translated as rows of their own table;
// - when it says no string it wrote holds a UUID, the scrub finds none;
// - the label survey and `apply_labels` take the same bodies without harm.
// Input: one byte choosing the table and action, then the body.

#include <cstdint>
#include <string>
#include <vector>

#include "alfred/registry/uuid_scrub.h"
#include "alfred/rows/row_translation.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

const table* embed_target(const table& tbl, const std::string& key) {
  if (const relation* rel = tbl.find_relation(key)) return kitchen().find_table(rel->table);
  for (const auto& col : tbl.columns)
    if (col.type == column_type::uuid && col.references == key && key != tbl.name) return kitchen().find_table(key);
  return nullptr;
}

class reference_translation {
 public:
  explicit reference_translation(const ref_registry& reg) : reg_(reg) {}

  // A ref the translator wrote for `uuid`.
  void check_ref(const json& ours, const std::string& uuid, const std::string& path) {
    check(ours.is_string(), "a UUID is not shown as a ref", path + ": " + ours.dump());
    const ref_entry* entry = reg_.find(ours.get<std::string>());
    check(entry != nullptr, "a ref the registry does not know", path + ": " + ours.dump());
    check(entry->key == canonical_uuid(uuid), "a ref for another UUID", path + ": " + ours.dump() + " for " + uuid);
  }

  void rows(const table& tbl, const json& theirs, const json& ours, const std::string& path) {
    check(ours.is_array(), "rows are not an array", path);
    std::size_t k = 0;
    for (const auto& item : theirs) {
      if (!item.is_object()) continue;  // only objects are rows
      check(k < ours.size(), "a row is missing", path);
      row(tbl, item, ours[k], path + "[" + std::to_string(k) + "]");
      ++k;
    }
    check(k == ours.size(), "more rows than the body has", path);
  }

  void row(const table& tbl, const json& theirs, const json& ours, const std::string& path) {
    check(ours.is_object(), "a row is not an object", path + ": " + ours.dump());
    std::size_t expected_members = 0;
    for (const auto& [key, value] : theirs.items()) {
      const std::string where = path + "." + key;
      const bool shown = ours.contains(key);
      const auto hidden = std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), key);
      if (tbl.hides_owner(key) || hidden != tbl.hidden_columns.end()) {
        check(!shown, "the owner or a hidden column is shown", where);
        continue;
      }
      if (const column* col = tbl.find_column(key)) {
        expected_members += shown;
        if (col->type == column_type::uuid) {
          const table* target = col->name == "id" ? &tbl
                                : col->user_id    ? kitchen().users_table()
                                                  : kitchen().find_table(col->references);
          const bool uuid = value.is_string() && is_uuid_syntax(value.get<std::string>());
          check(shown == (target && (value.is_null() || uuid)), "a uuid column shown when it must not, or not shown",
                where + ": " + value.dump());
          if (!shown) continue;
          if (value.is_null())
            check(ours[key].is_null(), "null in a uuid column is not shown as null", where);
          else
            check_ref(ours[key], value.get<std::string>(), where);
          const std::string label_key = "_" + key + "_label";
          if (ours.contains(label_key)) {
            check(col->name != "id" && ours[label_key].is_string(), "a label that is not a string", where);
            ++expected_members;
          }
        } else if (col->type == column_type::uuid_array) {
          const table* target = kitchen().find_table(col->references);
          check(shown == (target != nullptr), "a uuid[] column shown when it must not, or not shown", where);
          if (!shown) continue;
          if (!value.is_array()) {
            check(ours[key].is_null(), "a uuid[] column that is not an array is not shown as null", where);
            continue;
          }
          std::size_t k = 0;
          for (const auto& item : value) {
            if (!item.is_string() || !is_uuid_syntax(item.get<std::string>())) continue;
            check(k < ours[key].size(), "a UUID of a uuid[] column is missing", where);
            check_ref(ours[key][k++], item.get<std::string>(), where);
          }
          check(k == ours[key].size(), "a uuid[] column has more refs than UUIDs", where);
        } else {
          check(shown && ours[key] == value, "a column's value is not copied exactly", where + ": " + value.dump());
        }
      } else if (const table* target = embed_target(tbl, key)) {
        check(shown, "embedded rows are not shown", where);
        ++expected_members;
        if (value.is_array())
          rows(*target, value, ours[key], where);
        else if (value.is_object())
          row(*target, value, ours[key], where);
        else
          check(ours[key].is_null(), "an embed that is not rows is not shown as null", where);
      } else {
        check(!shown, "an undeclared member is shown", where);
      }
    }
    check(ours.size() == expected_members, "a row has members the body does not explain", path + ": " + ours.dump());
  }

 private:
  const ref_registry& reg_;
};

constexpr ref_action kActions[] = {ref_action::read, ref_action::created, ref_action::updated, ref_action::deleted};

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  if (size == 0) return 0;
  const auto& tables = kitchen().tables;
  const table& tbl = tables[data[0] % tables.size()];
  const ref_action action = kActions[(data[0] / tables.size()) % 4];
  const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);

  ref_registry reg = sample_registry();
  const std::string before = reg.to_json();
  auto survey = unlabeled_references(kitchen(), reg, tbl, body);
  bool quotes_uuid = true;
  auto translated = translate_rows(kitchen(), reg, tbl, body, action, {}, nullptr, &quotes_uuid);
  const bool parses = json_document::parse(body).ok();
  check(translated.ok() == parses, "the translator and the JSON reader disagree on a body",
        translated ? "translated" : translated.err().message);
  check(survey.ok() == parses, "the label survey and the JSON reader disagree on a body");
  ref_registry labeled = sample_registry();
  check(apply_labels(kitchen(), labeled, tbl, body).ok() == parses, "apply_labels and the JSON reader disagree");
  // The labels a read's rows bring along (every foreign key of the table, its
  // embeds' rows' too) are registered as a lookup's are.
  std::vector<std::string> columns{"*"};
  for (const auto& rel : tbl.relations) columns.push_back(rel.name + "(*)");
  check(apply_embedded_labels(labeled, label_embeds(kitchen(), tbl, columns), body).ok() == parses,
        "apply_embedded_labels and the JSON reader disagree");
  for (const auto& entry : labeled.entries())
    check(
        labeled.find(entry.ref) == &entry && (entry.generated || labeled.find_by_uuid(entry.key, entry.type) == &entry),
        "apply_labels registered a row that is not found", entry.ref);
  check(ref_registry::from_json(labeled.to_json()).ok(), "labels leave a state that does not restore");
  if (!translated) {
    check(translated.err().code == "invalid_json", "an unexpected translation error", translated.err().code);
    check(reg.to_json() == before, "a refused body changed the registry", reg.to_json());
    return 0;
  }
  for (const auto& lookup : *survey) {
    check(lookup.target != nullptr && !lookup.keys.empty(), "an empty label lookup");
    for (const auto& uuid : lookup.keys)
      check(is_uuid_syntax(uuid) && canonical_uuid(uuid) == uuid, "a label lookup for a non-canonical UUID", uuid);
  }
  check(ref_registry::from_json(reg.to_json()).ok(), "translation leaves a state that does not restore", reg.to_json());

  const std::string& out = *translated;
  if (!quotes_uuid) {
    // The translator saw no UUID in a string it wrote: the scrub for the
    // model, which the executor then skips, would have changed nothing.
    std::string scrubbed = out;
    scrub_uuids(scrubbed, reg);
    check(scrubbed == out, "the translator missed a UUID that the scrub finds", out);
  }
  const auto ours = parse_reference(out);
  const bool utf8 = valid_utf8(body);
  // A number beyond a double is copied as written: JSON.parse reads it as
  // Infinity, nlohmann refuses it.
  check(ours.value.has_value() || ours.number_overflow || !utf8, "the translator wrote text that is not JSON", out);
  if (!utf8 || !ours.value) return 0;
  const auto theirs = parse_reference(body);
  if (!theirs.value || theirs.duplicate_keys) return 0;  // a repeated key is shown as often as it is given
  reference_translation reference(reg);
  if (theirs.value->is_array())
    reference.rows(tbl, *theirs.value, *ours.value, "$");
  else if (theirs.value->is_object())
    reference.row(tbl, *theirs.value, *ours.value, "$");
  else
    check(ours.value->is_null(), "a body that is not rows is not shown as null", out);
  return 0;
}
