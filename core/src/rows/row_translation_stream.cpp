#include "row_translation_stream.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

#include "../json/format.h"
#include "alfred/json/json.h"
#include "alfred/uuid/uuid_bits.h"
#include "row_output.h"
#include "row_plan.h"
#include "row_stream_state.h"
#include "row_translation_labels.h"
#include "row_value_copier.h"

namespace alfred::detail {
namespace {

// The rows of one response, read through json_value_copier: rows,
// their members as the table's plan says, keys turned into refs and labels.
class row_stream : json_value_copier {
 public:
  // Translating: `writing` set. Surveying: null, and `out` is scratch.
  row_stream(const domain& dom, const ref_registry& reading, ref_registry* writing, std::string_view text,
             std::string& out, std::string_view current_user)
      : json_value_copier(out, text),
        dom_(dom),
        reading_(reading),
        writing_(writing),
        me_(current_user.empty() ? std::nullopt : parse_uuid_bits(current_user)) {}

  status run(const table& tbl, ref_action action) {
    action_ = action;
    const table_plan& plan = plan_of(tbl);
    skip_space();
    bool ok = true;
    if (lex_.size() >= 0xFFFFFFF0u) {
      ok = fail("the JSON text is too large");
    } else if (at('[')) {
      ok = rows(plan, 0);
    } else if (at('{')) {
      rows_written_ = 1;
      ok = row(plan, 0);
    } else {
      ok = value(0, false);
      emit("null");
    }
    skip_space();
    if (ok && !lex_.at_end()) fail("unexpected text after the JSON value");
    out_.finish();
    if (over_limit_)
      return error{codes::response_too_large, "rows", textfmt::format("more than {} rows", row_limit_), ""};
    if (full_prefix_)
      return error{
          codes::registry_full, "",
          textfmt::format("no ref number is left for {} (the limit is {} per type)", *full_prefix_, kMaxRefNumber),
          "start a new session: this registry cannot name more rows of this type"};
    if (lex_.problem())
      return error{codes::invalid_json, "rows",
                   textfmt::format("invalid JSON at byte {}: {}", lex_.offset(), lex_.problem()),
                   "rows must be the JSON PostgREST returned"};
    return ok_status();
  }

  /// The rows written at the top (the array's rows, or 1 for one row object).
  std::size_t rows_written() const { return rows_written_; }

  /// Stops at the array's element after `limit` (run then says so): the
  /// elements are counted as they are translated, not in a pass of their own.
  void limit_rows(std::size_t limit) { row_limit_ = limit; }

  /// Whether a string of the output may hold a UUID: when not, scrub_uuids
  /// would leave the output as it is.
  bool quotes_uuid() const { return quotes_uuid_; }

  /// While translating, also note the foreign keys written without a label
  /// (`still_unlabeled` then says which of them no row of the text labeled).
  void collect_unlabeled() { collect_unlabeled_ = true; }

  std::vector<label_lookup> lookups() const {
    return lookups_where([&](const row_set::item& it) { return !labeled_rows_.contains(it.tbl, key_of(it)); });
  }

  /// After translating with collect_unlabeled: the foreign-key targets that
  /// still have no label in the registry (a row later in the text may have
  /// given one), as `lookups` would have said before translating.
  std::vector<label_lookup> still_unlabeled() const {
    return lookups_where([&](const row_set::item& it) {
      const std::size_t known = find_known(*it.tbl, key_of(it));
      return known == ref_registry::npos || reading_.entries()[known].label.empty();
    });
  }

 private:
  static row_key key_of(const row_set::item& it) { return {it.is_uuid, it.bits, it.text}; }

  template <class Wanted>
  std::vector<label_lookup> lookups_where(Wanted&& wanted_row) const {
    std::vector<label_lookup> out;
    for (const auto& item : unlabeled_.rows) {
      // A table the API does not expose cannot be read for labels: its refs
      // are labelled where function results hand them out.
      if (!item.tbl->exposed || !item.tbl->readable || !wanted_row(item)) continue;
      auto it = std::find_if(out.begin(), out.end(), [&](const label_lookup& l) { return l.target == item.tbl; });
      if (it == out.end()) it = out.insert(out.end(), label_lookup{item.tbl, {}});
      it->keys.push_back(item.is_uuid ? uuid_text(item.bits) : item.text);
    }
    return out;
  }

