#include <algorithm>
#include <map>

#include "../json/format.h"
#include "../json/stable_order.h"
#include "prompt_sections.h"
#include "prompt_text.h"

namespace alfred::detail {
namespace {

using latest_rows = std::map<std::string_view, json_value, std::less<>>;

// Labels are shown whole: the registry already caps them (200 code points).
constexpr std::size_t kWholeLabel = std::string_view::npos;

void collect_rows(latest_rows& rows, json_value item) {
  auto data = item.find("data");
  if (!data) return;
  auto take = [&](json_value row) {
    if (auto ref = row_ref(row); !ref.empty()) rows[ref] = row;
  };
  if (data->is_object()) take(*data);
  if (data->is_array()) data->for_each_element([&](std::size_t, json_value row) { take(row); });
}

// The latest row seen for each ref: older turns first, so newer data wins.
latest_rows collect_latest_rows(const prompt_input& in) {
  latest_rows rows;
  for (const turn_record& turn : in.previous_turns)
    for (const step_record& step : turn.steps)
      for (json_value item : step.results) collect_rows(rows, item);
  for (const step_record& step : in.previous_steps)
    for (json_value item : step.results) collect_rows(rows, item);
  for (json_value item : in.current_step_results) collect_rows(rows, item);
  return rows;
}

void append_ref_line(std::string& out, const ref_entry& entry, std::string_view state) {
  out.append("- `").append(entry.ref).append("`");
  if (!entry.label.empty()) {
    out += ": ";
    append_one_line(out, entry.label, kWholeLabel);
  }
  textfmt::format_to(out, " ({}) · {}\n", entry.table, state);
}

std::string entry_state(const ref_entry& entry, bool artifacts_section) {
  if (entry.pending())
    return artifacts_section ? "generated, not saved; content in Generated Artifacts" : "generated, not saved";
  if (entry.generated)
    return textfmt::format("generated, saved as {}{}", entry.saved_as,
                           artifacts_section && entry.content ? "; content in Generated Artifacts" : "");
  return textfmt::format("{} in turn {}", ref_action_name(entry.action), entry.turn_last);
}

// `lines` (ref lines, "- `ref` …") without the lines of `refs`.
std::string without_refs(const std::string& lines, const shown_refs::ref_set& refs) {
  std::string kept;
  std::size_t line_start = 0;
  while (line_start < lines.size()) {
    const std::size_t line_end = lines.find('\n', line_start) + 1;
    const std::string_view line(lines.data() + line_start, line_end - line_start);
    const std::string_view ref = line.substr(3, line.find('`', 3) - 3);
    if (!refs.count(ref)) kept.append(line);
    line_start = line_end;
  }
  return kept;
}

// Refs not seen for a while, the most recently seen first, at most `limit`.
void append_memory(std::string& out, std::vector<const ref_entry*> memory, std::size_t limit) {
  out += "\n### Long-term memory (refs only; read them to see their data)\n";
  const auto order = stable_order(
      memory.size(),
      [](const void* c, std::size_t a, std::size_t b) {
        const auto& refs = *static_cast<const std::vector<const ref_entry*>*>(c);
        return refs[a]->turn_last > refs[b]->turn_last;
      },
      &memory);
  apply_order(memory, order);
  const std::size_t listed = std::min(memory.size(), limit);
  for (std::size_t i = 0; i < listed; ++i)
    append_ref_line(out, *memory[i], textfmt::format("last seen in turn {}", memory[i]->turn_last));
  if (listed < memory.size()) textfmt::format_to(out, "- … {} older refs not listed\n", memory.size() - listed);
}

}  // namespace

void append_entities_body(std::string& out, const ref_registry& registry, const prompt_input& in,
                          const shown_refs& shown, bool artifacts_section) {
  const auto& entries = registry.entries();
  if (entries.empty()) {
    out += "*No entities yet.*\n";
    return;
  }
  out +=
      "Every ref known in this conversation. Use refs exactly as written. Data here is a snapshot from recent "
      "turns, not a fresh read.\n";

  const latest_rows rows = collect_latest_rows(in);
  const int oldest_active = registry.turn() - kActiveTurns;
  std::string with_data, in_history, recent, generated;
  std::vector<const ref_entry*> memory;
  shown_refs entity_rows;
  std::size_t data_count = 0;
  for (const ref_entry& entry : entries) {
    if (shown.embedded.count(entry.ref)) continue;
    if (shown.rows.count(entry.ref)) {
      in_history.append(in_history.empty() ? "" : ", ").append(entry.ref);
      continue;
    }
    if (entry.generated) {
      append_ref_line(generated, entry, entry_state(entry, artifacts_section));
      continue;
    }
    if (entry.turn_last < oldest_active) {
      memory.push_back(&entry);
      continue;
    }
    auto row = rows.find(entry.ref);
    if (row != rows.end() && data_count < in.limits.entities_with_data) {
      render_row(with_data, row->second, in.limits, "", &entity_rows);
      ++data_count;
      continue;
    }
    append_ref_line(recent, entry, entry_state(entry, artifacts_section));
  }
  // Rows embedded in an entity shown with data are not listed again. They
  // were registered before or after their parent, so filter afterwards.
  if (!entity_rows.embedded.empty()) recent = without_refs(recent, entity_rows.embedded);

  if (!with_data.empty()) out.append("\n### Active, with data\n").append(with_data);
  if (!in_history.empty()) out.append("\n### Rows shown in the step data above\n").append(in_history).append("\n");
  if (!recent.empty()) out.append("\n### Recent, refs only\n").append(recent);
  if (!generated.empty()) out.append("\n### Generated\n").append(generated);
  if (!memory.empty()) append_memory(out, memory, in.limits.memory_refs);
}

void append_artifacts_body(std::string& out, const ref_registry& registry) {
  const auto& entries = registry.entries();
  const bool pending = std::any_of(entries.begin(), entries.end(),
                                   [](const ref_entry& entry) { return entry.pending() && entry.content; });
  bool any = false;
  // A saved artifact keeps its content until the turn ends and stays listed:
  // the rows that belong to it (its recipe_ingredients) are saved after it,
  // by the same gen_ ref, from this content.
  for (const ref_entry& entry : entries) {
    if (!entry.generated || !entry.content) continue;
    if (!any)
      out += pending ? "Unsaved content, each under its `gen_` ref. Save it as it is; do not retype it from memory.\n"
                     : "Content saved in this turn, each under its `gen_` ref. Do not save it again; save the rows "
                       "that belong to it from here, linked by the `gen_` ref.\n";
    any = true;
    out.append("\n#### `").append(entry.ref).append("`");
    if (!entry.label.empty()) {
      out += ": ";
      append_one_line(out, entry.label, kWholeLabel);
    }
    textfmt::format_to(out, " ({})", entry.table);
    if (!entry.pending())
      textfmt::format_to(
          out, " · saved as {}; rows that belong to it (nested lists) are saved with `{}` as their foreign key",
          entry.saved_as, entry.ref);
    out += "\n```json\n";
    auto doc = json_document::parse(*entry.content);
    if (doc)
      append_compact_json(out, doc->root());
    else
      out.append(*entry.content);
    out += "\n```\n";
  }
  if (!any) out += "*No unsaved generated content.*\n";
}

}  // namespace alfred::detail
