// The ref registry: refs that never change meaning within a session, gen_
// refs that are promoted exactly once, and a versioned state that restores
// exactly or fails loudly.

#include "alfred/registry/registry.h"

#include <string>

#include "../request_text.h"
#include "../support.h"

namespace alfred::test {
namespace {

constexpr const char* kSaved = "5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88";
constexpr const char* kOther = "7e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";

const char* kHint = "pass a value produced by registry.toJSON(), or omit it to start a new session";

std::string state_with(const std::string& counters, const std::string& gen_counters, const std::string& refs,
                       const std::string& head = R"("format":"alfred-act/registry","version":2,"turn":1)") {
  return "{" + head + R"(,"counters":)" + counters + R"(,"gen_counters":)" + gen_counters + R"(,"refs":[)" + refs +
         "]}";
}

std::string row_ref(const std::string& ref, const std::string& uuid, const std::string& extra = "") {
  return R"({"ref":")" + ref + R"(","table":"recipes","uuid":")" + uuid +
         R"(","label":"","action":"read","turn_created":1,"turn_last":1)" + extra + "}";
}

void check_restore_error(const std::string& state, const std::string& code, const std::string& path,
                         const std::string& message) {
  auto restored = restore(state);
  REQUIRE_FALSE(restored.ok());
  CHECK(restored.err().code == code);
  CHECK(restored.err().path == path);
  CHECK(restored.err().message == message);
}

}  // namespace

TEST_CASE("parse_ref_name splits regular and gen_ refs") {
  auto plain = parse_ref_name("recipe_12");
  REQUIRE(plain.has_value());
  CHECK_FALSE(plain->generated);
  CHECK(plain->prefix == "recipe");
  CHECK(plain->number == 12);

  auto gen = parse_ref_name("gen_meal_3");
  REQUIRE(gen.has_value());
  CHECK(gen->generated);
  CHECK(gen->prefix == "meal");
  CHECK(gen->number == 3);

  auto multi = parse_ref_name("meal_plan_7");
  REQUIRE(multi.has_value());
  CHECK(multi->prefix == "meal_plan");
  CHECK(multi->number == 7);

  auto big = parse_ref_name("inv_999999999");
  REQUIRE(big.has_value());
  CHECK(big->number == 999999999);
}

TEST_CASE("parse_ref_name rejects text that is not ref-shaped") {
  for (const std::string text :
       {"", "recipe", "recipe_", "_1", "recipe_01", "recipe_0", "Recipe_1", "recipe_1a", "recipe_-1", "recipe_+1",
        "recipe 1", " recipe_1", "recipe_1 ", "gen__1", "gen_recipe_", "recipe_1234567890",
        "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61", "recipé_1", "inv-1"}) {
    CAPTURE(text);
    CHECK_FALSE(parse_ref_name(text).has_value());
  }
}

TEST_CASE("registry numbers rows per prefix and gen_ refs from separate counters") {
  ref_registry reg = sample_registry();
  REQUIRE(reg.entries().size() == 4);
  CHECK(reg.entries()[0].ref == "recipe_1");
  CHECK(reg.entries()[1].ref == "recipe_2");
  CHECK(reg.entries()[2].ref == "inv_1");
  CHECK(reg.entries()[3].ref == "gen_recipe_1");

  CHECK(reg.register_row("recipes", "recipe", kOther, ref_action::read, "Dal") == "recipe_3");
  CHECK(generate(reg, "recipes", R"({"name": "Pho"})") == "gen_recipe_2");
  CHECK(generate(reg, "inventory", R"({"name": "oat milk"})") == "gen_inv_1");
  CHECK(reg.register_row("inventory", "inv", kSaved, ref_action::created, "eggs") == "inv_2");
}

TEST_CASE("registry entries carry table, type, uuid, label, action and turns") {
  ref_registry reg = sample_registry();
  const ref_entry* recipe = reg.find("recipe_1");
  REQUIRE(recipe != nullptr);
  CHECK(recipe->ref == "recipe_1");
  CHECK(recipe->type == "recipe");
  CHECK(recipe->table == "recipes");
  CHECK(recipe->key == kRecipe1);
  CHECK(recipe->label == "Butter Chicken");
  CHECK(recipe->action == ref_action::read);
  CHECK(recipe->turn_created == 1);
  CHECK(recipe->turn_last == 1);
  CHECK_FALSE(recipe->generated);
  CHECK_FALSE(recipe->pending());
  CHECK(recipe->saved_as == "");

  const ref_entry* gen = reg.find("gen_recipe_1");
  REQUIRE(gen != nullptr);
  CHECK(gen->type == "recipe");
  CHECK(gen->table == "recipes");
  CHECK(gen->key == "");
  CHECK(gen->label == "Thai Basil Chicken");
  CHECK(gen->action == ref_action::generated);
  CHECK(gen->generated);
  CHECK(gen->pending());

  CHECK(reg.find("recipe_3") == nullptr);
  CHECK(reg.find("Recipe_1") == nullptr);
  CHECK(reg.find("") == nullptr);
  CHECK(reg.find_by_uuid(kRecipe2)->ref == "recipe_2");
  CHECK(reg.find_by_uuid(kOther) == nullptr);
  CHECK(reg.resolve("recipe_2") == reg.find("recipe_2"));
  CHECK(reg.resolve("recipe_9") == nullptr);
}

