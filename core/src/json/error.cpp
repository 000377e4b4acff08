// An error value as the JSON object every result and every failed
// execution reports.
#include "alfred/json/error.h"

#include "alfred/json/json.h"
#include "echo.h"

namespace alfred {

error::error() = default;
error::error(error_code code, std::string path, std::string message, std::string hint)
    : code(code), path(std::move(path)), message(std::move(message)), hint(std::move(hint)) {}
error::error(error_code code, const char* path, const char* message, const char* hint)
    : code(code), path(path), message(message), hint(hint) {}
error::error(error_code code, const char* path, std::string message, const char* hint)
    : code(code), path(path), message(std::move(message)), hint(hint) {}
error::error(error_code code, const char* path, std::string message, std::string hint)
    : code(code), path(path), message(std::move(message)), hint(std::move(hint)) {}
error::error(error_code code, std::string path, std::string message, const char* hint)
    : code(code), path(std::move(path)), message(std::move(message)), hint(hint) {}
error::error(error_code code, const char* path, const char* message, std::string hint)
    : code(code), path(path), message(message), hint(std::move(hint)) {}
error::error(const error& other) = default;
error::error(error&& other) noexcept = default;
error& error::operator=(const error& other) = default;
error& error::operator=(error&& other) noexcept = default;
error::~error() = default;

void write_error(json_writer& w, const error& err) {
  // The last line of defence against an echoed value of any size: messages
  // quote values through detail::echoed, and no field leaves longer than this.
  constexpr std::size_t kFieldBytes = 2000;
  w.begin_object();
  w.key("code");
  w.string(err.code);
  w.key("message");
  w.string(detail::clip_utf8(err.message, kFieldBytes));
  w.key("path");
  w.string(detail::clip_utf8(err.path, kFieldBytes));
  w.key("hint");
  w.string(detail::clip_utf8(err.hint, kFieldBytes));
  if (err.status != 0) {
    w.key("status");
    w.raw_value(std::to_string(err.status));
  }
  if (!err.db_code.empty()) {
    w.key("dbCode");
    w.string(detail::clip_utf8(err.db_code, detail::kEchoBytes));
  }
  if (!err.details.empty()) {
    w.key("details");
    w.string(detail::clip_utf8(err.details, kFieldBytes));
  }
  if (!err.raw_body.empty()) {
    w.key("rawBody");
    w.string(detail::clip_utf8(err.raw_body, kFieldBytes));
  }
  if (err.raw) {
    w.key("raw");
    w.begin_object();
    w.key("message");
    w.string(detail::clip_utf8(err.raw->message, kFieldBytes));
    w.key("details");
    w.string(detail::clip_utf8(err.raw->details, kFieldBytes));
    w.key("hint");
    w.string(detail::clip_utf8(err.raw->hint, kFieldBytes));
    w.end_object();
  }
  w.end_object();
}

}  // namespace alfred
