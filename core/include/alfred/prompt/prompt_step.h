#pragma once
/// The four kinds of plan step the Act prompt is built for, and what each may
/// do. Shared by the prompt builder (which sections and which actions to
/// offer) and the decision parser (which actions to accept).
///
///     std::optional<step_type> type = parse_step_type("read");  // step_type::read
///     step_allows_tool(*type, tool_kind::remove);                // false: a read step only reads
///
/// Plain enums and functions of them: nothing is owned or borrowed, and
/// `step_type_name`'s text is static.

#include <optional>
#include <string_view>

#include "alfred/tool_call/tool_call.h"

namespace alfred {

enum class step_type { read, write, analyze, generate };

/// "read", "write", "analyze" or "generate".
std::string_view step_type_name(step_type type);
std::optional<step_type> parse_step_type(std::string_view name);

/// Read and write steps call tools; analyze and generate steps never do.
inline bool step_calls_tools(step_type type) { return type == step_type::read || type == step_type::write; }

/// A read step may only read (db_read, and db_call of a function that only
/// reads: the loop holds a read step's calls to reads); a write step may use
/// every tool (it reads to find what it changes).
inline bool step_allows_tool(step_type type, tool_kind tool) {
  if (type == step_type::read)
    return tool == tool_kind::read || tool == tool_kind::call || tool == tool_kind::aggregate;
  return type == step_type::write;
}

}  // namespace alfred