  // The registry position of a key of `target`'s rows, or npos.
  std::size_t find_known(const table& target, const row_key& key) const {
    return key.is_uuid ? reading_.find_index(key.bits, target.ref_prefix)
                       : reading_.find_key_index(target.ref_prefix, key.text);
  }
  std::size_t register_row(const table& tbl, const row_key& key, ref_action action) {
    return key.is_uuid ? writing_->register_row_index(tbl.name, tbl.ref_prefix, key.bits, action, {})
                       : writing_->register_key_index(tbl.name, tbl.ref_prefix, key.text, action, {});
  }
  std::size_t register_linked(const table& target, const row_key& key) {
    if (key.is_uuid) return writing_->register_linked_index(target.name, target.ref_prefix, key.bits);
    const std::size_t index = writing_->register_linked_key_index(target.name, target.ref_prefix, key.text);
    // A row labelled by its key (a role by its name) is labelled by its text here already.
    if (index != ref_registry::npos && target.labelled_by_key() && reading_.entries()[index].label.empty())
      writing_->set_label(index, key.text);
    return index;
  }

  bool translating() const { return writing_ != nullptr; }

  // A new row whose prefix has no ref number left: the translation stops
  // (and the registry rolls back) rather than show a row without its ref.
  bool registry_full(const std::string& prefix) {
    if (!full_prefix_) full_prefix_ = prefix;
    return fail("the registry is full");
  }

  // The domain's plan for `tbl`, or one made here for a domain without
  // plans (a copy: table_plans).
  const table_plan& plan_of(const table& tbl) {
    const table_plan* plan = dom_.row_plans.find(dom_, tbl);
    if (!plan) {
      for (const auto& made : plans_)
        if (made->tbl == &tbl) plan = made.get();
      if (!plan) plan = plans_.emplace_back(make_plan(dom_, tbl)).get();
    }
    quotes_uuid_ = quotes_uuid_ || plan->quotes_uuid;
    return *plan;
  }

  // An array of rows: objects are rows, anything else is checked and left out
  // (so the commas are written here, not by `container`).
  bool rows(const table_plan& plan, int depth) {
    bool first = true;
    emit('[');
    const bool ok = container(depth, false, '[', ']', "expected , or ]", [&] {
      // Every element at the top counts against the limit, a row or not.
      if (depth == 0 && ++elements_ > row_limit_) {
        over_limit_ = true;
        return fail("too many rows");
      }
      if (!at('{')) return value(depth + 1, false);
      if (!first) emit(',');
      first = false;
      if (depth == 0) ++rows_written_;
      return row(plan, depth + 1);
    });
    emit(']');
    return ok;
  }

  // A row: its members as `member` decides, then its label registered.
  bool row(const table_plan& plan, int depth) {
    if (frames_open_ == frames_.size()) frames_.emplace_back();
    const std::size_t frame_at = frames_open_++;
    frames_[frame_at].open(plan);
    bool wrote = false;
    emit('{');
    const bool ok = container(depth, false, '{', '}', "expected , or }", [&] {
      if (!at('"')) return fail("expected a key");
      string_span key_span;
      if (!scan_string(key_span)) return false;
      const std::string_view key = content(key_span, key_scratch_);
      skip_space();
      if (!at(':')) return fail("expected :");
      lex_.advance();
      skip_space();
      return member(plan, plan.find(key), frame_at, depth + 1, wrote);
    });
    if (ok) {
      finish_label(frame_at);
      emit('}');
    }
    --frames_open_;
    return ok;
  }

  // At `n`: a key or user id that is null stays null.
  bool null_member(const member_rule& rule, bool& wrote) {
    if (!literal("null")) return false;
    emit_key(rule, wrote);
    emit("null");
    return true;
  }

