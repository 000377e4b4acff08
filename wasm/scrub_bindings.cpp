// What JS sends to the model from the core: texts without UUIDs (correction
// feedback, plan and reply prompts; the same code that scrubs the Act prompt
// and the executor's errors, alfred/registry/uuid_scrub.h) and the tool result for
// the model of an outcome, through the core's API layer.

#include <cstdint>

#include "handles.h"

using namespace alfred_wasm;

// `{"data":"<text with refs or <id> for UUIDs>"}`. Argument: the text.
ALFRED_EXPORT void alfred_without_uuids(std::uintptr_t registry, std::size_t text_length) {
  arguments args;
  publish_text(alfred::api::without_uuids(at<registry_handle>(registry).get(), args.next(text_length)));
}

// The tool result for the model of an outcome JS holds: the input buffer
// holds its fields, a newline and its rows; the text leaves through the
// result slot.
ALFRED_EXPORT void alfred_model_tool_result(std::uintptr_t registry, std::size_t length) {
  alfred::api::model_tool_result(output_bytes(), at<registry_handle>(registry).get(), input_view(length));
  publish_output();
}
