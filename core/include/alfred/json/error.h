#pragma once
/// Errors as values: every fallible core function returns `result<T>`.
/// Nothing in the core throws across its public API; the WASM boundary and
/// the JS side only ever see `{code, path, message, hint}`.
///
///     result<domain> dom = parse_domain(text);
///     if (!dom) return dom.take_error();  // or dom.err() to look at it
///     use(*dom);
///
/// An `error` owns its text, and a `result` owns its value or its error. Take
/// views into the value (a `json_value` of a `result<json_document>`) where
/// the value will stay: they are valid while the result holds it, and one
/// into a document that moved dangles.

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "alfred/errors/error_codes.h"

namespace alfred {

/// One problem with the input, precise enough for a person or an LLM to fix.
/// `code` is stable (tests and callers branch on it), `path` points into the
/// tool-call params (`filters[0].value[1]`), `message` says what was wrong
/// and `hint` says what is allowed or gives a corrected example.
struct error {
  // Out of line (json/error.cpp): an error is made, moved and destroyed at
  // hundreds of sites, and each inlined copy of its eleven members' work
  // cost the module bytes for a path that is never hot. The overloads by
  // literal or std::string keep the text's construction in here too: a
  // literal passed as std::string was built and destroyed at every site
  // (about 1.5 KB of the gzipped module as the size test counts it).
  error();
  error(error_code code, const char* path = "", const char* message = "", const char* hint = "");
  error(error_code code, const char* path, std::string message, const char* hint = "");
  error(error_code code, const char* path, std::string message, std::string hint);
  error(error_code code, std::string path, std::string message, const char* hint);
  error(error_code code, const char* path, const char* message, std::string hint);
  error(error_code code, std::string path, std::string message = {}, std::string hint = {});
  error(const error& other);
  error(error&& other) noexcept;
  error& operator=(const error& other);
  error& operator=(error&& other) noexcept;
  ~error();

  /// From the catalog (error_codes.h): `codes::unknown_column`.
  error_code code;
  std::string path;
  std::string message;
  std::string hint;
  /// Errors that came from the database: the HTTP status (0 otherwise), and
  /// PostgREST's or PostgreSQL's own code and details.
  int status = 0;
  std::string db_code;
  std::string details;
  /// For developers, never for the model: a response body that was not a
  /// database error (a proxy's HTML page), cut to about 1 KB.
  std::string raw_body;
  /// The message, details and hint as they were before UUIDs were replaced
  /// with refs (`scrub_error`, uuid_scrub.h): for the developer's logs, never
  /// for the model. Set on every error the database answered.
  struct raw_text {
    std::string message;
    std::string details;
    std::string hint;
  };
  std::optional<raw_text> raw;
};

/// Holds either a value or an `error`. Cheap to move; accessing the wrong
/// alternative is a programming error (std::get throws / aborts).
template <class T>
class result {
 public:
  result(T value) : state_(std::move(value)) {}
  result(error err) : state_(std::move(err)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const error& err() const { return std::get<1>(state_); }
  error&& take_error() { return std::get<1>(std::move(state_)); }

 private:
  std::variant<T, error> state_;
};

/// `result<void>`: success carries no value.
struct ok_t {};
using status = result<ok_t>;
inline status ok_status() { return ok_t{}; }

class json_writer;

/// Writes `{"code", "message", "path", "hint"}`, then `status`, `dbCode`,
/// `details` and `raw` when the error has them; every text field is cut to
/// 2000 bytes (on a UTF-8 boundary), whatever the error echoes.
///
///     json_writer w(out);
///     write_error(w, error{codes::unknown_table, "table", "'x' is not a table", ""});
void write_error(json_writer& w, const error& err);

}  // namespace alfred