  [[gnu::always_inline]] void emit_key(const member_rule& rule, bool& wrote) {
    if (wrote) emit(',');
    wrote = true;
    emit(rule.key_text);
  }

  bool member(const table_plan& plan, const member_rule* rule, std::size_t frame_at, int depth, bool& wrote) {
    if (!rule) return whole_value(depth, false);
    if (rule->label_slot >= 0 && (rule->kind == member_kind::drop || rule->kind == member_kind::copy)) {
      if (rule->kind == member_kind::copy) emit_key(*rule, wrote);
      row_frame& frame = frames_[frame_at];
      const auto slot = std::size_t(rule->label_slot);
      return label_value(depth, rule->kind == member_kind::copy, frame.values[slot], frame.decoded[slot]);
    }
    switch (rule->kind) {
      case member_kind::drop:
        return whole_value(depth, false);
      case member_kind::copy:
        emit_key(*rule, wrote);
        return whole_value(depth, true);
      case member_kind::row_id:
      case member_kind::foreign_key:
        return key_member(plan, *rule, frame_at, depth, wrote);
      case member_kind::uuid_array:
        return uuid_array_member(*rule, depth, wrote);
      case member_kind::embed:
        emit_key(*rule, wrote);
        // Rows below should see this row's label (their foreign key to it).
        flush_label(frame_at);
        if (at('[')) return rows(plan_of(*rule->target), depth);
        if (at('{')) return row(plan_of(*rule->target), depth);
        emit("null");
        return value(depth, false);
    }
    return value(depth, false);
  }

  // At a key of `type`: reads it (a UUID, an integer's digits, a text),
  // or skips a value of another shape (false in `found`).
  bool read_key(column_type type, int depth, row_key& key, bool& found) {
    found = false;
    const char* p = lex_.cursor();
    if (type == column_type::uuid) {
      if (!at('"')) return value(depth, false);
      std::optional<uuid_bits> bits;
      if (lex_.end() - p >= 38 && p[37] == '"' && (bits = parse_uuid_bits(std::string_view(p + 1, 36)))) {
        lex_.advance(38);  // hex digits and dashes only: nothing to unescape or check
      } else {
        string_span s;
        if (!scan_string(s)) return false;
        bits = parse_uuid_bits(content(s, scratch_));
        if (!bits) return true;
      }
      key = {true, *bits, {}};
      found = true;
      return true;
    }
    if (type == column_type::integer && !at('"')) {
      if (!(at('-') || (lex_.peek() >= '0' && lex_.peek() <= '9'))) return value(depth, false);
      if (!number()) return false;
      key = {false, {}, std::string_view(p, std::size_t(lex_.cursor() - p))};
      found = is_integer_key(key.text);  // 1.5 or 1e3 is no key
      return true;
    }
    if (!at('"')) return value(depth, false);
    string_span s;
    if (!scan_string(s)) return false;
    key = {false, {}, content(s, scratch_)};
    found = type == column_type::integer ? is_integer_key(key.text) : !key.text.empty();
    return true;
  }

  [[gnu::always_inline]] bool is_me(const row_key& key) const { return key.is_uuid && me_ && key.bits == *me_; }

