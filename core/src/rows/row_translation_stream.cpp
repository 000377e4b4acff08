#include "row_translation_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>

#include "../json/json_lexer.h"
#include "../json/json_scan.h"
#include "alfred/json.h"
#include "alfred/uuid_bits.h"
#include "row_output.h"
#include "row_plan.h"
#include "row_translation_labels.h"

namespace alfred::detail {
namespace {

constexpr int kMaxDepth = 64;  // as json_document::parse

// A key read from the bytes: a UUID's bits, or the text of another key
// (integer digits, text), which is unique only within its table.
struct row_key {
  bool is_uuid = true;
  uuid_bits bits;
  std::string_view text;
};

// Distinct (table, key) pairs in the order first added.
struct row_set {
  struct item {
    const table* tbl;
    bool is_uuid;
    uuid_bits bits;
    std::string text;
  };
  std::vector<item> rows;
  entry_index index;

  static std::uint32_t hash(const table* tbl, const row_key& key) {
    std::uint32_t h = std::uint32_t(reinterpret_cast<std::uintptr_t>(tbl) >> 3);
    if (key.is_uuid) return uuid_hash(key.bits) ^ h;
    for (char c : key.text) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h;
  }
  bool contains(const table* tbl, const row_key& key) const {
    return index.find(hash(tbl, key), [&](std::uint32_t at) {
      const item& it = rows[at];
      return it.tbl == tbl && it.is_uuid == key.is_uuid && (key.is_uuid ? it.bits == key.bits : it.text == key.text);
    }) != entry_index::npos;
  }
  void add(const table* tbl, const row_key& key) {
    if (contains(tbl, key)) return;
    index.insert(hash(tbl, key), std::uint32_t(rows.size()));
    rows.push_back({tbl, key.is_uuid, key.bits, key.is_uuid ? std::string() : std::string(key.text)});
  }
};

// The label values of one open row.
struct row_frame final : label_values {
  const table_plan* plan = nullptr;
  std::size_t id_index = ref_registry::npos;
  bool has_id = false;
  uuid_bits id;
  bool id_is_uuid = true;
  std::string id_text;  // a key that is not a UUID (surveys only)
  std::vector<std::string_view> values;
  std::vector<std::string> decoded;  // storage for values that had escapes

  void open(const table_plan& p) {
    plan = &p;
    id_index = ref_registry::npos;
    has_id = false;
    values.assign(p.label_names.size(), {});
    if (decoded.size() < values.size()) decoded.resize(values.size());
  }

  std::string_view text_of(std::string_view column) const override {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (plan->label_names[i] == column) return values[i];
    return {};
  }
};

class row_stream {
 public:
  // Translating: `writing` set. Surveying: null, and `out` is scratch.
  row_stream(const domain& dom, const ref_registry& reading, ref_registry* writing, std::string_view text,
             std::string& out, std::string_view current_user)
      : dom_(dom),
        reading_(reading),
        writing_(writing),
        out_(out, text.size()),
        lex_(text),
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
    if (full_prefix_)
      return error{codes::registry_full, "",
                   fmt::format("no ref number is left for {} (the limit is {} per type)", *full_prefix_, kMaxRefNumber),
                   "start a new session: this registry cannot name more rows of this type"};
    if (lex_.problem())
      return error{codes::invalid_json, "rows",
                   fmt::format("invalid JSON at byte {}: {}", lex_.offset(), lex_.problem()),
                   "rows must be the JSON PostgREST returned"};
    return ok_status();
  }

