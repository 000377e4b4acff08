#pragma once
// Shared fixtures for the core tests: the kitchen domain and a registry with
// a few known rows.

#include <doctest/doctest.h>

#include "alfred/domain.h"
#include "alfred/registry.h"
#include "alfred/request.h"
#include "kitchen_domain.h"

namespace alfred::test {

inline const domain& kitchen() {
  static const domain dom = [] {
    auto parsed = parse_domain(json::parse(kKitchenDomainJson));
    REQUIRE(parsed.ok());
    return std::move(parsed).value();
  }();
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
  reg.register_generated("recipes", "recipe", json{{"name", "Thai Basil Chicken"}}, "Thai Basil Chicken");
  return reg;
}

inline request_options alice_options() {
  request_options opts;
  opts.base_url = "http://127.0.0.1:3000";
  opts.user_id = kAlice;
  return opts;
}

}  // namespace alfred::test