TEST_CASE("ref_action_name spells every action") {
  CHECK(ref_action_name(ref_action::read) == "read");
  CHECK(ref_action_name(ref_action::created) == "created");
  CHECK(ref_action_name(ref_action::updated) == "updated");
  CHECK(ref_action_name(ref_action::deleted) == "deleted");
  CHECK(ref_action_name(ref_action::generated) == "generated");
  CHECK(ref_action_name(ref_action::linked) == "linked");
}

TEST_CASE("the same UUID keeps its ref - re-registering refreshes action, label and turn") {
  ref_registry reg = sample_registry();
  reg.set_turn(3);
  CHECK(reg.register_row("recipes", "recipe", kRecipe1, ref_action::updated, "") == "recipe_1");
  const ref_entry* entry = reg.find("recipe_1");
  CHECK(entry->action == ref_action::updated);
  CHECK(entry->label == "Butter Chicken");  // empty label keeps the old one
  CHECK(entry->turn_created == 1);
  CHECK(entry->turn_last == 3);
  CHECK(reg.register_row("recipes", "recipe", kRecipe1, ref_action::read, "Murgh Makhani") == "recipe_1");
  CHECK(reg.find("recipe_1")->label == "Murgh Makhani");
  CHECK(reg.entries().size() == 4);
}

TEST_CASE("register_linked: unknown UUIDs get a linked ref, known ones keep their action") {
  ref_registry reg = sample_registry();
  CHECK(reg.register_linked("ingredients", "ing", kOther) == "ing_1");
  const ref_entry* linked = reg.find("ing_1");
  REQUIRE(linked != nullptr);
  CHECK(linked->action == ref_action::linked);
  CHECK(linked->label == "");
  CHECK(linked->table == "ingredients");
  CHECK(reg.register_linked("ingredients", "ing", kOther) == "ing_1");
  CHECK(reg.register_linked("recipes", "recipe", kRecipe1) == "recipe_1");
  CHECK(reg.find("recipe_1")->action == ref_action::read);
  CHECK(reg.find("recipe_1")->label == "Butter Chicken");
}

TEST_CASE("counters never reset: numbers are not reused after a restore, even past gaps") {
  // The counter is ahead of the highest ref (a row was dropped from state).
  const std::string state = state_with(R"({"recipe":5})", R"({"recipe":2})", row_ref("recipe_1", kRecipe1));
  auto restored = restore(state);
  REQUIRE(restored.ok());
  ref_registry reg = std::move(restored).value();
  CHECK(reg.register_row("recipes", "recipe", kRecipe2, ref_action::read, "Cod Curry") == "recipe_6");
  CHECK(generate(reg, "recipes", R"({"name": "Pho"})") == "gen_recipe_3");
  CHECK(reg.register_row("recipes", "recipe", kRecipe1, ref_action::read, "") == "recipe_1");
}

TEST_CASE("promote binds a pending gen_ ref to a new regular ref for the saved row") {
  ref_registry reg = sample_registry();
  reg.set_turn(2);
  auto saved = reg.promote("gen_recipe_1", kSaved, "");
  REQUIRE(saved.ok());
  CHECK(*saved == "recipe_3");

  const ref_entry* row = reg.find("recipe_3");
  REQUIRE(row != nullptr);
  CHECK(row->key == kSaved);
  CHECK(row->label == "Thai Basil Chicken");
  CHECK(row->action == ref_action::created);
  CHECK_FALSE(row->generated);

  const ref_entry* gen = reg.find("gen_recipe_1");
  CHECK_FALSE(gen->pending());
  CHECK(gen->key == kSaved);
  CHECK(gen->saved_as == "recipe_3");
  CHECK(gen->action == ref_action::created);
  CHECK(gen->turn_saved == 2);
  CHECK(gen->turn_last == 2);

  // The UUID maps to the regular ref; the gen_ ref is an alias of it.
  CHECK(reg.find_by_uuid(kSaved) == row);
  CHECK(reg.resolve("gen_recipe_1") == row);
}

TEST_CASE("promote takes the label it is given") {
  ref_registry reg = sample_registry();
  REQUIRE(reg.promote("gen_recipe_1", kSaved, "Thai Basil Chicken (less chilli)").ok());
  CHECK(reg.find("recipe_3")->label == "Thai Basil Chicken (less chilli)");
}

TEST_CASE("regression: double promotion - a second save of the same gen_ ref is refused") {
  ref_registry reg = sample_registry();
  REQUIRE(reg.promote("gen_recipe_1", kSaved, "").ok());
  const std::string before = state_text(reg);
  auto again = reg.promote("gen_recipe_1", kOther, "");
  REQUIRE_FALSE(again.ok());
  CHECK(again.err().code == "already_saved");
  CHECK(again.err().message == "gen_recipe_1 was already saved as recipe_3");
  CHECK(again.err().hint == "refer to the saved row by its ref");
  CHECK(state_text(reg) == before);
  CHECK(reg.find_by_uuid(kOther) == nullptr);
}

