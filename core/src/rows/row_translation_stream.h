#pragma once
// The streaming row translator behind `translate_rows` and
// `unlabeled_references`: one pass over PostgREST's JSON bytes that copies
// what the model may see, rewrites keys to refs and drops the rest, without
// building a document. Large responses are the hot path of every read, and a
// DOM in WASM is several times slower than the JSON.parse it feeds.

#include <string>
#include <string_view>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/registry/registry.h"
#include "alfred/rows/row_translation.h"

namespace alfred::detail {

/// Appends the model-facing rows to `out`. Registers ids and foreign keys as
/// it goes; when the text turns out to be invalid JSON, the registry is
/// rolled back to where it was and the error returned (`out` is cleared).
/// With `unlabeled`, the foreign-key targets left without a label (as
/// survey_row_stream says) go there; when there are any, the registry is
/// rolled back and `out` cleared too, so that the caller can look the labels
/// up and translate again. `quotes_uuid` gets whether a string of `out` may
/// hold a UUID (when not, scrub_uuids would leave `out` as it is). An array
/// of more than `max_rows` elements is a `response_too_large` error ("more
/// than N rows"), found at the element after the limit, with the registry rolled
/// back.
status translate_row_stream(const domain& dom, ref_registry& registry, const table& tbl, std::string_view text,
                            ref_action action, std::string& out, std::vector<label_lookup>* unlabeled = nullptr,
                            std::string_view current_user = {}, std::size_t* rows_written = nullptr,
                            bool* quotes_uuid = nullptr, std::size_t max_rows = std::size_t(-1));

/// The foreign-key targets of `text` that have no label in `registry` and
/// are not rows of `text` with a label of their own.
result<std::vector<label_lookup>> survey_row_stream(const domain& dom, const ref_registry& registry, const table& tbl,
                                                    std::string_view text, std::string_view current_user = {});

}  // namespace alfred::detail
