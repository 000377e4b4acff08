// The JSON reader (core/src/json/json.cpp) against nlohmann_json: on well-formed
// UTF-8 both accept the same texts and read the same values, and what the
// writer makes of a value reads back as the same value, its strings escaped
// exactly as nlohmann (and JSON.stringify) escape them.
//
// Known, intended differences, left out of the comparison: the core does not
// check UTF-8 (its input comes from TextEncoder, always well-formed), reads
// numbers beyond a double as JSON.parse does (nlohmann refuses them) and
// refuses nesting deeper than 64.

#include <cstdint>
#include <cstdlib>
#include <string>

#include "alfred/json/json.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

// JSON.stringify's text with the Unicode line breaks it leaves raw escaped.
std::string with_line_breaks_escaped(std::string text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "\xC2\x85") == 0) {
      out += "\\u0085";
      ++i;
    } else if (text.compare(i, 3, "\xE2\x80\xA8") == 0 || text.compare(i, 3, "\xE2\x80\xA9") == 0) {
      out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

void compare(json_value ours, const json& theirs, const std::string& path);

void compare_number(json_value ours, const json& theirs, const std::string& path) {
  check(ours.is_number(), "a number read as something else", path);
  const std::string raw(ours.raw());
  if (theirs.is_number_integer()) {
    check(ours.is_integer(), "an integer read as a fraction", path + " " + raw);
    if (auto n = ours.as_integer()) {
      const bool same = theirs.is_number_unsigned() ? *n >= 0 && std::uint64_t(*n) == theirs.get<std::uint64_t>()
                                                    : *n == theirs.get<std::int64_t>();
      check(same, "an integer read with another value", path + " " + raw);
    }
  } else {
    check(std::strtod(raw.c_str(), nullptr) == theirs.get<double>(), "a number read with another value",
          path + " " + raw);
  }
}

void compare(json_value ours, const json& theirs, const std::string& path) {
  switch (theirs.type()) {
    case json::value_t::null:
      return check(ours.is_null(), "null read as something else", path);
    case json::value_t::boolean:
      return check(ours.is_bool() && ours.as_bool() == theirs.get<bool>(), "a boolean read differently", path);
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return compare_number(ours, theirs, path);
    case json::value_t::string: {
      const auto& text = theirs.get_ref<const std::string&>();
      check(ours.is_string() && ours.str() == text, "a string read differently", path);
      // The writer escapes as JSON.stringify (nlohmann's dump), and also
      // U+0085, U+2028 and U+2029, which could start a line where a model
      // or a prompt reads the text (docs/results-for-models.md).
      return check(json_quote(text) == with_line_breaks_escaped(theirs.dump()),
                   "a string written unlike JSON.stringify", path);
    }
    case json::value_t::array: {
      check(ours.is_array() && ours.size() == theirs.size(), "an array read with another length", path);
      std::size_t i = 0;
      ours.for_each_element([&](std::size_t k, json_value item) {
        check(k == i, "array elements visited out of order", path);
        compare(item, theirs[i], path + "[" + std::to_string(i) + "]");
        check(ours.at(i).raw() == item.raw(), "at(i) is not the i-th element", path);
        ++i;
      });
      return;
    }
    case json::value_t::object: {
      check(ours.is_object(), "an object read as something else", path);
      std::vector<std::string_view> keys;
      std::size_t k = 0;
      ours.for_each_member([&](std::string_view key, json_value value) {
        check(ours.key_at(k) == key && ours.at(k).raw() == value.raw(), "key_at/at disagree with the member order",
              path);
        ++k;
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
      });
      check(k == ours.size(), "size() is not the number of members", path);
      check(keys.size() == theirs.size(), "an object read with other members", path);
      for (const auto& [key, value] : theirs.items()) {
        auto found = ours.find(key);  // the last of a repeated key, as nlohmann keeps
        check(found.has_value(), "a member not found", path + "." + key);
        compare(*found, value, path + "." + key);
      }
      return;
    }
    default:
      fail("nlohmann read a value kind JSON has not", path);
  }
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto ours = json_document::parse(text);
  const bool utf8 = valid_utf8(text);
  const reference_parse theirs = utf8 ? parse_reference(text) : reference_parse{};

  if (!ours) {
    check(ours.err().code == "invalid_json" && !ours.err().message.empty(), "a parse error without code or message");
    const bool too_deep = ours.err().message.find("nested too deeply") != std::string::npos;
    if (too_deep && theirs.value) check(theirs.depth > 64, "nested too deeply at depth <= 64", ours.err().message);
    if (utf8 && !too_deep) check(!theirs.value, "the core rejects JSON that nlohmann reads", ours.err().message);
    return 0;
  }
  if (utf8) {
    check(theirs.value || theirs.number_overflow, "the core reads text that nlohmann rejects (or holds a NUL or BOM)");
    if (!theirs.value) return 0;
    compare(ours->root(), *theirs.value, "$");
  }

  // What the writer makes of the value reads back as the same value.
  std::string written;
  json_writer(written).value(ours->root());
  auto again = json_document::parse(written);
  check(again.ok(), "the writer's output does not parse", written);
  std::string rewritten;
  json_writer(rewritten).value(again->root());
  check(rewritten == written, "writing is not stable", written + "\n" + rewritten);
  if (utf8 && theirs.value) {
    const auto reread = parse_reference(written);
    check(reread.value && *reread.value == *theirs.value, "the writer's output reads as another value", written);
  }
  return 0;
}