  // A key column or foreign key: null stays null, a key becomes a ref (and
  // a foreign key its target's label), the signed-in user's id `me`, and
  // anything else is left out.
  bool key_member(const table_plan& plan, const member_rule& rule, std::size_t frame_at, int depth, bool& wrote) {
    if (at('n')) return null_member(rule, wrote);
    row_key key;
    bool found = false;
    if (!read_key(rule.key_type, depth, key, found)) return false;
    if (!found) return true;
    const table& keyed = rule.kind == member_kind::row_id ? *plan.tbl : *rule.target;
    if (is_me(key) && keyed.keyed_by_user()) {
      // The user's own row (a table keyed by user ids) or a reference to it:
      // `me`, never registered under a ref of its own. Elsewhere the same
      // UUID is a row of its own (basejump's personal account is keyed by
      // its owner's id).
      if (translating()) {
        emit_key(rule, wrote);
        emit("\"me\"");
      }
      return true;
    }
    if (rule.kind == member_kind::row_id) {
      row_frame& frame = frames_[frame_at];
      frame.has_id = true;
      frame.id_is_uuid = key.is_uuid;
      frame.id = key.bits;
      if (translating()) {
        frame.id_index = register_row(*plan.tbl, key, action_of(frame_at));
        if (frame.id_index == ref_registry::npos) return registry_full(plan.tbl->ref_prefix);
        emit_key(rule, wrote);
        emit_quoted(reading_.entries()[frame.id_index].ref);
        if (!plan.own_label_key_text.empty()) frame.id_text.assign(key.text);
      } else if (!key.is_uuid) {
        frame.id_text.assign(key.text);
      }
      return true;
    }
    if (!translating()) {
      const std::size_t known = find_known(*rule.target, key);
      if ((known == ref_registry::npos || reading_.entries()[known].label.empty()) && !rule.target->labelled_by_key())
        unlabeled_.add(rule.target, key);
      return true;
    }
    const std::size_t index = register_linked(*rule.target, key);
    if (index == ref_registry::npos) return registry_full(rule.target->ref_prefix);
    // A key to a row this one is embedded in (recipe_ingredients' recipe_id
    // under its recipe) gets no label when that row's text shows its own.
    bool names_enclosing_row = false;
    for (std::size_t open = 0; open < frames_open_; ++open)
      if (frames_[open].id_index == index) names_enclosing_row |= !flush_label(open).empty();
    const ref_entry& entry = reading_.entries()[index];
    if (collect_unlabeled_ && entry.label.empty()) unlabeled_.add(rule.target, key);
    emit_key(rule, wrote);
    emit_quoted(entry.ref);
    if (!names_enclosing_row && !entry.label.empty() && entry.label != entry.ref) {
      const std::size_t from = out_.offset();
      emit(rule.label_key_text);
      const std::size_t label_from = out_.offset();
      emit_quoted(entry.label);
      frames_[frame_at].fk_labels.push_back({from, label_from, out_.offset()});
    }
    return true;
  }

  // A uuid[] column: an array of refs (non-UUID elements left out), or null.
  bool uuid_array_member(const member_rule& rule, int depth, bool& wrote) {
    emit_key(rule, wrote);
    if (!at('[')) {
      emit("null");
      return value(depth, false);
    }
    emit('[');
    bool first = true;
    const bool ok = container(depth, false, '[', ']', "expected , or ]", [&] {
      if (!at('"')) return value(depth + 1, false);
      string_span s;
      if (!scan_string(s)) return false;
      const auto bits = parse_uuid_bits(content(s, scratch_));
      if (!bits || !translating()) return true;
      const std::size_t index = writing_->register_linked_index(rule.target->name, rule.target->ref_prefix, *bits);
      if (index == ref_registry::npos) return registry_full(rule.target->ref_prefix);
      if (!first) emit(',');
      first = false;
      emit_quoted(reading_.entries()[index].ref);
      return true;
    });
    emit(']');
    return ok;
  }

  ref_action action_of(std::size_t frame_at) const { return frame_at == 0 ? action_ : ref_action::read; }

  // Gives the row's id the label its values so far make; returns that label
  // when the row's own text shows the values it is made of, else "".
  std::string_view flush_label(std::size_t frame_at) {
    row_frame& frame = frames_[frame_at];
    if (!translating() || frame.id_index == ref_registry::npos) return {};
    const std::string_view label = render_label(frame.plan->label, frame.values, label_scratch_);
    writing_->set_label(frame.id_index, label);
    return frame.plan->label_shown ? label : std::string_view();
  }

