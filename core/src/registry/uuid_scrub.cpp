#include "alfred/registry/uuid_scrub.h"

#include "../json/json_scan.h"
#include "../uuid/uuid_search.h"

namespace alfred {

namespace {

// One left-to-right pass; true when it replaced something.
bool scrub_uuids_once(std::string& text, const ref_registry& registry) {
  constexpr std::size_t kLength = 36;
  const std::size_t first = detail::find_uuid(text.data(), text.size(), 0);
  if (first == text.size()) return false;
  std::string out;
  std::size_t copied = 0;
  for (std::size_t start = first; start < text.size(); start = detail::find_uuid(text.data(), text.size(), copied)) {
    out.append(text, copied, start - copied);
    const ref_entry* entry = registry.find_by_uuid(std::string_view(text.data() + start, kLength));
    out += entry ? std::string_view(entry->ref) : std::string_view("<id>");
    copied = start + kLength;
  }
  out.append(text, copied, std::string::npos);
  text = std::move(out);
  return true;
}

// Characters JSON writes as escapes (controls as \u00XX or \b, \f, …; U+0085,
// U+2028 and U+2029 as \u….) become spaces: an escape's hex digits could
// complete a UUID with the text around it once written ("c\u000069607bb-…").
void space_escaped_characters(std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t line_break = detail::line_break_at(text.data(), i, text.size());
    if (c < 0x20 || c == 0x7f || line_break) {
      out += ' ';
      if (line_break) i += line_break - 1;
    } else {
      out += text[i];
    }
  }
  text = std::move(out);
}

}  // namespace

void scrub_uuids(std::string& text, const ref_registry& registry) {
  // A ref ends in digits: put where a UUID was, it can complete another one
  // with the text after it (two UUIDs that overlapped, "recipe_3" followed by
  // "2d31111-2222-…"). So scrub until nothing is left; every pass that
  // replaces something removes four dashes and adds none, so this ends.
  while (scrub_uuids_once(text, registry)) {
  }
}

void scrub_error(error& err, const ref_registry& registry, bool keep_raw) {
  error::raw_text raw{err.message, err.details, err.hint};
  // A path can echo a key the model wrote (an unknown param named with a UUID).
  for (std::string* text : {&err.path, &err.message, &err.details, &err.hint}) {
    space_escaped_characters(*text);
    scrub_uuids(*text, registry);
  }
  const bool changed = raw.message != err.message || raw.details != err.details || raw.hint != err.hint;
  if (changed || keep_raw) err.raw = std::move(raw);
}

}  // namespace alfred
