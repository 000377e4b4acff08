#include "alfred/prompt/prompt_query.h"

#include <optional>
#include <string>
#include <vector>

#include "../json/format.h"
#include "../json/json_fields.h"
#include "alfred/tool_call/filter_ops.h"
#include "prompt_text.h"

namespace alfred {
namespace {

// Filter values longer than this are cut in query lines; the full value is
// in the model's own tool call.
constexpr std::size_t kValueChars = 120;

// The parts of a query record the renderer uses, checked once.
struct query_view {
  std::string_view tool;
  std::string_view table;
  /// db_call's function ("" for the table tools).
  std::string_view function;
  json_value requested;  // an empty object when the record has none
  std::optional<json_value> effective;
  std::optional<json_value> notes;
  std::string_view source = "database";
  std::optional<long long> count;
  std::optional<json_value> error;
  std::optional<json_value> data;
};

error invalid(std::string path, std::string message) {
  return {codes::invalid_query, std::move(path), std::move(message),
          "pass the executor's query record {tool, table, requested, effective, notes, source, count} or a step "
          "result item {tool, table, data, error, count, query}"};
}

using detail::field_state;
using detail::present_member;

// The text of `object`'s `key`, "" when absent; an error at `prefix` + `key` when not text.
result<std::string_view> string_member(json_value object, std::string_view key, std::string_view prefix) {
  std::string_view text;
  if (detail::read_text(present_member(object, key), text) == field_state::wrong_type)
    return invalid(textfmt::format("{}{}", prefix, key), textfmt::format("{} must be a string", key));
  return text;
}

json_value empty_object() {
  static const json_document empty = std::move(json_document::parse("{}")).value();
  return empty.root();
}

result<query_view> read_record(json_value input) {
  if (!input.is_object()) return invalid("", textfmt::format("expected an object, got {}", input.kind_name()));
  query_view view;
  json_value record = input;
  std::string prefix;
  if (auto query = present_member(input, "query")) {
    if (!query->is_object()) return invalid("query", "query must be an object");
    record = *query;
    prefix = "query.";
    view.error = present_member(input, "error");
    if (view.error && !view.error->is_object()) return invalid("error", "error must be an object or null");
    view.data = present_member(input, "data");
    if (auto count = present_member(input, "count")) view.count = count->as_integer();
  }
  auto tool = string_member(record, "tool", prefix);
  if (!tool) return tool.take_error();
  view.tool = *tool;
  if (view.tool.empty()) {
    auto outer = string_member(input, "tool", "");
    if (!outer) return outer.take_error();
    view.tool = *outer;
  }
  auto table = string_member(record, "table", prefix);
  if (!table) return table.take_error();
  view.table = *table;
  auto function = string_member(record, "function", prefix);
  if (!function) return function.take_error();
  view.function = *function;
  auto requested = present_member(record, "requested");
  if (requested && !requested->is_object()) return invalid(prefix + "requested", "requested must be an object");
  view.requested = requested ? *requested : empty_object();
  view.effective = present_member(record, "effective");
  if (view.effective && !view.effective->is_object())
    return invalid(prefix + "effective", "effective must be an object or null");
  view.notes = present_member(record, "notes");
  if (view.notes && !view.notes->is_array()) return invalid(prefix + "notes", "notes must be a list of strings");
  auto source = string_member(record, "source", prefix);
  if (!source) return source.take_error();
  if (!source->empty()) view.source = *source;
  if (view.source != "database" && view.source != "generated" && view.source != "none")
    return invalid(prefix + "source", "source must be \"database\", \"generated\" or \"none\"");
  if (!view.count)
    if (auto count = present_member(record, "count")) view.count = count->as_integer();
  if (!view.count && view.data && view.data->is_array()) view.count = static_cast<long long>(view.data->size());
  return view;
}

std::string_view verb_of(std::string_view tool) {
  if (tool == "db_call") return "call";
  if (tool == "db_aggregate") return "aggregate";
  if (tool == "db_create") return "create";
  if (tool == "db_update") return "update";
  if (tool == "db_delete") return "delete";
  return "read";
}

void append_filter(std::string& out, json_value filter) {
  std::string_view field, op;
  if (filter.is_object()) {
    if (auto f = filter.find("field"); f && f->is_string()) field = f->str();
    if (auto o = filter.find("op"); o && o->is_string()) op = o->str();
  }
  out.append(field).append(" ").append(op);
  if (const filter_op_rule* rule = find_filter_op(op); rule && takes_no_value(rule->shape)) return;
  out += ' ';
  auto value = filter.is_object() ? filter.find("value") : std::nullopt;
  if (value)
    detail::append_display_value(out, *value, kValueChars);
  else
    out += "null";
  // A text search's mode and configuration: "(phrase, english)".
  std::string_view options[2];
  std::size_t given = 0;
  for (const char* key : {"mode", "language"})
    if (auto option = filter.is_object() ? filter.find(key) : std::nullopt; option && option->is_string())
      options[given++] = option->str();
  if (given == 0) return;
  out.append(" (").append(options[0]);
  if (given == 2) out.append(", ").append(options[1]);
  out += ')';
}

std::optional<json_value> list_member(json_value shape, std::string_view key) {
  if (!shape.is_object()) return std::nullopt;
  auto found = present_member(shape, key);
  if (!found || !found->is_array() || found->empty()) return std::nullopt;
  return found;
}

std::string filters_text(json_value shape, std::string_view joiner) {
  std::string out;
  if (auto filters = list_member(shape, "filters"))
    filters->for_each_element([&](std::size_t i, json_value f) {
      if (i) out += joiner;
      append_filter(out, f);
    });
  return out;
}

// `or_filters`, then each middleware group (`or_groups`), ANDed: "a OR b AND (c OR d)".
std::string or_filters_text(json_value shape) {
  std::string out;
  auto append_group = [&](json_value group) {
    group.for_each_element([&](std::size_t i, json_value f) {
      if (i) out += " OR ";
      append_filter(out, f);
    });
  };
  if (auto filters = list_member(shape, "or_filters")) append_group(*filters);
  if (auto groups = list_member(shape, "or_groups"))
    groups->for_each_element([&](std::size_t, json_value group) {
      if (!out.empty()) out += " AND (";
      const bool wrapped = out.size() > 0 && out.back() == '(';
      append_group(group);
      if (wrapped) out += ')';
    });
  return out;
}

std::string names_text(json_value shape, std::string_view key) {
  std::string out;
  if (auto names = list_member(shape, key))
    names->for_each_element([&](std::size_t i, json_value name) {
      if (i) out += ", ";
      detail::append_display_value(out, name, kValueChars);
    });
  return out;
}

std::optional<long long> integer_member(json_value shape, std::string_view key) {
  long long n = 0;
  if (!shape.is_object() || detail::read_whole_number(present_member(shape, key), n) != field_state::ok)
    return std::nullopt;
  return n;
}

// "account_id = account_2, note = Lisbon": a call's arguments.
std::string args_text(json_value shape) {
  std::string out;
  auto args = shape.is_object() ? present_member(shape, "args") : std::nullopt;
  if (!args || !args->is_object()) return out;
  args->for_each_member([&](std::string_view name, json_value value) {
    if (!out.empty()) out += ", ";
    out.append(name).append(" = ");
    detail::append_display_value(out, value, kValueChars);
  });
  return out;
}

// The parts of a query line, in the order it writes them.
enum class part_kind {
  function,
  args,
  returns,
  table,
  create,
  filters,
  any_of,
  set,
  columns,
  order,
  limit,
  group_by,
  metrics,
  group_order,
  having,
  groups,
  offset
};

std::string_view label_of(part_kind kind) {
  static constexpr std::string_view kLabels[] = {"Function", "Args",  "Returns", "Table",  "Create", "Filters",
                                                 "Any of",   "Set",   "Columns", "Order",  "Limit",  "Group by",
                                                 "Metrics",  "Order", "Having",  "Groups", "Offset"};
  return kLabels[static_cast<std::size_t>(kind)];
}

// One part of a query line, "Filters: location = pantry".
struct shape_part {
  part_kind kind;
  std::string text;
};
using shape_parts = std::vector<shape_part>;

// The part `kind` with `shape`'s whole number `key`, when it has one ("Limit: 100").
void append_number(shape_parts& out, part_kind kind, json_value shape, std::string_view key) {
  if (auto n = integer_member(shape, key)) out.push_back({kind, std::to_string(*n)});
}

// "Function: archive_project | Args: project_id = project_2 | Returns: rows of projects | Limit: 5".
shape_parts call_parts(const query_view& q, json_value shape) {
  shape_parts out{{part_kind::function, std::string(q.function)}};
  const std::string args = args_text(shape);
  out.push_back({part_kind::args, args.empty() ? std::string("none") : args});
  if (!q.table.empty()) out.push_back({part_kind::returns, "rows of " + std::string(q.table)});
  append_number(out, part_kind::limit, shape, "limit");
  append_number(out, part_kind::offset, shape, "offset");
  return out;
}

// " | Group by: status | Metrics: count, sum_amount | Order: sum_amount desc".
void append_aggregate(shape_parts& out, json_value shape) {
  if (auto groups = names_text(shape, "group_by"); !groups.empty()) out.push_back({part_kind::group_by, groups});
  if (auto metrics = names_text(shape, "metrics"); !metrics.empty()) out.push_back({part_kind::metrics, metrics});
  if (auto order = shape.is_object() ? present_member(shape, "order_metric") : std::nullopt;
      order && order->is_string())
    out.push_back({part_kind::group_order, std::string(order->str())});
  if (auto having = names_text(shape, "having"); !having.empty()) out.push_back({part_kind::having, having});
  if (auto limit = integer_member(shape, "group_limit"))
    out.push_back({part_kind::groups, textfmt::format("at most {}", *limit)});
}

// "Table: inventory | Filters: location = pantry | Limit: 100", part by part.
shape_parts shape_parts_of(const query_view& q, json_value shape) {
  if (!q.function.empty()) return call_parts(q, shape);
  shape_parts out{{part_kind::table, std::string(q.table)}};
  const std::string_view verb = verb_of(q.tool);
  if (verb == "create") {
    if (auto records = integer_member(shape, "records"))
      out.push_back({part_kind::create, textfmt::format("{} record{}", *records, *records == 1 ? "" : "s")});
    if (auto cols = names_text(shape, "data_columns"); !cols.empty()) out.push_back({part_kind::columns, cols});
    return out;
  }
  std::string filters = filters_text(shape, ", ");
  std::string any = or_filters_text(shape);
  // "all records" only when nothing at all narrows the query.
  if (!filters.empty())
    out.push_back({part_kind::filters, std::move(filters)});
  else if (any.empty())
    out.push_back({part_kind::filters, "none (all records)"});
  if (!any.empty()) out.push_back({part_kind::any_of, std::move(any)});
  if (verb == "update")
    if (auto cols = names_text(shape, "data_columns"); !cols.empty()) out.push_back({part_kind::set, cols});
  if (auto cols = names_text(shape, "columns"); !cols.empty()) out.push_back({part_kind::columns, cols});
  if (shape.is_object())
    if (auto order = present_member(shape, "order_by"); order && order->is_string()) {
      std::string text(order->str());
      if (auto dir = present_member(shape, "order_dir"); dir && dir->is_string()) text.append(" ").append(dir->str());
      out.push_back({part_kind::order, std::move(text)});
    }
  append_number(out, part_kind::limit, shape, "limit");
  if (verb == "aggregate") append_aggregate(out, shape);
  append_number(out, part_kind::offset, shape, "offset");
  return out;
}

void append_parts(std::string& out, const shape_parts& parts) {
  for (std::size_t i = 0; i < parts.size(); ++i)
    out.append(i ? " | " : "").append(label_of(parts[i].kind)).append(": ").append(parts[i].text);
}

// The parts of the query as run that differ from the query as asked, a part
// the run dropped as "none", in the order a query line writes them. The
// Effective line repeats nothing of the Query line: each part it shows
// replaces the asked one, and the others ran as asked.
shape_parts changed_parts(const shape_parts& asked, const shape_parts& ran) {
  shape_parts out;
  auto a = asked.begin();
  auto r = ran.begin();
  while (a != asked.end() || r != ran.end()) {
    if (r == ran.end() || (a != asked.end() && a->kind < r->kind)) {
      out.push_back({(a++)->kind, "none"});
    } else if (a == asked.end() || r->kind < a->kind) {
      out.push_back(*r++);
    } else {
      if (a->text != r->text) out.push_back(*r);
      ++a;
      ++r;
    }
  }
  return out;
}

std::string count_text(std::string_view verb, long long n, bool short_form) {
  const char* plural = n == 1 ? "" : "s";
  if (verb == "aggregate")
    return short_form ? textfmt::format("{} group{}", n, plural) : textfmt::format("{} group{} computed", n, plural);
  if (verb == "call")
    return short_form ? textfmt::format("{} row{}", n, plural) : textfmt::format("{} row{} returned", n, plural);
  if (verb == "read")
    return short_form ? textfmt::format("{} record{}", n, plural) : textfmt::format("{} record{} found", n, plural);
  return short_form ? textfmt::format("{} {}d", n, verb) : textfmt::format("{} record{} {}d", n, plural, verb);
}

std::string_view error_code(json_value err) {
  auto code = err.find("code");
  return code && code->is_string() && !code->str().empty() ? code->str() : std::string_view("unknown");
}

std::string error_text(json_value err) {
  auto text = [&](std::string_view key) {
    auto found = err.find(key);
    return found && found->is_string() ? found->str() : std::string_view();
  };
  std::string out = textfmt::format("error {}", error_code(err));
  if (!text("path").empty()) out.append(" at ").append(text("path"));
  if (!text("message").empty()) out.append(": ").append(text("message"));
  if (!text("hint").empty()) out.append(" (hint: ").append(text("hint")).append(")");
  return out;
}

std::string outcome_text(const query_view& q, bool short_form) {
  const std::string_view verb = verb_of(q.tool);
  if (q.error) return short_form ? textfmt::format("error {}", error_code(*q.error)) : error_text(*q.error);
  if (q.source == "none") return "not executed";
  if (q.count) return count_text(verb, *q.count, short_form);
  return "done";
}

// A one-line explanation for an empty read that filtered.
std::string tip_text(const query_view& q) {
  if (verb_of(q.tool) != "read" || q.error || q.source == "none" || !q.count || *q.count != 0) return {};
  const json_value shape = q.effective ? *q.effective : q.requested;
  auto filters = list_member(shape, "filters");
  const std::string any = or_filters_text(shape);
  if (!filters && any.empty()) return {};
  if (filters && filters->size() == 1 && any.empty()) {
    const json_value only = filters->at(0);
    if (auto field = only.find("field"); field && field->is_string() && field->str() == "id")
      return "Tip: none of these refs matched a row; they may have been deleted.";
    // A search that found nothing: dropping it would read everything.
    if (auto op = only.find("op"); op && op->is_string() && (op->str() == "search" || op->str() == "similar"))
      return textfmt::format("Tip: no row of {} matched these words; other or fewer words may find some.", q.table);
    return textfmt::format("Tip: only rows with {} were searched; a read without that filter would cover all of {}.",
                           filters_text(shape, ", "), q.table);
  }
  std::string all = filters_text(shape, ", ");
  if (!any.empty()) all.append(all.empty() ? "" : ", ").append("any of (").append(any).append(")");
  return textfmt::format("Tip: no row matched all of {}; fewer filters would broaden the read.", all);
}

std::string render_block(const query_view& q) {
  const shape_parts asked = shape_parts_of(q, q.requested);
  std::string out = "Query: ";
  append_parts(out, asked);
  if (q.effective)
    if (const shape_parts changed = changed_parts(asked, shape_parts_of(q, *q.effective)); !changed.empty())
      append_parts(out.append("\nEffective: "), changed);
  if (q.notes)
    q.notes->for_each_element([&](std::size_t, json_value note) {
      if (note.is_string()) out.append("\nNote: ").append(note.str());
    });
  if (q.source == "generated")
    out += "\nSource: generated content (unsaved gen_ artifacts; no database call)";
  else if (q.source == "none")
    out += "\nSource: not executed";
  out.append("\nOutcome: ").append(outcome_text(q, false));
  if (auto tip = tip_text(q); !tip.empty()) out.append("\n").append(tip);
  return out;
}

std::string render_line(const query_view& q) {
  const std::string_view verb = verb_of(q.tool);
  std::string out = textfmt::format("{} {}", verb, verb == "call" ? q.function : q.table);
  std::string details;
  if (verb == "call") {
    const std::string args = args_text(q.requested);
    details = args.empty() ? std::string("no arguments") : "args: " + args;
  } else if (verb == "create") {
    if (auto cols = names_text(q.requested, "data_columns"); !cols.empty()) details = "columns: " + cols;
  } else {
    const std::string filters = filters_text(q.requested, ", ");
    details = filters.empty() ? std::string("all records") : "filters: " + filters;
    if (auto any = or_filters_text(q.requested); !any.empty()) details.append("; any of: ").append(any);
  }
  if (q.effective && verb != "call") {
    const std::string effective = filters_text(*q.effective, ", ");
    details.append("; effective: ").append(effective.empty() ? std::string_view("all records") : effective);
  }
  if (!details.empty()) out.append(" (").append(details).append(")");
  if (q.source == "generated") out += " [generated content]";
  out.append(": ").append(outcome_text(q, true));
  return out;
}

}  // namespace

result<std::string> render_query(json_value record, query_style style) {
  auto view = read_record(record);
  if (!view) return view.take_error();
  return style == query_style::line ? render_line(*view) : render_block(*view);
}

result<std::string> render_query(std::string_view record_json, query_style style) {
  auto doc = json_document::parse(record_json);
  if (!doc) return error{codes::invalid_json, "", doc.err().message, ""};
  return render_query(doc->root(), style);
}

}  // namespace alfred