TEST_CASE("promote refuses unknown refs and regular refs") {
  ref_registry reg = sample_registry();
  auto unknown = reg.promote("gen_recipe_7", kSaved, "");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.err().code == "unknown_ref");
  CHECK(unknown.err().message == "gen_recipe_7 is not a generated artifact");
  auto regular = reg.promote("recipe_1", kSaved, "");
  REQUIRE_FALSE(regular.ok());
  CHECK(regular.err().code == "unknown_ref");
  CHECK(regular.err().message == "recipe_1 is not a generated artifact");
  CHECK(reg.entries().size() == 4);
}

TEST_CASE("promote never leaves a state that cannot be restored (non-UUID row id)") {
  // Whatever promote does with a value that is not a UUID, the registry must
  // stay serializable: restore(state_text(reg)) has to succeed afterwards.
  for (const std::string bad : {"", "not-a-uuid", "recipe_3"}) {
    CAPTURE(bad);
    ref_registry reg = sample_registry();
    auto saved = reg.promote("gen_recipe_1", bad, "");
    auto restored = restore(state_text(reg));
    CHECK(restored.ok());
    if (saved.ok()) CHECK(reg.find(*saved)->key != "");
  }
}

TEST_CASE("regression: action flip - reading a saved row does not make its gen_ ref pending again") {
  ref_registry reg = sample_registry();
  REQUIRE(reg.promote("gen_recipe_1", kSaved, "").ok());
  CHECK(reg.register_row("recipes", "recipe", kSaved, ref_action::read, "Thai Basil Chicken") == "recipe_3");
  const ref_entry* gen = reg.find("gen_recipe_1");
  CHECK(gen->action == ref_action::created);
  CHECK_FALSE(gen->pending());
  CHECK(reg.find_pending_by_label("recipe", "Thai Basil Chicken") == nullptr);
}

TEST_CASE("find_pending_by_label matches trimmed and case-insensitive, per type, pending only") {
  ref_registry reg = sample_registry();
  const ref_entry* found = reg.find_pending_by_label("recipe", "  thai BASIL chicken\t");
  REQUIRE(found != nullptr);
  CHECK(found->ref == "gen_recipe_1");
  CHECK(reg.find_pending_by_label("recipe", "Thai Basil") == nullptr);
  CHECK(reg.find_pending_by_label("inv", "Thai Basil Chicken") == nullptr);
  CHECK(reg.find_pending_by_label("recipe", "") == nullptr);
  CHECK(reg.find_pending_by_label("recipe", "   ") == nullptr);
  // Saved rows are not pending, even with a matching label.
  CHECK(reg.find_pending_by_label("recipe", "Butter Chicken") == nullptr);

  // Two artifacts with one label: the first registered wins; once it is
  // promoted, the second one is found.
  CHECK(generate(reg, "recipes", R"({"name": "Thai Basil Chicken"})") == "gen_recipe_2");
  CHECK(reg.find_pending_by_label("recipe", "thai basil chicken")->ref == "gen_recipe_1");
  REQUIRE(reg.promote("gen_recipe_1", kSaved, "").ok());
  CHECK(reg.find_pending_by_label("recipe", "thai basil chicken")->ref == "gen_recipe_2");
}

TEST_CASE("mark sets a known row's action and turn - unknown refs are ignored") {
  ref_registry reg = sample_registry();
  reg.set_turn(4);
  reg.mark("recipe_2", ref_action::deleted);
  CHECK(reg.find("recipe_2")->action == ref_action::deleted);
  CHECK(reg.find("recipe_2")->turn_last == 4);
  const std::string before = state_text(reg);
  reg.mark("recipe_9", ref_action::updated);
  CHECK(state_text(reg) == before);
}

TEST_CASE("set_turn only moves forward") {
  ref_registry reg;
  CHECK(reg.turn() == 0);
  reg.set_turn(3);
  CHECK(reg.turn() == 3);
  reg.set_turn(2);
  CHECK(reg.turn() == 3);
  reg.set_turn(-1);
  CHECK(reg.turn() == 3);
  reg.set_turn(5);
  CHECK(reg.turn() == 5);
  CHECK(reg.register_row("recipes", "recipe", kRecipe1, ref_action::read, "x") == "recipe_1");
  CHECK(reg.find("recipe_1")->turn_created == 5);
}

TEST_CASE("refs_of_type lists regular and gen_ refs of one prefix in registration order") {
  ref_registry reg = sample_registry();
  auto recipes = reg.refs_of_type("recipe");
  REQUIRE(recipes.size() == 3);
  CHECK(recipes[0]->ref == "recipe_1");
  CHECK(recipes[1]->ref == "recipe_2");
  CHECK(recipes[2]->ref == "gen_recipe_1");
  REQUIRE(reg.refs_of_type("inv").size() == 1);
  CHECK(reg.refs_of_type("inv")[0]->ref == "inv_1");
  CHECK(reg.refs_of_type("rec").empty());
  CHECK(reg.refs_of_type("meal").empty());
}