  // Takes out the row's foreign-key labels that repeat its own label (a
  // recipe_ingredients row named as the catalog ingredient it links to):
  // the row's text says it already. Last first, so the offsets before hold.
  void drop_repeated_labels(row_frame& frame, std::string_view own) {
    if (own.empty()) return;
    // Labels are written as put_quoted writes them: quotes around, escaped when they must be.
    const bool plain = end_of_plain_run(own.data(), 0, own.size()) == own.size();
    const std::string escaped = plain ? std::string() : json_quote(own);
    for (auto it = frame.fk_labels.rbegin(); it != frame.fk_labels.rend(); ++it) {
      const std::string_view quoted = out_.written(it->label_from, it->to);
      if (plain ? quoted.size() == own.size() + 2 && quoted.substr(1, own.size()) == own : quoted == escaped)
        out_.erase(it->from, it->to);
    }
  }

  void finish_label(std::size_t frame_at) {
    if (translating()) {
      row_frame& frame = frames_[frame_at];
      const std::string_view own = flush_label(frame_at);
      if (!frame.fk_labels.empty()) drop_repeated_labels(frame, own);
      // The key's text is the label the ref stands in for: `"name":"role_1","_name_label":"owner"`.
      if (frame.id_index != ref_registry::npos && !frame.plan->own_label_key_text.empty() && !frame.id_text.empty()) {
        writing_->set_label(frame.id_index, frame.id_text);
        emit(frame.plan->own_label_key_text);
        emit_quoted(frame.id_text);
      }
      return;
    }
    row_frame& frame = frames_[frame_at];
    if (frame.has_id && !render_label(frame.plan->label, frame.values, label_scratch_).empty())
      labeled_rows_.add(frame.plan->tbl, row_key{frame.id_is_uuid, frame.id, frame.id_text});
  }

  const domain& dom_;
  const ref_registry& reading_;
  ref_registry* writing_;
  std::size_t rows_written_ = 0;
  std::size_t row_limit_ = std::size_t(-1);
  std::size_t elements_ = 0;
  bool over_limit_ = false;
  std::optional<std::string> full_prefix_;
  ref_action action_ = ref_action::read;
  std::vector<std::unique_ptr<table_plan>> plans_;
  std::vector<row_frame> frames_;
  std::size_t frames_open_ = 0;
  std::string key_scratch_;
  std::string label_scratch_;
  // Survey: foreign keys without a label, and rows of the response that have one.
  row_set unlabeled_;
  row_set labeled_rows_;
  bool collect_unlabeled_ = false;
  // The signed-in user's id, shown as `me`.
  std::optional<uuid_bits> me_;
};

}  // namespace

status translate_row_stream(const domain& dom, ref_registry& registry, const table& tbl, std::string_view text,
                            ref_action action, std::string& out, std::vector<label_lookup>* unlabeled,
                            std::string_view current_user, std::size_t* rows_written, bool* quotes_uuid,
                            std::size_t max_rows) {
  registry.begin_batch();
  status done = ok_status();
  try {
    row_stream stream(dom, registry, &registry, text, out, current_user);
    if (unlabeled) stream.collect_unlabeled();
    stream.limit_rows(max_rows);
    done = stream.run(tbl, action);
    if (done && unlabeled) *unlabeled = stream.still_unlabeled();
    if (rows_written) *rows_written = stream.rows_written();
    if (quotes_uuid) *quotes_uuid = stream.quotes_uuid();
  } catch (...) {
    // Out of memory halfway: the rows registered so far are taken back
    // before the failure goes on up (the API layer reports it).
    out.clear();
    out.shrink_to_fit();
    registry.rollback_batch();
    throw;
  }
  if (done && !(unlabeled && !unlabeled->empty())) {
    registry.commit_batch();
  } else {
    registry.rollback_batch();
    out.clear();
  }
  return done;
}

result<std::vector<label_lookup>> survey_row_stream(const domain& dom, const ref_registry& registry, const table& tbl,
                                                    std::string_view text, std::string_view current_user) {
  std::string scratch;
  row_stream stream(dom, registry, nullptr, text, scratch, current_user);
  auto done = stream.run(tbl, ref_action::read);
  if (!done) return done.take_error();
  return stream.lookups();
}

}  // namespace alfred::detail
