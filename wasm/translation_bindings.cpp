// Row translation from bytes: JS copies a response body (the Uint8Array
// fetch gives) into WASM memory and gets the model-facing JSON text back
// through the result slot.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "handles.h"

namespace alfred_wasm {
namespace {

// A buffer of its own, not the shared input buffer: JS callers cache that
// one's address, and a response can be far larger than any tool call.
struct rows_input {
  std::unique_ptr<char[]> bytes;
  std::size_t capacity = 0;
};

rows_input& rows_input_buffer() {
  static rows_input input;
  return input;
}

// Address of room for `size` bytes of rows JSON; valid until the next
// translateRowsAt, which frees a large buffer rather than keeping it. 0 when
// the room cannot be had (JS then reports out_of_memory); the buffer is left
// empty, never with a capacity it does not have.
std::uintptr_t rows_buffer(std::size_t size) {
  rows_input& input = rows_input_buffer();
  if (input.capacity < size) {
    input.bytes.reset();  // before allocating, so both never coexist
    input.capacity = 0;
    std::string ignored;
    guarded_into(ignored, [&]() {
      input.bytes.reset(new char[size]);
      input.capacity = size;
    });
  }
  return input.capacity >= size && input.bytes ? reinterpret_cast<std::uintptr_t>(input.bytes.get()) : 0;
}

}  // namespace
}  // namespace alfred_wasm

using namespace alfred_wasm;

ALFRED_EXPORT std::uintptr_t alfred_rows_buffer(std::size_t size) { return rows_buffer(size); }

// Translates the first `length` bytes of the rows buffer. Returns 1 with the
// model-facing rows as the output text, or 0 with `{"data":null,"error":{…}}`
// there. Arguments: the table name, the action, the current user.
ALFRED_EXPORT int alfred_translate_rows(std::uintptr_t dom, std::uintptr_t registry, std::size_t table_length,
                                        std::size_t action_length, std::size_t user_length, std::size_t length) {
  arguments args;
  const auto table_name = args.next(table_length);
  const auto action = args.next(action_length);
  const auto current_user = args.next(user_length);
  std::string& out = output_bytes();
  out.clear();
  rows_input& input = rows_input_buffer();
  const std::string_view text(input.bytes.get(), std::min(length, input.capacity));
  const bool ok = alfred::api::translate_rows(out, at<domain_handle>(dom).get(), at<registry_handle>(registry).get(),
                                              table_name, action, text, current_user);
  if (input.capacity > kKeepBytes) {
    input.bytes.reset();
    input.capacity = 0;
  }
  publish_output();
  return ok ? 1 : 0;
}