TEST_CASE("end_turn drops the content of saved artifacts only") {
  ref_registry reg;
  reg.set_turn(1);
  // Compact content, so the expected state does not depend on whether the
  // registry re-serializes content or keeps the text it was given.
  CHECK(generate(reg, "recipes", R"({"name":"A","instructions":["x"]})") == "gen_recipe_1");
  CHECK(generate(reg, "recipes", R"({"name":"B"})") == "gen_recipe_2");
  REQUIRE(reg.promote("gen_recipe_1", kSaved, "").ok());
  const std::string before_end =
      R"({"format":"alfred-act/registry","version":2,"turn":1,"counters":{"recipe":1},"gen_counters":{"recipe":2},"refs":[)"
      R"({"ref":"gen_recipe_1","table":"recipes","uuid":"5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88","label":"A","action":"created","turn_created":1,"turn_last":1,"content":{"name":"A","instructions":["x"]},"saved_as":"recipe_1","turn_saved":1},)"
      R"({"ref":"gen_recipe_2","table":"recipes","uuid":null,"label":"B","action":"generated","turn_created":1,"turn_last":1,"content":{"name":"B"}},)"
      R"({"ref":"recipe_1","table":"recipes","uuid":"5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88","label":"A","action":"created","turn_created":1,"turn_last":1}]})";
  CHECK(state_text(reg) == before_end);
  reg.end_turn();
  const std::string after_end =
      R"({"format":"alfred-act/registry","version":2,"turn":1,"counters":{"recipe":1},"gen_counters":{"recipe":2},"refs":[)"
      R"({"ref":"gen_recipe_1","table":"recipes","uuid":"5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88","label":"A","action":"created","turn_created":1,"turn_last":1,"saved_as":"recipe_1","turn_saved":1},)"
      R"({"ref":"gen_recipe_2","table":"recipes","uuid":null,"label":"B","action":"generated","turn_created":1,"turn_last":1,"content":{"name":"B"}},)"
      R"({"ref":"recipe_1","table":"recipes","uuid":"5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88","label":"A","action":"created","turn_created":1,"turn_last":1}]})";
  CHECK(state_text(reg) == after_end);
}

TEST_CASE("end_turn also clears artifacts saved in an earlier turn whose end was missed") {
  ref_registry reg;
  reg.set_turn(1);
  generate(reg, "recipes", R"({"name": "A"})");
  REQUIRE(reg.promote("gen_recipe_1", kSaved, "").ok());
  reg.set_turn(2);  // turn 1 never ended
  reg.end_turn();
  CHECK(state_text(reg).find("\"content\"") == std::string::npos);
}

TEST_CASE("serialized state of the sample registry, exactly") {
  CHECK(
      state_text(sample_registry()) ==
      R"({"format":"alfred-act/registry","version":2,"turn":1,"counters":{"inv":1,"recipe":2},"gen_counters":{"recipe":1},"refs":[)"
      R"({"ref":"recipe_1","table":"recipes","uuid":"c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61","label":"Butter Chicken","action":"read","turn_created":1,"turn_last":1},)"
      R"({"ref":"recipe_2","table":"recipes","uuid":"0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c22","label":"Cod Curry","action":"read","turn_created":1,"turn_last":1},)"
      R"({"ref":"inv_1","table":"inventory","uuid":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51","label":"milk","action":"read","turn_created":1,"turn_last":1},)"
      R"({"ref":"gen_recipe_1","table":"recipes","uuid":null,"label":"Thai Basil Chicken","action":"generated","turn_created":1,"turn_last":1,"content":{"name":"Thai Basil Chicken"}}]})");
  CHECK(state_text(ref_registry()) ==
        R"({"format":"alfred-act/registry","version":2,"turn":0,"counters":{},"gen_counters":{},"refs":[]})");
}

TEST_CASE("regression: generated content with a number beyond a double restores and is written back as written") {
  // JSON by the grammar (JSON.parse reads Infinity); the content is kept as
  // the text it was restored from.
  const std::string state = state_with(
      "{}", R"({"recipe":1})",
      R"({"ref":"gen_recipe_1","table":"recipes","uuid":null,"label":"Big","action":"generated","turn_created":1,"turn_last":1,"content":{"name":"Big","serves":71e999}})");
  auto restored = restore(state);
  REQUIRE(restored.ok());
  CHECK(state_text(*restored) == state);
}

