// Prompt assembly (core/src/prompt/prompt_input.cpp and the prompt builder) on
// arbitrary input JSON: step, conversation, tool results and templates come
// from the caller, the model and the database. Whatever it is given, the
// prompt holds no UUID (every one becomes a ref or `<id>`), stays valid
// UTF-8 when its input is (truncation counts code points), and a refused
// input is a structured error.

#include <cstdint>
#include <string>

#include "alfred/prompt/prompt.h"
#include "alfred/rows/row_translation.h"
#include "fuzz_support.h"

namespace {

// The sample registry plus rows read the way the executor registers them,
// so the prompt has entities, artifacts and labels to show.
const alfred::ref_registry& session_registry() {
  static const alfred::ref_registry reg = [] {
    using namespace alfred;
    ref_registry r = fuzz::sample_registry();
    r.set_turn(3);
    const auto* inventory = fuzz::kitchen().find_table("inventory");
    auto rows = translate_rows(
        fuzz::kitchen(), r, *inventory,
        R"([{"id":"5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c01","user_id":"6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11","name":"eggs","quantity":6,"unit":"pcs","location":"fridge","expiry_date":null,"ingredient_id":"11111111-2222-4333-8444-555555555501"}])",
        ref_action::read);
    if (!rows) fuzz::fail("the session rows do not translate", rows.err().message);
    return r;
  }();
  return reg;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto prompt = build_act_prompt(kitchen(), session_registry(), input);
  if (!prompt) {
    const auto& code = prompt.err().code;
    check(code == "invalid_json" || code == "invalid_prompt_input" || code == "unknown_template",
          "an unexpected prompt error code", code);
    check(!prompt.err().message.empty(), "a prompt error without a message", code);
    return 0;
  }
  for (const std::string* text : {&prompt->system, &prompt->user}) {
    const auto uuid = find_uuid(*text);
    check(uuid.empty(), "a UUID in the prompt", std::string(uuid) + "\n" + *text);
    if (valid_utf8(input)) check(valid_utf8(*text), "the prompt is not valid UTF-8", *text);
  }
  return 0;
}
