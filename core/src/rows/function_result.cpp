// A function's answer that is not rows of a domain table, as rows the model
// may see (alfred/rows/function_result.h): keys in fields named like the
// domain's foreign keys become refs, user ids `me` or refs of the domain's users.
#include "alfred/rows/function_result.h"

#include <algorithm>
#include <span>

#include "../json/format.h"
#include "../tool_call/row_key.h"
#include "alfred/json/json.h"
#include "alfred/rows/row_translation.h"
#include "alfred/uuid/uuid.h"
#include "alfred/uuid/uuid_bits.h"

namespace alfred {
namespace {

// `value` as a key of `target` (row_key.h), or nothing.
std::optional<std::string> key_of(const table& target, json_value value) {
  const column* key = target.key_column();
  return key ? detail::key_text(key->type, value) : std::nullopt;
}

class json_translator {
 public:
  json_translator(const domain& dom, ref_registry& registry, std::string_view me, std::string& out,
                  std::span<const std::string> subjects = {})
      : dom_(dom),
        registry_(registry),
        me_(me.empty() ? std::string() : canonical_uuid(me)),
        subjects_(subjects),
        w_(out) {}

  // A ref for `key` of `target`, labelled `label` when it is not empty and
  // the row has none, or when the call named this row (a subject: a team
  // renamed by update_account(account_id) reads with its new name from then
  // on; a listing's object may hold another row's name); "" when the
  // registry has no number left.
  std::string ref_for(const table& target, const std::string& key, std::string_view label) {
    const column& key_col = *target.key_column();
    std::size_t index = ref_registry::npos;
    if (key_col.type == column_type::uuid) {
      if (auto bits = parse_uuid_bits(key))
        index = registry_.register_linked_index(target.name, target.ref_prefix, *bits);
    } else {
      index = registry_.register_linked_key_index(target.name, target.ref_prefix, key);
      // A row labelled by its key (a role by its name): its text is its label.
      if (index != ref_registry::npos && label.empty() && target.labelled_by_key()) label = key;
    }
    if (index == ref_registry::npos) return {};
    const bool subject = std::find(subjects_.begin(), subjects_.end(), key) != subjects_.end();
    if (!label.empty() && (subject || registry_.entries()[index].label.empty())) registry_.set_label(index, label);
    return registry_.entries()[index].ref;
  }

  void value(json_value value) {
    if (value.is_object())
      object(value);
    else if (value.is_array())
      array(value);
    else
      w_.value(value, true);
  }

  void array(json_value value) {
    w_.begin_array();
    value.for_each_element([&](std::size_t, json_value item) { this->value(item); });
    w_.end_array();
  }

  // Which member (its position) names the row an object with no id of its
  // own describes, so the object's label columns label that row: a member
  // list's `user_id`, else the first key of a row that is not a user's (a
  // team's line with its creator is the team's), else the first user id;
  // never a row labelled by its key (a role by its name: its text is its
  // label). npos for none.
  std::size_t subject_member(json_value value) const {
    const table* users = dom_.users_table();
    std::size_t at = 0, named = npos, other = npos, user = npos;
    value.for_each_member([&](std::string_view key, json_value member) {
      const table* target = dom_.field_reference(key);
      if (target && !target->labelled_by_key() && key_of(*target, member)) {
        if (target != users)
          other = std::min(other, at);
        else if (key == "user_id")
          named = at;
        else
          user = std::min(user, at);
      }
      ++at;
    });
    return named != npos ? named : other != npos ? other : user;
  }

  void object(json_value value) {
    const std::size_t subject = value.find("id") ? npos : subject_member(value);
    std::size_t at = 0;
    w_.begin_object();
    value.for_each_member([&](std::string_view key, json_value member) {
      const bool is_subject = at++ == subject;
      // A user id is a key of the domain's users: the signed-in user's `me`, another's a ref labelled by the
      // name beside it; it never reaches the model as it is.
      if (const table* target = dom_.field_reference(key)) {
        if (auto row_key = key_of(*target, member)) {
          if (target->keyed_by_user() && *row_key == me_) {
            w_.key(key);
            w_.string(kCurrentUserRef);
            return;
          }
          const std::string label = is_subject ? row_label(*target, value) : std::string();
          const std::string ref = ref_for(*target, *row_key, label);
          if (!ref.empty()) {
            w_.key(key);
            w_.string(ref);
            // A role by its name: the name beside the ref, as a read shows a foreign key's label.
            if (target->labelled_by_key()) {
              w_.key(textfmt::format("_{}_label", key));
              w_.string(*row_key);
            }
            return;
          }
        }
      }
      w_.key(key);
      this->value(member);
    });
    w_.end_object();
  }

  /// The writer every value of the result goes through (one writer per
  /// text: a second one would not know where commas go).
  json_writer& writer() { return w_; }

 private:
  static constexpr std::size_t npos = std::size_t(-1);
  const domain& dom_;
  ref_registry& registry_;
  std::string me_;
  std::span<const std::string> subjects_;
  json_writer w_;
};

// The rows of a result: an array's elements, one object, or a value.
template <class Row>
std::size_t write_rows(json_value root, json_writer& w, Row&& row) {
  std::size_t n = 0;
  w.begin_array();
  if (root.is_array()) {
    root.for_each_element([&](std::size_t, json_value item) {
      row(item);
      ++n;
    });
  } else if (!root.is_null()) {
    row(root);
    n = 1;
  }
  w.end_array();
  return n;
}

}  // namespace

result<std::string> translate_function_json(const domain& dom, ref_registry& registry, std::string_view body,
                                            std::string_view current_user, std::size_t* rows_written,
                                            std::span<const std::string> subjects) {
  auto doc = json_document::parse(body.empty() ? std::string_view("null") : body);
  if (!doc)
    return error{codes::invalid_json, "", textfmt::format("the function's answer is not JSON: {}", doc.err().message),
                 "this is a server problem, not a tool-call problem"};
  std::string out;
  registry.begin_batch();
  json_translator translator(dom, registry, current_user, out, subjects);
  json_writer& w = translator.writer();
  const std::size_t n = write_rows(doc->root(), w, [&](json_value item) {
    if (item.is_object()) return translator.object(item);
    w.begin_object();
    w.key("value");
    translator.value(item);
    w.end_object();
  });
  registry.commit_batch();
  if (rows_written) *rows_written = n;
  return out;
}

result<std::string> translate_function_values(const domain& dom, ref_registry& registry, const db_function& fn,
                                              std::string_view body, std::size_t* rows_written) {
  auto doc = json_document::parse(body.empty() ? std::string_view("null") : body);
  if (!doc)
    return error{codes::invalid_json, "", textfmt::format("the function's answer is not JSON: {}", doc.err().message),
                 "this is a server problem, not a tool-call problem"};
  const table* target = fn.returns.references.empty() ? nullptr : dom.find_table(fn.returns.references);
  std::string out;
  json_translator translator(dom, registry, {}, out);
  json_writer& w = translator.writer();
  auto row = [&](json_value item) {
    w.begin_object();
    w.key("value");
    std::string ref;
    if (target)
      if (auto key = key_of(*target, item)) ref = translator.ref_for(*target, *key, {});
    if (!ref.empty())
      w.string(ref);
    else
      w.value(item, true);
    w.end_object();
  };
  std::size_t n = 1;
  if (fn.returns.set) {
    n = write_rows(doc->root(), w, row);
  } else {
    // One value, which may itself be a list (`returns text[]`).
    w.begin_array();
    row(doc->root());
    w.end_array();
  }
  if (rows_written) *rows_written = n;
  return out;
}

}  // namespace alfred