TEST_CASE("regression: a registry at the last turn stays there, so its state still restores") {
  // A state may hold turns up to kMaxTurn; moving on from there wrote a turn
  // restore refuses (found by the long registry_restore_fuzz run).
  ref_registry reg;
  reg.set_turn(kMaxTurn);
  reg.set_turn(reg.turn() + 1);
  CHECK(reg.turn() == kMaxTurn);
  reg.register_row("recipes", "recipe", kSaved, ref_action::read, "Soup");
  reg.end_turn();
  auto again = restore(state_text(reg));
  REQUIRE(again.ok());
  CHECK(again->turn() == kMaxTurn);
  CHECK(again->find("recipe_1")->turn_created == kMaxTurn);
  // Turns still only go forward.
  reg.set_turn(3);
  CHECK(reg.turn() == kMaxTurn);
}

TEST_CASE("state round trip: restore(state) serializes to exactly the same text") {
  ref_registry empty;
  ref_registry sample = sample_registry();
  ref_registry busy = sample_registry();
  busy.set_turn(3);
  REQUIRE(busy.promote("gen_recipe_1", kSaved, "Thai Basil Chicken").ok());
  generate(busy, "recipes", R"({"name": "Pho", "instructions": ["a \"quoted\" step", "日本酒 ✓"], "n": 1.50})");
  busy.register_linked("ingredients", "ing", kOther);
  busy.mark("recipe_2", ref_action::deleted);
  busy.mark("inv_1", ref_action::updated);

  for (const ref_registry* reg : {&empty, &sample, &busy}) {
    const std::string text = state_text(*reg);
    CAPTURE(text);
    auto restored = restore(text);
    REQUIRE(restored.ok());
    CHECK(state_text(*restored) == text);
    CHECK(restored->turn() == reg->turn());
    REQUIRE(restored->entries().size() == reg->entries().size());
  }
}

TEST_CASE("a restored registry resolves aliases and continues its counters") {
  ref_registry reg = sample_registry();
  REQUIRE(reg.promote("gen_recipe_1", kSaved, "").ok());
  auto restored = restore(state_text(reg));
  REQUIRE(restored.ok());
  ref_registry again = std::move(restored).value();
  REQUIRE(again.resolve("gen_recipe_1") != nullptr);
  CHECK(again.resolve("gen_recipe_1")->ref == "recipe_3");
  CHECK(again.find_by_uuid(kSaved)->ref == "recipe_3");
  CHECK(again.find("gen_recipe_1")->saved_as == "recipe_3");
  CHECK(again.register_row("recipes", "recipe", kOther, ref_action::read, "") == "recipe_4");
  CHECK(generate(again, "recipes", R"({"name": "Pho"})") == "gen_recipe_2");
}

TEST_CASE("restore canonicalizes upper-case UUIDs") {
  auto restored =
      restore(state_with(R"({"recipe":1})", "{}", row_ref("recipe_1", "C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61")));
  REQUIRE(restored.ok());
  REQUIRE(restored->find_by_uuid(kRecipe1) != nullptr);
  CHECK(restored->find_by_uuid(kRecipe1)->ref == "recipe_1");
}

TEST_CASE("restore error: not an object, wrong format, missing or unsupported version") {
  check_restore_error("[]", "invalid_state", "", "a registry state must be a JSON object");
  check_restore_error("null", "invalid_state", "", "a registry state must be a JSON object");
  check_restore_error(state_with("{}", "{}", "", R"("format":"alfred/registry","version":1,"turn":1)"), "invalid_state",
                      "format", R"(expected "alfred-act/registry")");
  check_restore_error(state_with("{}", "{}", "", R"("version":1,"turn":1)"), "invalid_state", "format",
                      R"(expected "alfred-act/registry")");
  check_restore_error(state_with("{}", "{}", "", R"("format":"alfred-act/registry","turn":1)"), "invalid_state",
                      "version", "is missing");
  // A state without a format (from another program) is refused, not silently reset.
  check_restore_error(R"({"session_id":"c1","ref_to_uuid":{},"counters":{}})", "invalid_state", "format",
                      R"(expected "alfred-act/registry")");

  auto future = restore(state_with("{}", "{}", "", R"("format":"alfred-act/registry","version":3,"turn":1)"));
  REQUIRE_FALSE(future.ok());
  CHECK(future.err().code == "unsupported_state_version");
  CHECK(future.err().path == "version");
  CHECK(future.err().message == "registry state version 3 is not supported (this build reads 1 to 2)");
  CHECK(future.err().hint == "restore it with the alfred-act version that wrote it");
}

TEST_CASE("restore errors carry the recovery hint") {
  auto restored = restore("[]");
  REQUIRE_FALSE(restored.ok());
  CHECK(restored.err().hint == kHint);
}

TEST_CASE("restore error: turn and counters") {
  check_restore_error(state_with("{}", "{}", "", R"("format":"alfred-act/registry","version":1,"turn":-1)"),
                      "invalid_state", "turn", "must be a non-negative integer");
  check_restore_error(state_with("{}", "{}", "", R"("format":"alfred-act/registry","version":1)"), "invalid_state",
                      "turn", "must be a non-negative integer");
  check_restore_error(state_with("[]", "{}", ""), "invalid_state", "counters", "must be an object");
  check_restore_error(state_with("{}", "null", ""), "invalid_state", "gen_counters", "must be an object");
  check_restore_error(state_with(R"({"recipe":-1})", "{}", ""), "invalid_state", "counters.recipe",
                      "must be a whole number from 0 to 999999999");
  check_restore_error(state_with(R"({"recipe":"2"})", "{}", ""), "invalid_state", "counters.recipe",
                      "must be a whole number from 0 to 999999999");
  check_restore_error(R"({"format":"alfred-act/registry","version":1,"turn":1,"counters":{},"gen_counters":{}})",
                      "invalid_state", "refs", "must be an array");
}