  /// The rows written at the top (the array's rows, or 1 for one row object).
  std::size_t rows_written() const { return rows_written_; }

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
      if (!wanted_row(item)) continue;
      auto it = std::find_if(out.begin(), out.end(), [&](const label_lookup& l) { return l.target == item.tbl; });
      if (it == out.end()) it = out.insert(out.end(), label_lookup{item.tbl, {}});
      it->keys.push_back(item.is_uuid ? uuid_text(item.bits) : item.text);
    }
    return out;
  }

  // The registry position of a key of `target`'s rows, or npos.
  std::size_t find_known(const table& target, const row_key& key) const {
    return key.is_uuid ? reading_.find_index(key.bits) : reading_.find_key_index(target.ref_prefix, key.text);
  }
  std::size_t register_row(const table& tbl, const row_key& key, ref_action action) {
    return key.is_uuid ? writing_->register_row_index(tbl.name, tbl.ref_prefix, key.bits, action, {})
                       : writing_->register_key_index(tbl.name, tbl.ref_prefix, key.text, action, {});
  }
  std::size_t register_linked(const table& target, const row_key& key) {
    return key.is_uuid ? writing_->register_linked_index(target.name, target.ref_prefix, key.bits)
                       : writing_->register_linked_key_index(target.name, target.ref_prefix, key.text);
  }

  bool translating() const { return writing_ != nullptr; }

  void emit(std::string_view text) { out_.put(text); }
  void emit(char c) { out_.put(c); }

  bool fail(const char* what) { return lex_.fail(what); }

  // A new row whose prefix has no ref number left: the translation stops
  // (and the registry rolls back) rather than show a row without its ref.
  bool registry_full(const std::string& prefix) {
    if (!full_prefix_) full_prefix_ = prefix;
    return fail("the registry is full");
  }

  void skip_space() { lex_.skip_space(); }
  bool at(char c) const { return lex_.at(c); }

  const table_plan& plan_of(const table& tbl) {
    for (const auto& plan : plans_)
      if (plan->tbl == &tbl) return *plan;
    plans_.push_back(make_plan(dom_, tbl));
    return *plans_.back();
  }

  // --- scalars ----------------------------------------------------------

  // At an opening quote: checks the literal and moves past it.
  bool scan_string(string_span& s) { return lex_.string(s); }

  // The decoded content: the text itself, or `storage` when it had escapes.
  static std::string_view content(string_span s, std::string& storage) {
    if (!s.escaped) return s.raw();
    storage.clear();
    decode_string(s, storage);
    return storage;
  }

  void emit_string(string_span s) {
    if (!s.escaped) return emit(std::string_view(s.begin - 1, std::size_t(s.end - s.begin) + 2));
    scratch_.clear();
    decode_string(s, scratch_);
    emit(json_quote(scratch_));
  }

  // At an opening quote: copies a string without escapes (the usual case) in
  // the same pass that finds its end, eight bytes at a time; anything else
  // goes through scan_string and is written escaped as JSON.stringify does.
  bool copy_string() {
    const char* end = lex_.end();
    out_.reserve(std::size_t(end - lex_.cursor()) + 8);
    char* to = out_.cursor();
    const char* from = lex_.cursor() + 1;
    *to++ = '"';
    while (end - from >= 8) {
      std::uint64_t word;
      std::memcpy(&word, from, 8);
      std::memcpy(to, &word, 8);
      if (const std::uint64_t special = special_bytes(word)) {
        const int plain = __builtin_ctzll(special) >> 3;
        from += plain;
        to += plain;
        break;
      }
      from += 8;
      to += 8;
    }
    while (from < end && !is_special(*from)) *to++ = *from++;
    if (from < end && *from == '"') {
      *to++ = '"';
      out_.advance_to(to);
      lex_.move_to(from + 1);
      return true;
    }
    string_span span;
    if (!scan_string(span)) return false;
    emit_string(span);
    return true;
  }

  bool literal(std::string_view word) { return lex_.literal(word); }
  bool number() { return lex_.number(); }

  // --- any value, copied compactly (emit) or only checked ----------------

  bool value(int depth, bool write) {
    if (lex_.at_end()) return fail("unexpected end of input");
    const char* start = lex_.cursor();
    switch (lex_.peek()) {
      case '{':
        return container(depth, write, '{', '}', "expected , or }", [&] {
          if (!at('"')) return fail("expected a key");
          if (!string_value(write)) return false;
          skip_space();
          if (!at(':')) return fail("expected :");
          lex_.advance();
          if (write) emit(':');
          skip_space();
          return value(depth + 1, write);
        });
      case '[':
        return container(depth, write, '[', ']', "expected , or ]", [&] { return value(depth + 1, write); });
      case '"':
        return write ? copy_string() : string_value(false);
      case 't':
        if (!literal("true")) return false;
        break;
      case 'f':
        if (!literal("false")) return false;
        break;
      case 'n':
        if (!literal("null")) return false;
        break;
      default:
        if (!number()) return false;
    }
    if (write) emit(std::string_view(start, std::size_t(lex_.cursor() - start)));
    return true;
  }

  bool string_value(bool write) {
    string_span s;
    if (!scan_string(s)) return false;
    if (write) emit_string(s);
    return true;
  }

  template <class F>
  bool container(int depth, bool write, char open, char close, const char* expected, F&& element) {
    if (depth >= kMaxDepth) return fail("nested too deeply");
    lex_.advance();
    if (write) emit(open);
    skip_space();
    if (at(close)) {
      lex_.advance();
    } else {
      while (true) {
        if (!element()) return false;
        skip_space();
        if (at(',')) {
          lex_.advance();
          if (write) emit(',');
          skip_space();
          continue;
        }
        if (at(close)) {
          lex_.advance();
          break;
        }
        return fail(expected);
      }
    }
    if (write) emit(close);
    return true;
  }

  // Checks a value and returns its label text (see label_values).
  bool label_value(int depth, bool write, std::string_view& text, std::string& storage) {
    text = {};
    if (at('"')) {
      string_span s;
      if (!scan_string(s)) return false;
      text = content(s, storage);
      if (write) emit_string(s);
      return true;
    }
    const char* start = lex_.cursor();
    if (!value(depth, write)) return false;
    if (*start == 't' || *start == 'f' || *start == '-' || (*start >= '0' && *start <= '9'))
      text = std::string_view(start, std::size_t(lex_.cursor() - start));
    return true;
  }

  // --- rows ---------------------------------------------------------------

  // An array of rows: objects are rows, anything else is checked and left out
  // (so the commas are written here, not by `container`).
  bool rows(const table_plan& plan, int depth) {
    bool first = true;
    emit('[');
    const bool ok = container(depth, false, '[', ']', "expected , or ]", [&] {
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

  void emit_key(const member_rule& rule, bool& wrote) {
    if (wrote) emit(',');
    wrote = true;
    emit(rule.key_text);
  }

  bool member(const table_plan& plan, const member_rule* rule, std::size_t frame_at, int depth, bool& wrote) {
    if (!rule) return value(depth, false);
    if (rule->label_slot >= 0 && (rule->kind == member_kind::drop || rule->kind == member_kind::copy)) {
      if (rule->kind == member_kind::copy) emit_key(*rule, wrote);
      row_frame& frame = frames_[frame_at];
      const auto slot = std::size_t(rule->label_slot);
      return label_value(depth, rule->kind == member_kind::copy, frame.values[slot], frame.decoded[slot]);
    }
    switch (rule->kind) {
      case member_kind::drop:
        return value(depth, false);
      case member_kind::copy:
        emit_key(*rule, wrote);
        return value(depth, true);
      case member_kind::row_id:
      case member_kind::foreign_key:
        return key_member(plan, *rule, frame_at, depth, wrote);
      case member_kind::user_ref:
        return user_member(*rule, depth, wrote);
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

  bool is_me(const row_key& key) const { return key.is_uuid && me_ && key.bits == *me_; }

  // A key column or foreign key: null stays null, a key becomes a ref (and
  // a foreign key its target's label), the signed-in user's id `me`, and
  // anything else is left out.
  bool key_member(const table_plan& plan, const member_rule& rule, std::size_t frame_at, int depth, bool& wrote) {
    if (at('n')) {
      if (!literal("null")) return false;
      emit_key(rule, wrote);
      emit("null");
      return true;
    }
    row_key key;
    bool found = false;
    if (!read_key(rule.key_type, depth, key, found)) return false;
    if (!found) return true;
    if (is_me(key)) {
      // The user's own row (a table keyed by user ids) or a reference to it:
      // `me`, never registered under a ref of its own.
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
        out_.put_quoted(reading_.entries()[frame.id_index].ref);
      } else if (!key.is_uuid) {
        frame.id_text.assign(key.text);
      }
      return true;
    }
    if (!translating()) {
      const std::size_t known = find_known(*rule.target, key);
      if (known == ref_registry::npos || reading_.entries()[known].label.empty()) unlabeled_.add(rule.target, key);
      return true;
    }
    const std::size_t index = register_linked(*rule.target, key);
    if (index == ref_registry::npos) return registry_full(rule.target->ref_prefix);
    for (std::size_t open = 0; open < frames_open_; ++open)
      if (frames_[open].id_index == index) flush_label(open);
    const ref_entry& entry = reading_.entries()[index];
    if (collect_unlabeled_ && entry.label.empty()) unlabeled_.add(rule.target, key);
    emit_key(rule, wrote);
    out_.put_quoted(entry.ref);
    if (!entry.label.empty() && entry.label != entry.ref) {
      emit(rule.label_key_text);
      out_.put_quoted(entry.label);
    }
    return true;
  }

  // A user id column: `me` for the signed-in user, null stays null, another
  // user's id is left out (the domain has no table to name it by).
  bool user_member(const member_rule& rule, int depth, bool& wrote) {
    if (at('n')) {
      if (!literal("null")) return false;
      emit_key(rule, wrote);
      emit("null");
      return true;
    }
    row_key key;
    bool found = false;
    if (!read_key(column_type::uuid, depth, key, found)) return false;
    if (found && is_me(key) && translating()) {
      emit_key(rule, wrote);
      emit("\"me\"");
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
      out_.put_quoted(reading_.entries()[index].ref);
      return true;
    });
    emit(']');
    return ok;
  }

  ref_action action_of(std::size_t frame_at) const { return frame_at == 0 ? action_ : ref_action::read; }

  // Gives the row's id the label its values so far make.
  void flush_label(std::size_t frame_at) {
    row_frame& frame = frames_[frame_at];
    if (!translating() || frame.id_index == ref_registry::npos) return;
    const std::string_view label = render_row_label(*frame.plan->tbl, frame, label_scratch_);
    writing_->set_label(frame.id_index, label);
  }

  void finish_label(std::size_t frame_at) {
    if (translating()) return flush_label(frame_at);
    row_frame& frame = frames_[frame_at];
    if (frame.has_id && !render_row_label(*frame.plan->tbl, frame, label_scratch_).empty())
      labeled_rows_.add(frame.plan->tbl, row_key{frame.id_is_uuid, frame.id, frame.id_text});
  }

  const domain& dom_;
  const ref_registry& reading_;
  ref_registry* writing_;
  output_text out_;
  std::size_t rows_written_ = 0;
  json_lexer lex_;
  std::optional<std::string> full_prefix_;
  ref_action action_ = ref_action::read;
  std::vector<std::unique_ptr<table_plan>> plans_;
  std::vector<row_frame> frames_;
  std::size_t frames_open_ = 0;
  std::string scratch_;
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
                            std::string_view current_user, std::size_t* rows_written) {
  registry.begin_batch();
  status done = ok_status();
  try {
    row_stream stream(dom, registry, &registry, text, out, current_user);
    if (unlabeled) stream.collect_unlabeled();
    done = stream.run(tbl, action);
    if (done && unlabeled) *unlabeled = stream.still_unlabeled();
    if (rows_written) *rows_written = stream.rows_written();
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
