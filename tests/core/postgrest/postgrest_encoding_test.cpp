// The two layers of PostgREST's URL grammar (docs/postgrest-wire.md
// #two-encoding-layers, #percent-encoding, #lists-and-logic-trees): quoting on
// the decoded text, then percent-encoding of every byte outside the RFC 3986
// unreserved set.

#include "alfred/postgrest/postgrest_encoding.h"

#include <string>

#include "../request_text.h"
#include "../support.h"

namespace alfred::test {

TEST_CASE("percent_encode keeps exactly A-Z a-z 0-9 - . _ ~") {
  const std::string unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
  CHECK(percent_encode(unreserved) == unreserved);
  CHECK(percent_encode("") == "");
}

TEST_CASE("percent_encode encodes every other ASCII byte, upper-case hex") {
  // Mandatory (docs/postgrest-wire.md#percent-encoding): space, + (would decode to space), ; (splits
  // parameters), & # % = " \ ; JS fetch leaves + ; & % \ { } | ^ raw.
  CHECK(percent_encode(" ") == "%20");
  CHECK(percent_encode("+") == "%2B");
  CHECK(percent_encode(";") == "%3B");
  CHECK(percent_encode("&") == "%26");
  CHECK(percent_encode("#") == "%23");
  CHECK(percent_encode("%") == "%25");
  CHECK(percent_encode("=") == "%3D");
  CHECK(percent_encode("\"") == "%22");
  CHECK(percent_encode("\\") == "%5C");
  CHECK(percent_encode("{}|^`") == "%7B%7D%7C%5E%60");
  CHECK(percent_encode(",()*:") == "%2C%28%29%2A%3A");
  CHECK(percent_encode("/?@[]!$'<>") == "%2F%3F%40%5B%5D%21%24%27%3C%3E");
  CHECK(percent_encode("\t\r\n\x7f") == "%09%0D%0A%7F");
  CHECK(percent_encode(std::string("a\0b", 3)) == "a%00b");
}

TEST_CASE("percent_encode encodes UTF-8 bytewise") {
  CHECK(percent_encode("crème brûlée") == "cr%C3%A8me%20br%C3%BBl%C3%A9e");
  CHECK(percent_encode("日本酒") == "%E6%97%A5%E6%9C%AC%E9%85%92");
  CHECK(percent_encode("🍣") == "%F0%9F%8D%A3");
}

TEST_CASE("percent_encode: a raw %XX in data stays data") {
  // ilike.%cafe% must not reach the server as %ca (an invalid UTF-8 byte → HTTP 500).
  CHECK(percent_encode("%cafe%") == "%25cafe%25");
  CHECK(percent_encode("100%") == "100%25");
}

TEST_CASE("quote_list_value leaves plain values bare") {
  for (const std::string text : {"milk", "two words", "日本酒", "a+b;c&d#e%f", "x.y", "a*b", "null", "NULL", "100%",
                                 "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61", "42"}) {
    CAPTURE(text);
    CHECK(quote_list_value(text) == text);
  }
}

TEST_CASE("quote_list_value quotes grammar characters: , ( ) and array braces") {
  CHECK(quote_list_value("a,b") == R"("a,b")");
  CHECK(quote_list_value("c(d)") == R"q("c(d)")q");
  CHECK(quote_list_value("salt, coarse (kosher)") == R"q("salt, coarse (kosher)")q");
  CHECK(quote_list_value("{a}") == R"("{a}")");
  CHECK(quote_list_value("x:y") == R"("x:y")");
}

TEST_CASE("quote_list_value escapes backslash and double quote inside quotes") {
  CHECK(quote_list_value(R"(say "hi")") == R"("say \"hi\"")");
  CHECK(quote_list_value(R"(back\slash)") == R"("back\\slash")");
  // postgrest-js sends ("he said "a,b"") which the server splits in two.
  CHECK(quote_list_value(R"(he said "a,b")") == R"("he said \"a,b\"")");
  CHECK(quote_list_value(R"(x,y\z)") == R"("x,y\\z")");
  CHECK(quote_list_value(R"(")") == R"("\"")");
}

TEST_CASE("quote_list_value quotes the empty string and edge spaces") {
  CHECK(quote_list_value("") == R"("")");
  CHECK(quote_list_value(" padded ") == R"(" padded ")");
  CHECK(quote_list_value(" lead") == R"(" lead")");
  CHECK(quote_list_value("trail ") == R"("trail ")");
  CHECK(quote_list_value("\ttab") == "\"\ttab\"");
}

TEST_CASE("quote_list_value: injection-shaped values become one quoted value") {
  CHECK(quote_list_value("milk,id.not.is.null") == R"("milk,id.not.is.null")");
  CHECK(quote_list_value("x),user_id.neq.null,and(id.is.null") == R"("x),user_id.neq.null,and(id.is.null")");
  CHECK(quote_list_value(R"(x"),or(id.not.is.null)") == R"("x\"),or(id.not.is.null")");
}

TEST_CASE("the layers compose: quoting survives percent-encoding and decoding unchanged") {
  const std::string value = quote_list_value(R"(he said "a,b" \ 100% a+b;c&d#e)");
  const std::string encoded = percent_encode("in.(" + value + ")");
  CHECK(encoded.find_first_of(" +;&#\"\\,()=") == std::string::npos);
  const std::string url = "http://h/t?name=" + encoded;
  const auto query = decoded_query(url);
  REQUIRE(query.size() == 1);
  CHECK(query[0].first == "name");
  CHECK(query[0].second == R"(in.("he said \"a,b\" \\ 100% a+b;c&d#e"))");
}

}  // namespace alfred::test