TEST_CASE("restore error: a ref beyond its counter would reuse a number") {
  check_restore_error(state_with(R"({"recipe":1})", "{}", row_ref("recipe_2", kRecipe2)), "invalid_state",
                      "refs[0].ref", "recipe_2 is beyond its counter (a number would be reused)");
  check_restore_error(state_with("{}", "{}", row_ref("recipe_1", kRecipe1)), "invalid_state", "refs[0].ref",
                      "recipe_1 is beyond its counter (a number would be reused)");
  // gen_ refs are checked against gen_counters, not counters.
  check_restore_error(
      state_with(
          R"({"recipe":5})", "{}",
          R"({"ref":"gen_recipe_1","table":"recipes","uuid":null,"label":"","action":"generated","turn_created":1,"turn_last":1})"),
      "invalid_state", "refs[0].ref", "gen_recipe_1 is beyond its counter (a number would be reused)");
}

TEST_CASE("restore error: duplicate ref, duplicate uuid, bad uuid, missing uuid") {
  check_restore_error(
      state_with(R"({"recipe":2})", "{}", row_ref("recipe_1", kRecipe1) + "," + row_ref("recipe_1", kRecipe2)),
      "invalid_state", "refs[1].ref", "recipe_1 appears twice");
  check_restore_error(
      state_with(R"({"recipe":2})", "{}", row_ref("recipe_1", kRecipe1) + "," + row_ref("recipe_2", kRecipe1)),
      "invalid_state", "refs[1].uuid", "this key already has a ref");
  // Case differences do not make a UUID new.
  check_restore_error(
      state_with(R"({"recipe":2})", "{}",
                 row_ref("recipe_1", kRecipe1) + "," + row_ref("recipe_2", "C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61")),
      "invalid_state", "refs[1].uuid", "this key already has a ref");
  check_restore_error(state_with(R"({"recipe":1})", "{}", row_ref("recipe_1", "c69607bb-5d2e-4b8a")), "invalid_state",
                      "refs[0].uuid", "must be a UUID or null");
  check_restore_error(
      state_with(
          R"({"recipe":1})", "{}",
          R"({"ref":"recipe_1","table":"recipes","uuid":null,"label":"","action":"read","turn_created":1,"turn_last":1})"),
      "invalid_state", "refs[0].uuid", "a database ref needs its key (uuid or key)");
}

TEST_CASE("restore error: bad ref name, table, label, action and turns") {
  check_restore_error(state_with(R"({"recipe":1})", "{}", row_ref("Recipe_1", kRecipe1)), "invalid_state",
                      "refs[0].ref", "must be a ref: <prefix>_N or gen_<prefix>_N");
  check_restore_error(state_with(R"({"recipe":1})", "{}", "42"), "invalid_state", "refs[0]", "must be an object");
  check_restore_error(state_with(R"({"recipe":1})", "{}",
                                 R"({"ref":"recipe_1","table":"","uuid":")" + std::string(kRecipe1) +
                                     R"(","label":"","action":"read","turn_created":1,"turn_last":1})"),
                      "invalid_state", "refs[0].table", "must be a table name");
  check_restore_error(state_with(R"({"recipe":1})", "{}",
                                 R"({"ref":"recipe_1","table":"recipes","uuid":")" + std::string(kRecipe1) +
                                     R"(","action":"read","turn_created":1,"turn_last":1})"),
                      "invalid_state", "refs[0].label", "must be a string");
  check_restore_error(state_with(R"({"recipe":1})", "{}",
                                 R"({"ref":"recipe_1","table":"recipes","uuid":")" + std::string(kRecipe1) +
                                     R"(","label":"","action":"viewed","turn_created":1,"turn_last":1})"),
                      "invalid_state", "refs[0].action",
                      "must be one of read, created, updated, deleted, generated, linked");
  check_restore_error(state_with(R"({"recipe":1})", "{}",
                                 R"({"ref":"recipe_1","table":"recipes","uuid":")" + std::string(kRecipe1) +
                                     R"(","label":"","action":"read","turn_last":1})"),
                      "invalid_state", "refs[0].turn_created", "must be a non-negative integer");
}

