#pragma once
// The bodies of the Act user prompt's larger sections (prompt.cpp adds the
// numbered headings and the small sections).

#include <span>
#include <string>

#include "alfred/domain/domain.h"
#include "alfred/registry/registry.h"
#include "prompt_input.h"
#include "prompt_rows.h"

namespace alfred::detail {

/// Turns before the current one whose entities count as active (the last
/// two turns and the current one).
inline constexpr int kActiveTurns = 2;

/// Tables, columns with types and allowed values, ref prefixes, which
/// columns and tables are read-only, and embeddable relations.
void append_schema_body(std::string& out, const domain& dom, std::span<const std::string> fixed = {});

/// The previous turn's last steps, this turn's previous steps and (read and
/// write steps) this step's tool calls so far. Records the refs of the rows
/// it shows in `shown`.
void append_data_body(std::string& out, const prompt_input& in, shown_refs& shown);

/// Every ref the registry knows: active ones with their latest data (unless
/// the data section already shows it), the rest by ref and label.
/// `artifacts_section` says whether pending content is shown separately.
void append_entities_body(std::string& out, const ref_registry& registry, const prompt_input& in,
                          const shown_refs& shown, bool artifacts_section);

/// Pending `gen_` artifacts with their full content (never truncated: it is
/// what a write step saves).
void append_artifacts_body(std::string& out, const ref_registry& registry);

}  // namespace alfred::detail
