#pragma once
// Shared fixtures for the core tests: the domain packs, a registry with a
// few known rows, and helpers that go through the core's text-in/text-out
// API, so tests read as "this JSON in, this request or error out".

#include <doctest/doctest.h>

#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/json.h"
#include "alfred/postgrest/request.h"
#include "alfred/registry/registry.h"
#include "alfred/rows/row_translation.h"
#include "domain_packs.h"
#include "prompt_schemas.h"

namespace alfred {
// doctest shows a code in a failed check as its text.
inline std::ostream& operator<<(std::ostream& out, error_code code) { return out << code.name(); }
}  // namespace alfred

namespace alfred::test {

/// The JSON of a domain pack as the JS side loads it (db/packs.mjs): the
/// folder's domain.json, with its prompts/<slot>.md files as
/// "prompt_examples" unless `with_prompts` is false.
inline std::string pack_domain_json(std::string_view pack, bool with_prompts = true) {
  std::string json;
  const std::string domain_name = std::string(pack) + "/domain";
  const std::string prompts = std::string(pack) + "/prompts/";
  std::string examples;
  for (const auto& entry : kDomainPacks) {
    if (entry.name == domain_name) json = std::string(entry.text);
    if (!with_prompts || entry.name.substr(0, prompts.size()) != prompts) continue;
    std::string_view text = entry.text;
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    examples.append(examples.empty() ? "" : ",")
        .append(json_quote(entry.name.substr(prompts.size())))
        .append(":")
        .append(json_quote(text));
  }
  REQUIRE_FALSE(json.empty());
  if (examples.empty()) return json;
  while (!json.empty() && json.back() != '}') json.pop_back();
  json.pop_back();
  return json + ", \"prompt_examples\": {" + examples + "}}";
}

/// The ActDecision JSON Schema (prompts/act/decision.schema.json), which the
/// package hands to models and the core's rules must agree with.
inline std::string_view act_decision_schema() {
  for (const auto& entry : kPromptSchemas)
    if (entry.name == "act/decision.schema") return entry.text;
  FAIL("prompts/act/decision.schema.json is not embedded");
  return {};
}

inline domain load_pack(std::string_view pack, bool with_prompts = true) {
  auto parsed = parse_domain(pack_domain_json(pack, with_prompts));
  if (!parsed) FAIL(parsed.err().path << ": " << parsed.err().message);
  return std::move(parsed).value();
}

inline const domain& kitchen() {
  static const domain dom = load_pack("kitchen");
  return dom;
}

/// The CRM pack's domain as `alfred-act domain pull` wrote it: every prompt
/// example derived from its tables.
inline const domain& crm_pulled() {
  static const domain dom = load_pack("crm", false);
  return dom;
}

inline constexpr const char* kAlice = "6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11";
inline constexpr const char* kRecipe1 = "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61";
inline constexpr const char* kRecipe2 = "0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c22";
inline constexpr const char* kInv1 = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51";

/// recipe_1 (Butter Chicken), recipe_2 (Cod Curry), inv_1 (milk), gen_recipe_1 (pending).
inline ref_registry sample_registry() {
  ref_registry reg;
  reg.set_turn(1);
  reg.register_row("recipes", "recipe", kRecipe1, ref_action::read, "Butter Chicken");
  reg.register_row("recipes", "recipe", kRecipe2, ref_action::read, "Cod Curry");
  reg.register_row("inventory", "inv", kInv1, ref_action::read, "milk");
  reg.register_generated("recipes", "recipe", R"({"name":"Thai Basil Chicken"})", "Thai Basil Chicken");
  return reg;
}

inline request_options alice_options() {
  request_options opts;
  opts.base_url = "http://127.0.0.1:3000";
  opts.user_id = kAlice;
  return opts;
}

/// `alice_options()` signed in: a token whose `sub` is Alice (the executor
/// refuses user-owned tables without one, `not_signed_in`).
inline request_options alice_session() {
  request_options opts = alice_options();
  // {"role":"authenticated","sub":"<kAlice>"}, with a dummy signature.
  opts.access_token =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
      "eyJyb2xlIjoiYXV0aGVudGljYXRlZCIsInN1YiI6IjZmMWMxYTUyLThkM2UtNGY3YS05YTQxLTJiN2Q1ZTBjOWExMSJ9.c2lnbmF0dXJl";
  return opts;
}

/// Loads a domain from JSON text.
inline result<domain> load_domain(std::string_view json_text) { return parse_domain(json_text); }

/// Restores a registry from JSON text.
inline result<ref_registry> restore(std::string_view state_json) { return ref_registry::from_json(state_json); }

/// A registry's serialized state as JSON text.
inline std::string state_text(const ref_registry& reg) { return reg.to_json(); }

/// Registers generated content given as JSON text; returns the gen_ ref.
inline std::string generate(ref_registry& reg, std::string_view table_name, std::string_view content_json) {
  const table* tbl = kitchen().find_table(table_name);
  REQUIRE(tbl != nullptr);
  auto content = json_document::parse(content_json);
  REQUIRE(content.ok());
  auto ref =
      reg.register_generated(tbl->name, tbl->ref_prefix, std::string(content_json), row_label(*tbl, content->root()));
  REQUIRE(ref.ok());
  return *ref;
}

/// Builds a request from params given as JSON text.
inline result<http_request> build(std::string_view tool, std::string_view params_json,
                                  const ref_registry& reg = sample_registry(),
                                  const request_options& opts = alice_options()) {
  return build_request(kitchen(), reg, tool, params_json, opts);
}

/// The error a tool call produces; fails the test if it succeeds.
inline error build_error(std::string_view tool, std::string_view params_json,
                         const ref_registry& reg = sample_registry(), const request_options& opts = alice_options()) {
  auto req = build(tool, params_json, reg, opts);
  REQUIRE_FALSE(req.ok());
  return req.err();
}

/// Percent-decodes a query string into (key, value) pairs, in order.
inline std::vector<std::pair<std::string, std::string>> decoded_query(const std::string& url) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto question = url.find('?');
  if (question == std::string::npos) return out;
  auto decode = [](std::string_view text) {
    std::string result;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '%' && i + 2 < text.size() + 0 && i + 2 <= text.size() - 1 + 1) {
        result += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
        i += 2;
      } else {
        result += text[i];
      }
    }
    return result;
  };
  std::string_view query = std::string_view(url).substr(question + 1);
  while (!query.empty()) {
    auto amp = query.find('&');
    auto pair = query.substr(0, amp);
    auto eq = pair.find('=');
    out.emplace_back(decode(pair.substr(0, eq)), eq == std::string_view::npos ? "" : decode(pair.substr(eq + 1)));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

/// A header's value ("" when absent).
inline std::string header(const http_request& req, std::string_view name) {
  for (const auto& [key, value] : req.headers)
    if (key == name) return value;
  return {};
}

/// Translates rows given as JSON text; returns the model-facing JSON text.
inline std::string translate(ref_registry& reg, std::string_view table_name, std::string_view rows_json,
                             ref_action action = ref_action::read) {
  const table* tbl = kitchen().find_table(table_name);
  REQUIRE(tbl != nullptr);
  auto out = translate_rows(kitchen(), reg, *tbl, rows_json, action);
  REQUIRE(out.ok());
  return std::move(out).value();
}

}  // namespace alfred::test
