#pragma once
// PostgREST's failures as errors the model (and the JS caller) can act on:
// keyed on the HTTP status and PostgREST's / PostgreSQL's code, never on
// message text, which changes between versions. The model reads `message`,
// so it stays short and clean; a proxy's HTML page goes to `raw_body`.

#include <string_view>

#include "alfred/executor/executor.h"
#include "alfred/json/error.h"

namespace alfred::detail {

/// The error for a response that is not a usable 2xx: a 4xx/5xx, no response
/// at all (status 0), a body cut off or over the limit. `what` names the
/// request for the message ("reading inventory").
error database_error(const need_response& response, std::string_view what);

/// The error for a write that may or may not have been applied (its answer
/// was lost, cut off, unreadable, or came from a proxy instead of the
/// database): `write_outcome_unknown`, with the status that arrived (0 for
/// none) and a hint to read before retrying. `why` says what happened.
error write_outcome_unknown(const need_response& response, std::string_view what, std::string_view why);
/// The hint of every `write_outcome_unknown` error (the package uses it for
/// the ones it makes itself).
std::string_view write_outcome_unknown_hint();

/// The hint of a RAISE (P0001) the database gave none for: a table write's
/// (a trigger); a function call's own replaces it (execution_functions.cpp).
inline constexpr std::string_view kRaiseHint =
    "the database refused it for the reason in its message: change what it names, or tell the user";

/// The hint of a unique violation (23505) the database gave none for; a
/// create on a table that takes updates names the tool instead
/// (execution_writes.cpp).
inline constexpr std::string_view kDuplicateHint =
    "a row with this value already exists: use that row, or another value";

/// The hint of a function PostgREST's schema cache does not have as called
/// (PGRST202, and 42883 naming it: execution_functions.cpp).
inline constexpr std::string_view kNoSuchFunctionHint =
    "the database has no such function; the schema cache may need a reload";

/// "HTTP 502 Bad Gateway", "HTTP 599" for a status without a known reason.
std::string status_line(int status);

/// Whether a failure or status means the request may have reached the
/// database (everything but a request that was never sent).
inline bool maybe_sent(const need_response& response) { return response.failure != transport_failure::not_sent; }

}  // namespace alfred::detail
