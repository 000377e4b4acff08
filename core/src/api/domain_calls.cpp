// The text API's domain calls: loading a domain, and its prompt example texts.

#include <utility>

#include "alfred/api/api.h"
#include "alfred/domain/prompt_examples.h"
#include "alfred/json/json.h"
#include "alfred/postgrest/request.h"
#include "results.h"

namespace alfred::api {

std::string load_domain(domain& into, std::string_view config_json) {
  return guarded([&]() -> std::string {
    auto parsed = parse_domain(config_json);
    if (!parsed) return error_result(parsed.err());
    into = std::move(*parsed);
    return {};
  });
}

std::string prompt_examples(const domain& dom) {
  return guarded([&]() {
    std::string data;
    json_writer w(data);
    w.begin_object();
    for (const auto& [slot, text] : alfred::prompt_examples(dom)) {
      w.key(slot);
      w.string(text);
    }
    w.end_object();
    return data_result(data);
  });
}

}  // namespace alfred::api
