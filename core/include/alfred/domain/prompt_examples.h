#pragma once
/// The examples in the Act prompt come from the domain in use. Templates
/// (`prompts/act/*.md`) hold `{{slot}}` placeholders; a domain may give its
/// own text for any slot (`"prompt_examples"` in its JSON, or a domain pack's
/// `prompts/<slot>.md` files), and every slot it leaves out is derived from its
/// tables and columns, so a domain pulled from a database needs no examples
/// written by hand and never shows another domain's tables.
///
///     auto examples = prompt_examples(dom);
///     std::string text = fill_examples("rows are {{ref_examples}}", examples);
///
/// `example_texts` owns its strings and borrows nothing from the domain; the
/// slots of `prompt_example_slots()` are static and valid for the whole
/// program.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alfred/domain/domain.h"

namespace alfred {

/// One placeholder of the templates: its name and what its text shows.
struct prompt_example_slot {
  std::string_view name;
  std::string_view what;
};

/// Every slot, in template order.
const std::vector<prompt_example_slot>& prompt_example_slots();

/// True for the name of a slot.
bool is_prompt_example_slot(std::string_view name);

/// Slot name → text, complete for every slot.
using example_texts = std::vector<std::pair<std::string, std::string>>;

/// The examples for `dom`: its own where it has them, the others derived.
/// Never fails; a domain with few column kinds gets plainer examples. A
/// domain from parse_domain has them already (`resolved_prompt_examples`).
example_texts prompt_examples(const domain& dom);

/// The text `dom` would get for `slot` if it gave none ("" for an unknown slot
/// or one that does not apply, such as semantic search in a domain without it).
std::string derived_prompt_example(const domain& dom, std::string_view slot);

/// `text` with every `{{slot}}` replaced. A line that holds only a
/// placeholder whose text is empty is dropped; unknown placeholders stay.
std::string fill_examples(std::string_view text, const example_texts& examples);

}  // namespace alfred
