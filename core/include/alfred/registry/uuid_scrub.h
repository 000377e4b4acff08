#pragma once
/// No UUID reaches the model: every text it may see (the Act prompt, the
/// executor's errors, the JS loop's feedback, plan and reply prompts through
/// `core.withoutUuids`) goes through this one scrubber.
///
///   scrub_uuids(text, registry);   // "Key (id)=(c69607bb-…)" → "Key (id)=(inv_1)"
///
/// Both functions rewrite the caller's text or error in place and read the
/// registry only while they run (it is not changed).

#include <string>

#include "alfred/json/error.h"
#include "alfred/registry/registry.h"

namespace alfred {

/// Replaces every UUID in `text` (either letter case, also inside a longer
/// run of hex) with the regular ref the registry holds for it, or with
/// `<id>`. Text without a UUID is left as it is, without copying.
void scrub_uuids(std::string& text, const ref_registry& registry);

/// An error as the model may see it: `message`, `details` and `hint`
/// scrubbed. Their text as it was goes to `err.raw`, for the developer, when
/// the scrub changed any of them or `keep_raw` is set (errors the database
/// answered keep it always).
void scrub_error(error& err, const ref_registry& registry, bool keep_raw);

}  // namespace alfred
