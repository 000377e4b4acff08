// The ActDecision parser (core/src/prompt/decision.cpp) on whatever a model replies.
// A reply that parses writes back (decision_to_json) as JSON that parses to
// the same decision; a step type only ever narrows what is accepted; a reply
// that is one JSON object means that object, however it is laid out.

#include <cstdint>
#include <string>

#include "alfred/json/json.h"
#include "alfred/prompt/decision.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

std::string describe(const act_decision& d) {
  return decision_to_json(d) + " | params=" + d.params_json + " data=" + d.data_json;
}

bool same(const act_decision& a, const act_decision& b) {
  return a.action == b.action && a.tool == b.tool && a.params_json == b.params_json && a.summary == b.summary &&
         a.data_json == b.data_json && a.note_for_next_step == b.note_for_next_step && a.question == b.question &&
         a.reason_code == b.reason_code && a.details == b.details && a.suggested_next == b.suggested_next;
}

void check_error(const error& err) {
  check(err.code == "invalid_decision_json" || err.code == "invalid_decision" || err.code == "action_not_allowed",
        "an unexpected decision error code", err.code);
  check(!err.message.empty(), "a decision error without a message", err.code);
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto decision = parse_decision(text);
  for (step_type step : {step_type::read, step_type::write, step_type::analyze, step_type::generate}) {
    auto narrowed = parse_decision(text, step);
    if (!narrowed) {
      check_error(narrowed.err());
      continue;
    }
    check(decision.ok() && same(*decision, *narrowed), "a step type accepts what no step type restricts");
  }
  if (!decision) {
    check_error(decision.err());
  } else {
    const std::string written = decision_to_json(*decision);
    // A number beyond a double in the params is kept as the model wrote it:
    // JSON (JSON.parse reads Infinity) that nlohmann refuses.
    const auto reference = parse_reference(written);
    check(valid_utf8(text) <= (reference.value.has_value() || reference.number_overflow),
          "decision_to_json writes text that is not JSON", written);
    auto again = parse_decision(written);
    check(again.ok(), "a written decision does not parse", written);
    check(same(*decision, *again), "a written decision parses to another decision",
          describe(*decision) + "\n" + describe(*again));
    if (decision->action == decision_action::tool_call) {
      auto params = json_document::parse(decision->params_json);
      check(params && params->root().is_object(), "tool_call params are not a JSON object", decision->params_json);
    }
    check(json_document::parse(decision->data_json).ok(), "step data is not JSON", decision->data_json);
  }

  // A reply that is exactly one JSON object is read as that object, whatever
  // its strings hold and however it is laid out.
  auto whole = json_document::parse(text);
  if (whole && whole->root().is_object()) {
    std::string compact;
    json_writer(compact).value(whole->root());
    auto from_compact = parse_decision(compact);
    check(decision.ok() == from_compact.ok(), "a reply is read differently from its compact form",
          decision ? describe(*decision) : decision.err().message);
    if (decision)
      check(same(*decision, *from_compact), "a reply is read differently from its compact form",
            describe(*decision) + "\n" + describe(*from_compact));
    else
      check(decision.err().code == from_compact.err().code && decision.err().path == from_compact.err().path,
            "a reply is refused differently from its compact form", decision.err().message);
  }
  return 0;
}
