// The results every call of the core's text API shares: the `{data, error}`
// envelope, the error results of an escaped exception, and the small helpers
// the calls write with.

#include "results.h"

#include "alfred/api/api.h"
#include "alfred/postgrest/request.h"

namespace alfred::api {

std::string data_result(std::string_view data_json) {
  std::string out;
  out.reserve(data_json.size() + 24);
  out += "{\"data\":";
  out += data_json;
  out += ",\"error\":null}";
  return out;
}

std::string error_result(const error& err) {
  std::string out = "{\"data\":null,\"error\":";
  json_writer w(out);
  write_error(w, err);
  out += '}';
  return out;
}

std::string out_of_memory_result() {
  return error_result({codes::out_of_memory, "",
                       "alfred-act core failed: the input needs more memory than the core may use",
                       "use smaller inputs (docs/limits-and-faults.md gives the limits)"});
}

std::string internal_error_result(const char* what) {
  return error_result({codes::internal_error, "", std::string("alfred-act core failed: ") + what,
                       "please report this with the input that caused it"});
}

error unknown_table(std::string_view name) {
  return {codes::unknown_table, "table", std::string("'").append(name).append("' is not a table of this domain"), ""};
}

std::string quoted_data(std::string_view text) { return data_result(json_quote(text)); }

}  // namespace alfred::api