TEST_CASE("restore error: content only on generated refs - saved gen_ refs must alias a row with the same UUID") {
  check_restore_error(state_with(R"({"recipe":1})", "{}", row_ref("recipe_1", kRecipe1, R"(,"content":{"a":1})")),
                      "invalid_state", "refs[0].content", "only generated refs hold content");
  const std::string gen_saved = R"({"ref":"gen_recipe_1","table":"recipes","uuid":")" + std::string(kSaved) +
                                R"(","label":"","action":"created","turn_created":1,"turn_last":1)";
  // saved_as naming a row with another UUID
  check_restore_error(
      state_with(R"({"recipe":1})", R"({"recipe":1})",
                 gen_saved + R"(,"saved_as":"recipe_1","turn_saved":1},)" + row_ref("recipe_1", kRecipe1)),
      "invalid_state", "refs[0].saved_as", "recipe_1 must name a ref holding the same key");
  // saved_as naming a ref that does not exist
  check_restore_error(
      state_with(R"({"recipe":1})", R"({"recipe":1})",
                 gen_saved + R"(,"saved_as":"recipe_9","turn_saved":1},)" + row_ref("recipe_1", kSaved)),
      "invalid_state", "refs[0].saved_as", "recipe_9 must name a ref holding the same key");
  // saved_as naming itself (a gen_ ref)
  check_restore_error(state_with("{}", R"({"recipe":1})", gen_saved + R"(,"saved_as":"gen_recipe_1","turn_saved":1})"),
                      "invalid_state", "refs[0].saved_as", "gen_recipe_1 must name a ref holding the same key");
  // a gen_ ref with a UUID but no saved_as
  check_restore_error(state_with(R"({"recipe":1})", R"({"recipe":1})", gen_saved + "}," + row_ref("recipe_1", kSaved)),
                      "invalid_state", "refs[0].saved_as", "a saved generated ref must name its saved row");
  // saved_as on a regular ref
  check_restore_error(
      state_with(R"({"recipe":1})", "{}", row_ref("recipe_1", kRecipe1, R"(,"saved_as":"recipe_1","turn_saved":1)")),
      "invalid_state", "refs[0].saved_as", "only saved generated refs have saved_as");
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("a counter restored at the ref-number limit never yields a ref that cannot be restored") {
  const std::string state = state_with(R"({"recipe":999999998})", R"({"recipe":999999999})", "");
  auto restored = restore(state);
  REQUIRE(restored.ok());
  ref_registry reg = std::move(restored).value();
  CHECK(reg.register_row("recipes", "recipe", kRecipe1, ref_action::read, "Butter Chicken") == "recipe_999999999");
  REQUIRE(restore(reg.to_json()).ok());

  SUBCASE("the next row gets no ref: registration says so and changes nothing") {
    const std::string before = reg.to_json();
    CHECK(reg.register_row("recipes", "recipe", kRecipe2, ref_action::read, "Cod Curry").empty());
    CHECK(reg.register_row_index("recipes", "recipe", *parse_uuid_bits(kRecipe2), ref_action::read, "") ==
          ref_registry::npos);
    CHECK(reg.to_json() == before);
    // A known row keeps working, and other prefixes are not affected.
    CHECK(reg.register_row("recipes", "recipe", kRecipe1, ref_action::updated, "") == "recipe_999999999");
    CHECK(reg.register_row("inventory", "inv", kInv1, ref_action::read, "milk") == "inv_1");
    REQUIRE(restore(reg.to_json()).ok());
  }
  SUBCASE("generated refs too") {
    auto gen = reg.register_generated("recipes", "recipe", "{}", "Pho");
    REQUIRE_FALSE(gen.ok());
    CHECK(gen.err().code == "registry_full");
  }
  SUBCASE("row translation stops with registry_full and registers nothing") {
    const std::string before = reg.to_json();
    auto rows = translate_rows(kitchen(), reg, *kitchen().find_table("recipes"),
                               std::string(R"([{"id":")") + kRecipe2 + R"(","name":"Cod Curry"}])", ref_action::read);
    REQUIRE_FALSE(rows.ok());
    CHECK(rows.err().code == "registry_full");
    CHECK(reg.to_json() == before);
  }
}

TEST_CASE("a counter beyond the ref-number limit is refused at restore") {
  check_restore_error(state_with(R"({"recipe":1000000000})", "{}", ""), "invalid_state", "counters.recipe",
                      "must be a whole number from 0 to 999999999");
  check_restore_error(state_with("{}", R"({"recipe":2000000000})", ""), "invalid_state", "gen_counters.recipe",
                      "must be a whole number from 0 to 999999999");
  CHECK(restore(state_with(R"({"recipe":999999999})", "{}", row_ref("recipe_999999999", kRecipe1))).ok());
}

TEST_CASE("labels are capped at 200 code points, cut between characters with an ellipsis") {
  CHECK(capped_label("Butter Chicken") == "Butter Chicken");
  const std::string exact(200, 'a');
  CHECK(capped_label(exact) == exact);
  std::string wide;
  for (int i = 0; i < 200; ++i) wide += "é";  // 200 code points, 400 bytes
  CHECK(capped_label(wide) == wide);
  const std::string capped = capped_label(wide + "x");
  CHECK(capped == wide.substr(0, 199 * 2) + "…");
  CHECK(capped_label(std::string(100000, 'n')) == std::string(199, 'n') + "…");

  ref_registry reg;
  reg.register_row("recipes", "recipe", kRecipe1, ref_action::read, std::string(100000, 'n'));
  CHECK(reg.find("recipe_1")->label == std::string(199, 'n') + "…");
  auto gen = reg.register_generated("recipes", "recipe", "{}", std::string(5000, 'p'));
  REQUIRE(gen.ok());
  CHECK(reg.find(*gen)->label.size() == 199 + std::string("…").size());
  // A save that names the artifact by its whole label still finds it.
  CHECK(reg.find_pending_by_label("recipe", std::string(5000, 'p')) == reg.find(*gen));
  // Restoring an older state with a long label cuts it the same way.
  auto restored =
      restore(state_with(R"({"recipe":1})", "{}",
                         R"({"ref":"recipe_1","table":"recipes","uuid":")" + std::string(kRecipe1) + R"(","label":")" +
                             std::string(300, 'q') + R"(","action":"read","turn_created":1,"turn_last":1})"));
  REQUIRE(restored.ok());
  CHECK(restored->find("recipe_1")->label == std::string(199, 'q') + "…");
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("creates of unknown outcome: their ids are kept in the state, so a retry in a later call reuses them") {
  ref_registry reg = sample_registry();
  const std::string call = R"(["db_create",{"table":"inventory","data":{"name":"milk","quantity":1,"unit":"l"}}])";
  CHECK(reg.uncertain_ids(call) == nullptr);
  reg.remember_uncertain(call, {kInv1});
  reg.remember_uncertain("gen_recipe_1", {kRecipe2});
  const std::string state = reg.to_json();
  CHECK(state.find(R"("uncertain":[{"key":"#)") != std::string::npos);  // the long call kept as a hash
  CHECK(state.find(R"({"key":"gen_recipe_1","ids":[")" + std::string(kRecipe2) + R"("]})") != std::string::npos);
  auto restored = ref_registry::from_json(state);
  REQUIRE(restored.ok());
  REQUIRE(restored->uncertain_ids(call) != nullptr);
  CHECK(*restored->uncertain_ids(call) == std::vector<std::string>{kInv1});
  CHECK(restored->to_json() == state);
  restored->forget_uncertain(call);
  CHECK(restored->uncertain_ids(call) == nullptr);
  // The newest are kept.
  for (std::size_t i = 0; i < kMaxUncertainCreates + 3; ++i)
    reg.remember_uncertain("call " + std::to_string(i), {kInv1});
  CHECK(reg.uncertain_ids(call) == nullptr);
  CHECK(reg.uncertain_ids("call 2") == nullptr);
  CHECK(reg.uncertain_ids("call 3") != nullptr);
  // No uncertain create: the state is as before.
  CHECK(sample_registry().to_json().find("uncertain") == std::string::npos);
  check_restore_error(
      state_with("{}", "{}", "",
                 R"("format":"alfred-act/registry","version":2,"turn":1,"uncertain":[{"key":"k","ids":["x"]}])"),
      "invalid_state", "uncertain[0].ids", "must be a non-empty array of UUIDs");
}

TEST_CASE("tables whose reads the database refused to join are kept in the state") {
  ref_registry reg = sample_registry();
  CHECK_FALSE(reg.refuses_joins("meal_plans"));
  CHECK(reg.to_json().find("joins_refused") == std::string::npos);  // none: the state is as before
  reg.note_refused_joins("meal_plans");
  reg.note_refused_joins("meal_plans");  // once
  reg.note_refused_joins("tasks");
  CHECK(reg.refuses_joins("meal_plans"));
  CHECK_FALSE(reg.refuses_joins("recipes"));
  const std::string state = reg.to_json();
  CHECK(state.find(R"("joins_refused":["meal_plans","tasks"])") != std::string::npos);
  auto restored = ref_registry::from_json(state);
  REQUIRE(restored.ok());
  CHECK(restored->refuses_joins("tasks"));
  CHECK(restored->to_json() == state);
  // The newest are kept.
  for (std::size_t i = 0; i < kMaxJoinsRefused; ++i) reg.note_refused_joins("t" + std::to_string(i));
  CHECK_FALSE(reg.refuses_joins("meal_plans"));
  CHECK(reg.refuses_joins("t0"));
  const std::string head = R"("format":"alfred-act/registry","version":2,"turn":1,"joins_refused":)";
  check_restore_error(state_with("{}", "{}", "", head + "{}"), "invalid_state", "joins_refused",
                      "must be an array of at most 64 table names");
  check_restore_error(state_with("{}", "{}", "", head + R"(["tasks","tasks"])"), "invalid_state", "joins_refused[1]",
                      "must be a table name, each once");
  check_restore_error(state_with("{}", "{}", "", head + R"(["Tasks; drop"])"), "invalid_state", "joins_refused[0]",
                      "must be a table name, each once");
  CHECK(ref_registry::from_json(state_with("{}", "{}", "", head + "null")).ok());
}

}  // namespace alfred::test
