#pragma once
// PostgREST's failures as errors the model (and the JS caller) can act on:
// keyed on the HTTP status and PostgREST's / PostgreSQL's code, never on
// message text, which changes between versions.

#include <string_view>

#include "alfred/error.h"
#include "alfred/executor.h"

namespace alfred::detail {

/// The error for a response that is not 2xx (or status 0: no response).
/// `what` names the request for the message ("reading inventory").
error database_error(const need_response& response, std::string_view what);

}  // namespace alfred::detail
