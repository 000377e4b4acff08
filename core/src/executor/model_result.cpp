#include "model_result.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "../json/array_elements.h"
#include "../json/echo.h"
#include "../json/format.h"
#include "../json/json_scan.h"
#include "alfred/json/json.h"
#include "alfred/registry/uuid_scrub.h"

namespace alfred::detail {
namespace {

// The rows of a result the core wrote: the elements of an array, or one
// object (a single create's row) as one row.
class result_rows {
 public:
  explicit result_rows(std::string_view text)
      : single_(!text.empty() && text.front() != '[' ? text : std::string_view()),
        elements_(single_.empty() ? text : std::string_view()) {}
  /// The next row, or nothing at the end.
  std::optional<std::string_view> next() {
    if (!single_.empty()) return std::exchange(single_, std::string_view());
    return elements_.next();
  }

 private:
  std::string_view single_;
  array_elements elements_;
};

// What a result names besides its tool: the table (null for none), and
// db_call's function.
void write_subject(json_writer& w, std::string_view table, std::string_view function) {
  w.key("table");
  if (table.empty())
    w.null();
  else
    w.string(table);
  if (function.empty()) return;
  w.key("function");
  w.string(function);
}

std::string plural(long long n, std::string_view word) {
  return textfmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// What the model can do about a result it did not see whole.
std::string narrowing_hint(const model_envelope& head, long long count, long long shown, bool cut_values,
                           std::size_t rows_cap) {
  const std::string_view cut = cut_values ? " (long values cut)" : "";
  if (shown == 0)
    return count == 1
               ? std::string("The row does not fit in a result here: read only the columns you need.")
               : textfmt::format("None of the {} rows fits in a result here: read only the columns you need.", count);
  if (head.tool == "db_read") {
    if (shown >= count)
      return textfmt::format("Showing {} with long values cut: read only the columns you need to see more of a value.",
                             plural(shown, "row"));
    const std::string cap = head.limited && shown == static_cast<long long>(rows_cap)
                                ? textfmt::format("at most {} rows per read here; ", rows_cap)
                                : std::string();
    return textfmt::format(
        "Showing {} of {}{}: {}narrow the read (filters, only the columns you need) or page with limit and offset {}.",
        shown, plural(count, "row"), cut, cap, head.offset + shown);
  }
  const std::string_view verb = head.tool == "db_create"   ? "created"
                                : head.tool == "db_update" ? "changed"
                                : head.tool == "db_delete" ? "deleted"
                                                           : "returned";
  if (shown >= count)
    return textfmt::format("The call {} {}; long values are cut in this result.", verb, plural(count, "row"));
  // A function has no filters: a set it reads is paged, and what a write
  // returned past the cap is the user's to ask for (calling it again would
  // write again).
  const std::string next =
      head.pages ? textfmt::format("Page with limit and offset {} to see the others.", head.offset + shown)
      : head.tool == "db_call" ? std::string("Tell the user that more came back than fits here.")
                               : std::string("Read them with filters to see the others.");
  return textfmt::format("The call {} {}; this result shows {}{}. {}", verb, plural(count, "row"), shown, cut, next);
}

// Writes the envelope around the rows into `out`: `shown` rows, which
// `write_rows` writes into the array.
template <typename Rows>
void write_envelope(std::string& out, const model_envelope& head, long long shown, bool cut_values,
                    const result_limits& limits, Rows write_rows) {
  json_writer w(out);
  w.begin_object();
  w.key("ok");
  w.boolean(true);
  w.key("tool");
  w.string(head.tool);
  write_subject(w, head.table, head.function);
  w.key("count");
  w.integer(*head.count);
  if (head.tool == "db_aggregate") {
    // The groups that matched, under the name the tool documents.
    w.key("groups_total");
    w.integer(*head.count);
  }
  if (head.exact) {
    w.key("exact");
    w.boolean(*head.exact);
  }
  w.key("query");
  if (head.query.empty())
    w.null();
  else
    w.string(head.query);
  const long long returned = static_cast<long long>(head.returned);
  if (shown < returned || cut_values || (head.limited && shown < *head.count)) {
    w.key("truncated");
    w.boolean(true);
    w.key("shown");
    w.integer(shown);
    w.key("hint");
    w.string(narrowing_hint(head, std::max(*head.count, returned), shown, cut_values, limits.rows));
  }
  if (shown > 0) {
    w.key("notice");
    w.string(rows_notice(head.fence));
  }
  w.key("rows");
  w.begin_array();
  write_rows(w);
  w.end_array();
  if (shown > 0 && !head.fence.empty()) {
    w.key("end");
    w.string(head.fence);
  }
  w.end_object();
}

// The envelope around `rows` (each a row's JSON text), as text.
std::string envelope(const model_envelope& head, const std::vector<std::string_view>& rows, bool cut_values,
                     const result_limits& limits) {
  std::string out;
  write_envelope(out, head, static_cast<long long>(rows.size()), cut_values, limits, [&](json_writer& w) {
    for (auto row : rows) w.raw_value(row);
  });
  return out;
}

// Room a cut value's marker ("… [+12345 chars]") takes: shorter strings are
// never cut (a ref, a short name), as the cut would not save anything.
constexpr std::size_t kMarkerRoom = 16;

// `text` with strings longer than `keep` + kMarkerRoom code units cut to
// `keep`, never between the halves of a surrogate pair, each with how much
// was cut.
void write_short(json_writer& w, json_value value, std::size_t keep) {
  if (value.is_string()) {
    const std::string_view text = value.str();
    const std::size_t length = utf16_length(text);
    if (length <= keep + kMarkerRoom) return w.string(text);
    std::size_t units = 0;
    std::size_t at = 0;
    while (at < text.size()) {
      const unsigned char b = static_cast<unsigned char>(text[at]);
      const std::size_t width = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
      const std::size_t costs = width == 4 ? 2 : 1;
      if (units + costs > keep) break;
      units += costs;
      at += width;
    }
    return w.string(textfmt::format("{}… [+{} chars]", text.substr(0, at), length - units));
  }
  if (value.is_array()) {
    w.begin_array();
    value.for_each_element([&](std::size_t, json_value item) { write_short(w, item, keep); });
    return w.end_array();
  }
  if (value.is_object()) {
    w.begin_object();
    value.for_each_member([&](std::string_view key, json_value item) {
      w.key(key);
      write_short(w, item, keep);
    });
    return w.end_object();
  }
  w.raw_value(value.raw());
}

// The longest cut of the row's strings whose JSON fits `budget`, or nothing.
std::optional<std::string> shortened(std::string_view row, std::size_t budget) {
  auto doc = json_document::parse(row);
  if (!doc) return std::nullopt;
  std::size_t low = 0;
  std::size_t high = utf16_length(row);
  std::optional<std::string> best;
  while (low <= high) {
    const std::size_t keep = low + (high - low) / 2;
    std::string candidate;
    json_writer w(candidate);
    write_short(w, doc->root(), keep);
    if (utf16_length(candidate) <= budget) {
      best = std::move(candidate);
      low = keep + 1;
    } else {
      if (keep == 0) break;
      high = keep - 1;
    }
  }
  return best;
}

// The usual result: every row fits. Written at once, without finding where
// each row ends; the bytes bound the UTF-16 length from above. False (and
// nothing written) when the text is over the limit.
bool wrote_every_row(std::string& out, const model_envelope& head, std::string_view rows_json, std::size_t row_count,
                     const result_limits& limits) {
  const std::size_t start = out.size();
  model_envelope whole = head;
  whole.returned = std::max(head.returned, row_count);
  if (!whole.count) whole.count = static_cast<long long>(whole.returned);
  const bool single = rows_json.front() != '[';
  write_envelope(out, whole, static_cast<long long>(row_count), false, limits, [&](json_writer& w) {
    if (row_count == 0) return;
    if (single) return w.raw_value(rows_json);
    out.append(rows_json.substr(1, rows_json.size() - 2));
  });
  const std::string_view written = std::string_view(out).substr(start);
  if (written.size() <= limits.chars || utf16_length(written) <= limits.chars) return true;
  out.resize(start);
  return false;
}

// The rows that may be shown, scrubbed and measured against the limits; the
// rest are counted into `head` (returned, count), unless the total is known.
std::vector<std::string> rows_that_fit(model_envelope& head, std::string_view rows_json,
                                       std::optional<std::size_t> row_count, bool scrubbed,
                                       const ref_registry& registry, const result_limits& limits) {
  result_rows scan(rows_json);
  std::vector<std::string> rows;
  std::size_t seen = 0;
  std::size_t used = 0;
  // The envelope's size with a hint (an estimate: the final text is measured).
  model_envelope framed = head;
  if (!framed.count) framed.count = static_cast<long long>(std::max(head.returned, row_count.value_or(0)));
  const std::size_t frame =
      utf16_length(envelope(framed, {}, true, limits)) + utf16_length(rows_notice(head.fence)) + head.fence.size() + 24;
  bool full = false;
  while (auto element = scan.next()) {
    ++seen;
    if (full || rows.size() >= limits.rows) {
      full = true;
      if (row_count) break;  // the total is known: no need to count on
      continue;
    }
    std::string row(*element);
    if (!scrubbed) scrub_uuids(row, registry);
    const std::size_t size = utf16_length(row) + 1;
    // The first row is kept even when it does not fit: its values are cut.
    if (!rows.empty() && frame + used + size > limits.chars) {
      full = true;
      if (row_count) break;
      continue;
    }
    used += size;
    rows.push_back(std::move(row));
  }
  // The caller may pass only the rows that can be shown, with how many there were.
  head.returned = std::max({head.returned, seen, row_count.value_or(0)});
  if (!head.count) head.count = static_cast<long long>(head.returned);
  return rows;
}

// As many of `rows` as fit whole; else the first with its long values cut;
// else none, with the notice that says so.
void write_rows_that_fit(std::string& out, const model_envelope& head, const std::vector<std::string>& rows,
                         const result_limits& limits) {
  std::vector<std::string_view> views(rows.begin(), rows.end());
  for (std::size_t n = views.size(); n > 0; --n) {
    const std::size_t before = out.size();
    write_envelope(out, head, static_cast<long long>(n), false, limits, [&](json_writer& w) {
      for (std::size_t i = 0; i < n; ++i) w.raw_value(views[i]);
    });
    if (utf16_length(std::string_view(out).substr(before)) <= limits.chars) return;
    out.resize(before);
  }
  if (!views.empty()) {
    const std::size_t room = utf16_length(envelope(head, {std::string_view("{}")}, true, limits));
    if (limits.chars > room + 2) {
      if (auto row = shortened(views.front(), limits.chars - room)) {
        const std::string text = envelope(head, {std::string_view(*row)}, true, limits);
        if (utf16_length(text) <= limits.chars) {
          out += text;
          return;
        }
      }
    }
  }
  out += envelope(head, {}, false, limits);
}

}  // namespace

std::size_t utf16_length(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) {
    const unsigned char b = static_cast<unsigned char>(c);
    if ((b & 0xC0) != 0x80) n += b >= 0xF0 ? 2 : 1;
  }
  return n;
}

void write_model_success(std::string& out, model_envelope head, std::string_view rows_json,
                         std::optional<std::size_t> row_count, bool scrubbed, const ref_registry& registry,
                         const result_limits& limits) {
  if (rows_json.empty()) rows_json = "[]";
  // The rows come as the database wrote their text; a raw U+2028 (or
  // U+2029, U+0085) in a value is written as its escape, as every string the
  // core writes is. Text without one, the usual case, is not copied.
  std::string escaped;
  if (next_line_break(rows_json.data(), 0, rows_json.size()) != rows_json.size()) {
    append_without_line_breaks(escaped, rows_json.data(), rows_json.size());
    rows_json = escaped;
  }
  if (scrubbed && row_count && *row_count <= limits.rows && wrote_every_row(out, head, rows_json, *row_count, limits))
    return;
  const std::vector<std::string> rows = rows_that_fit(head, rows_json, row_count, scrubbed, registry, limits);
  write_rows_that_fit(out, head, rows, limits);
}

std::string model_success_text(model_envelope head, std::string_view rows_json, const ref_registry& registry,
                               const result_limits& limits) {
  std::string out;
  write_model_success(out, head, rows_json, std::nullopt, false, registry, limits);
  return out;
}

bool is_fence_marker(std::string_view text) {
  if (text.size() < 6 || text.size() > 64) return false;
  for (char c : text)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

std::string rows_notice(std::string_view fence) {
  if (fence.empty()) return std::string(kRowsNotice);
  constexpr std::string_view kSlot = "{fence}";
  std::string out(kFencedNotice);
  out.replace(out.find(kSlot), kSlot.size(), fence);
  return out;
}

bool quotes_row_text(std::string_view code, const error& err) {
  // The codes whose message or hint names rows by their labels (value_refs.cpp).
  static constexpr std::string_view kLabelled[] = {"unknown_ref", "raw_id",      "ref_type_mismatch", "deleted_ref",
                                                   "not_a_ref",   "pending_ref", "invented_uuid"};
  if (!err.details.empty() || err.status != 0) return true;
  for (auto labelled : kLabelled)
    if (code == labelled) return true;
  return false;
}

std::string model_error_text(std::string_view tool, std::string_view table, const error& err, std::string_view query,
                             std::string_view function, std::string_view fence) {
  return model_error_text_with_code(tool, table, err.code.name(), err, query, function, fence);
}

std::string model_error_text_with_code(std::string_view tool, std::string_view table, std::string_view code,
                                       const error& err, std::string_view query, std::string_view function,
                                       std::string_view fence, std::optional<json_value> preview) {
  std::string out;
  json_writer w(out);
  w.begin_object();
  w.key("ok");
  w.boolean(false);
  w.key("tool");
  w.string(tool);
  write_subject(w, table, function);
  const bool fenced = !fence.empty() && (preview || quotes_row_text(code, err));
  if (fenced) {
    w.key("notice");
    w.string(rows_notice(fence));
  }
  w.key("error");
  w.begin_object();
  w.key("code");
  w.string(code.empty() ? std::string_view("error") : code);
  w.key("path");
  w.string(clip_utf8(err.path, 2000));
  w.key("message");
  w.string(clip_utf8(err.message, 2000));
  w.key("hint");
  w.string(clip_utf8(err.hint, 2000));
  if (!err.details.empty()) {
    w.key("details");
    w.string(clip_utf8(err.details, 2000));
  }
  if (preview) {
    w.key("preview");
    w.value(*preview);
  }
  w.end_object();
  if (fenced) {
    w.key("end");
    w.string(fence);
  }
  if (!query.empty()) {
    w.key("query");
    w.string(query);
  }
  w.end_object();
  return out;
}

}  // namespace alfred::detail
