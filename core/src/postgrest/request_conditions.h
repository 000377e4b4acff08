#pragma once
// Filters as PostgREST conditions: the query string written straight into
// the URL, and each filter written as a parameter of its own or as a
// condition of an `or=(…)`/`and(…)` group, as its op's row says
// (filter_ops.h). The request builder (request.cpp) owns the URL and the
// order of its parameters; this file owns how a condition is spelled.

#include <string>
#include <string_view>
#include <vector>

#include "alfred/postgrest/postgrest_encoding.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::detail {

// Writes the query string straight into the URL. A value is composed in
// PostgREST's grammar (decoded) in one reused buffer and percent-encoded as
// it is appended, so no string is made per parameter.
class query_writer {
 public:
  explicit query_writer(std::string& url) : url_(url) {}

  /// The cleared buffer to compose the next value in.
  std::string& scratch() {
    scratch_.clear();
    return scratch_;
  }

  /// Appends `?key=value` (or `&key=value`), both encoded.
  void add(std::string_view key, std::string_view decoded_value) {
    url_ += first_ ? '?' : '&';
    first_ = false;
    append_percent_encoded(url_, key);
    url_ += '=';
    append_percent_encoded(url_, decoded_value);
  }

 private:
  std::string& url_;
  std::string scratch_;
  bool first_ = true;
};

// Where a filter's conditions go. At the top level each is a query
// parameter, `col=op.value`, ANDed by PostgREST, with the value verbatim
// (only list elements are quoted). Inside a group, `or=(…)` or `and(…)`, each
// is `col.op.value` with the value quoted as the logic-tree grammar needs, so
// a value can never add or close a condition. One encoder (encode_filter)
// writes both.
class condition_writer {
 public:
  /// Top-level parameters of `query`.
  explicit condition_writer(query_writer& query) : query_(query) {}

  /// `col=[not.]op.value`, or `col.[not.]op."value"` in a group.
  void compare(std::string_view col, bool negated, std::string_view op, std::string_view value) {
    std::string& text = start(col, negated, op);
    if (group_)
      append_list_value(text, value);
    else
      text += value;
    finish(col, text);
  }
  /// `col=[not.]op.(a,"b c")`, or `col.[not.]op.(a,"b c")` in a group.
  void list(std::string_view col, bool negated, std::string_view op, const std::vector<std::string_view>& items);
  /// `col=[not.]is.null`, or `col.[not.]is.null` in a group.
  void null_test(std::string_view col, bool negated) { finish(col, start(col, negated, "is") += "null"); }

  /// What close_group() restores.
  struct group_state {
    bool opened = false;
    bool top_level = false;
    bool any = false;
  };
  /// Starts conditions of which one (`any`) or all must hold: `or=(…)` at
  /// the top level, `or(…)`/`and(…)` inside a group of the other kind, and
  /// nothing where the enclosing conditions combine that way already.
  group_state open_group(bool any) {
    const group_state before{true, group_ == nullptr, any_};
    if (!group_) {
      if (!any) return {};  // parameters are ANDed
      group_ = &query_.scratch();
    } else {
      if (any == any_) return {};
      separate();
      *group_ += any ? "or" : "and";
    }
    *group_ += '(';
    any_ = any;
    first_ = true;
    return before;
  }
  /// Ends the group open_group() started.
  void close_group(const group_state& before) {
    if (!before.opened) return;
    *group_ += ')';
    if (before.top_level) {
      query_.add("or", *group_);
      group_ = nullptr;
    }
    any_ = before.any;
    first_ = false;
  }

 private:
  void separate() {
    if (!first_) *group_ += ',';
    first_ = false;
  }
  std::string& start(std::string_view col, bool negated, std::string_view op) {
    std::string* text = group_;
    if (text) {
      separate();
      *text += col;
      *text += '.';
    } else {
      text = &query_.scratch();
    }
    if (negated) *text += "not.";
    *text += op;
    *text += '.';
    return *text;
  }
  // A top-level condition is a parameter of its own.
  void finish(std::string_view col, const std::string& text) {
    if (!group_) query_.add(col, text);
  }

  query_writer& query_;
  std::string* group_ = nullptr;  // the text of the open group, null at the top level
  bool any_ = false;
  bool first_ = true;
};

/// Writes `f` as conditions through `out` (a parameter per condition at the
/// top level, or conditions of the open group).
void encode_filter(const filter& f, condition_writer& out);

}  // namespace alfred::detail
