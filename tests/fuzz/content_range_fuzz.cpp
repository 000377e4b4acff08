// The Content-Range total (`content_range_total`, core/src/postgrest/content_range.cpp)
// on arbitrary header text: the server (or a proxy in front of it) writes it.
// A total the core reports is the whole number after the last `/`, up to
// 2^53 - 1, read exactly; `*`, an empty header and trailing blanks are no
// total; anything else is an `invalid_response` error that quotes at most
// 40 bytes of the header.

#include <cstdint>
#include <string>

#include "../../core/src/postgrest/content_range.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto total = detail::content_range_total(input);
  std::string_view trimmed = input;
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.remove_suffix(1);
  const auto slash = trimmed.rfind('/');
  const std::string_view digits = slash == std::string_view::npos ? std::string_view() : trimmed.substr(slash + 1);
  if (!total) {
    check(total.err().code == "invalid_response", "an unexpected Content-Range error code", total.err().code);
    check(total.err().message.size() < 120 + 40, "the error quotes too much of the header", total.err().message);
    check(!trimmed.empty() && digits != "*", "a refused header that has no total", std::string(input));
    return 0;
  }
  if (!*total) {
    check(trimmed.empty() || (slash != std::string_view::npos && digits == "*"), "a total left out",
          std::string(input));
    return 0;
  }
  const long long value = **total;
  check(value >= 0 && value <= detail::kMaxCountTotal, "a total out of range", std::to_string(value));
  check(!digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }),
        "a total from something other than digits", std::string(input));
  std::string_view significant = digits;
  while (significant.size() > 1 && significant.front() == '0') significant.remove_prefix(1);
  check(significant == std::to_string(value), "a total read wrongly",
        std::string(input) + " -> " + std::to_string(value));
  return 0;
}
