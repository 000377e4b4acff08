// The registry's free functions: revising a pending generated artifact, the
// table a ref names, the ref grammar, and the ids of creates of unknown
// outcome. Each delegates to the core's API layer (alfred/api/api.h) and
// publishes its `{"data",…}` text through the result slot.

#include <cstdint>

#include "handles.h"

using namespace alfred_wasm;

// Arguments: the generated ref, the content's JSON.
ALFRED_EXPORT void alfred_registry_update_generated(std::uintptr_t registry, std::uintptr_t dom, std::size_t ref_length,
                                                    std::size_t content_length) {
  arguments args;
  const auto ref = args.next(ref_length);
  const auto content = args.next(content_length);
  publish_text(
      alfred::api::update_generated(at<domain_handle>(dom).get(), at<registry_handle>(registry).get(), ref, content));
}

// Argument: the ref.
ALFRED_EXPORT void alfred_registry_ref_table(std::uintptr_t registry, std::size_t ref_length) {
  arguments args;
  publish_text(alfred::api::ref_table(at<registry_handle>(registry).get(), args.next(ref_length)));
}

// Argument: the text.
ALFRED_EXPORT void alfred_parse_ref(std::size_t text_length) {
  arguments args;
  publish_text(alfred::api::parse_ref(args.next(text_length)));
}

// Argument: the key.
ALFRED_EXPORT void alfred_registry_uncertain_ids(std::uintptr_t registry, std::size_t key_length) {
  arguments args;
  publish_text(alfred::api::uncertain_ids(at<registry_handle>(registry).get(), args.next(key_length)));
}

// Arguments: the key, the ids' JSON.
ALFRED_EXPORT void alfred_registry_set_uncertain(std::uintptr_t registry, std::size_t key_length,
                                                 std::size_t ids_length) {
  arguments args;
  const auto key = args.next(key_length);
  const auto ids = args.next(ids_length);
  publish_text(alfred::api::set_uncertain(at<registry_handle>(registry).get(), key, ids));
}
