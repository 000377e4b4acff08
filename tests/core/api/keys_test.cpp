// Keys of every type, owners named per table, read scope and `me`: a chat
// app shaped as Supabase apps are built (bigint identity keys, a profiles
// table keyed by auth.users, a join table with a composite key, a text key,
// owner columns named differently per table), not as the kitchen is.
#include <doctest/doctest.h>

#include "../support.h"
#include "alfred/api/api.h"
#include "alfred/domain/domain.h"
#include "alfred/postgrest/request.h"
#include "alfred/prompt/tool_schema.h"
#include "alfred/registry/registry.h"
#include "alfred/rows/row_translation.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::test {
namespace {

constexpr const char* kBob = "0b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f";

constexpr std::string_view kChat = R"({
  "name": "chat",
  "tables": {
    "profiles": {"ref": "profile", "owner": "id", "label": ["username"], "columns": {
      "id": {"type": "uuid", "writable": false, "nullable": false},
      "username": {"type": "text"}}},
    "channels": {"ref": "chan", "owner": "created_by", "label": ["slug"], "columns": {
      "id": {"type": "integer", "writable": false, "nullable": false},
      "slug": {"type": "text", "required": true},
      "created_by": {"type": "uuid", "writable": false, "references": "profiles"}}},
    "messages": {"ref": "msg", "owner": "user_id", "label": ["message"], "columns": {
      "id": {"type": "integer", "writable": false, "nullable": false},
      "message": {"type": "text"},
      "user_id": {"type": "uuid", "writable": false, "nullable": false, "references": "profiles"},
      "channel_id": {"type": "integer", "references": "channels", "required": true}}},
    "channel_members": {"ref": "member", "key": ["channel_id", "user_id"], "columns": {
      "channel_id": {"type": "integer", "references": "channels", "required": true, "nullable": false},
      "user_id": {"type": "uuid", "references": "profiles", "required": true, "nullable": false}}},
    "countries": {"ref": "country", "key": "code", "writable": false, "label": ["name"], "columns": {
      "code": {"type": "text", "writable": false},
      "name": {"type": "text"}}},
    "todos": {"ref": "todo", "owner": "user_id", "scope": "owner", "label": ["task"], "columns": {
      "id": {"type": "integer", "writable": false, "nullable": false},
      "task": {"type": "text"},
      "country": {"type": "text", "references": "countries"},
      "user_id": {"type": "uuid", "writable": false, "references": "auth.users"}}},
    "notes": {"ref": "note", "label": ["body"], "columns": {
      "id": {"type": "uuid", "writable": false, "nullable": false},
      "body": {"type": "text"},
      "assigned_to": {"type": "uuid", "references": "auth.users"}}}
  }
})";

const domain& chat() {
  static const domain dom = [] {
    auto loaded = parse_domain(kChat);
    if (!loaded) {
      INFO(loaded.err().path << ": " << loaded.err().message);
      REQUIRE(loaded.ok());
    }
    return std::move(loaded).value();
  }();
  return dom;
}

request_options alice() { return alice_options(); }

http_request chat_request(std::string_view tool, std::string_view params, const ref_registry& reg,
                          const request_options& opts = alice()) {
  auto req = build_request(chat(), reg, tool, params, opts);
  if (!req.ok()) {
    INFO(req.err().code << " @ " << req.err().path << ": " << req.err().message);
    REQUIRE(req.ok());
  }
  return std::move(req).value();
}

error chat_error(std::string_view tool, std::string_view params, const ref_registry& reg,
                 const request_options& opts = alice()) {
  auto req = build_request(chat(), reg, tool, params, opts);
  REQUIRE_FALSE(req.ok());
  return req.err();
}

std::string chat_rows(ref_registry& reg, std::string_view table_name, std::string_view rows,
                      ref_action action = ref_action::read) {
  auto out = translate_rows(chat(), reg, *chat().find_table(table_name), rows, action, kAlice);
  if (!out.ok()) {
    INFO(out.err().message);
    REQUIRE(out.ok());
  }
  return std::move(out).value();
}

std::string query_of(const http_request& req) {
  std::string out;
  for (const auto& [key, value] : decoded_query(req.url)) out += key + "=" + value + "\n";
  return out;
}

// Two messages in channel 1 (bigint ids, one past 2^53), the first Alice's.
ref_registry with_messages() {
  ref_registry reg;
  chat_rows(reg, "messages",
            std::string(R"([{"id": 9007199254740993, "message": "hi", "user_id": ")") + kAlice +
                R"(", "channel_id": 1}, {"id": 2, "message": "yo", "user_id": ")" + kBob + R"(", "channel_id": 1}])");
  return reg;
}

}  // namespace

TEST_CASE("keys: each table's key, owner and scope as the domain declares them") {
  const domain& dom = chat();
  CHECK(dom.find_table("profiles")->key_column()->type == column_type::uuid);
  CHECK(dom.find_table("profiles")->owner == "id");
  CHECK(dom.find_table("messages")->key_column()->type == column_type::integer);
  CHECK(dom.find_table("messages")->owner == "user_id");
  CHECK_FALSE(dom.find_table("messages")->owner_scoped);
  CHECK(dom.find_table("todos")->owner_scoped);
  CHECK(dom.find_table("channel_members")->key == std::vector<std::string>{"channel_id", "user_id"});
  CHECK(dom.find_table("channel_members")->key_column() == nullptr);
  CHECK(dom.find_table("countries")->key_column()->name == "code");
  CHECK(dom.find_table("todos")->find_column("user_id")->user_id);
  CHECK(dom.find_table("notes")->find_column("assigned_to")->user_id);
}

TEST_CASE("keys: a table without a key is read-only, a key of another type or a missing owner is refused") {
  auto view = parse_domain(R"({"tables": {"totals": {"ref": "total", "columns": {"n": {"type": "integer"}}}}})");
  REQUIRE(view.ok());
  CHECK(view->tables[0].key.empty());
  CHECK_FALSE(view->tables[0].writable);
  auto written = parse_domain(
      R"({"tables": {"totals": {"ref": "total", "writable": true, "columns": {"n": {"type": "integer"}}}}})");
  REQUIRE_FALSE(written.ok());
  CHECK(written.err().path == "tables.totals.writable");
  auto scoped =
      parse_domain(R"({"tables": {"t": {"ref": "t", "scope": "owner", "columns": {"id": {"type": "integer"}}}}})");
  REQUIRE_FALSE(scoped.ok());
  CHECK(scoped.err().path == "tables.t.scope");
  auto bad_scope =
      parse_domain(R"({"tables": {"t": {"ref": "t", "scope": "mine", "columns": {"id": {"type": "integer"}}}}})");
  REQUIRE_FALSE(bad_scope.ok());
  CHECK(bad_scope.err().path == "tables.t.scope");
  auto composite_target = parse_domain(R"({"tables": {
    "pairs": {"ref": "pair", "key": ["a", "b"], "columns": {"a": {"type": "integer"}, "b": {"type": "integer"}}},
    "uses": {"ref": "use", "columns": {"id": {"type": "integer"}, "pair": {"type": "integer", "references": "pairs"}}}}})");
  REQUIRE_FALSE(composite_target.ok());
  CHECK(composite_target.err().path == "tables.uses.columns.pair");
  CHECK(composite_target.err().message == "references pairs, whose key is not one column");
}

TEST_CASE("keys: bigint ids become refs with every digit kept, the user's own id is me, foreign keys of any type") {
  ref_registry reg;
  const std::string rows = chat_rows(reg, "messages",
                                     std::string(R"([{"id": 9007199254740993, "message": "hi", "user_id": ")") +
                                         kAlice + R"(", "channel_id": 1}, {"id": 2, "message": "yo", "user_id": ")" +
                                         kBob + R"(", "channel_id": 1}])");
  CHECK(rows == R"([{"id":"msg_1","message":"hi","user_id":"me","channel_id":"chan_1"},)"
                R"({"id":"msg_2","message":"yo","user_id":"profile_1","channel_id":"chan_1"}])");
  REQUIRE(reg.find("msg_1") != nullptr);
  CHECK(reg.find("msg_1")->key == "9007199254740993");
  CHECK_FALSE(reg.find("msg_1")->uuid_key);
  CHECK(reg.find("chan_1")->key == "1");
  CHECK(reg.find("profile_1")->key == kBob);
  CHECK(reg.find("profile_1")->uuid_key);
  // The same number in another table is another row.
  CHECK(reg.find_by_key("msg", "1") == nullptr);
  CHECK(reg.find_by_key("chan", "1") == reg.find("chan_1"));
  // Seen again: the same refs.
  CHECK(chat_rows(reg, "messages", R"([{"id": 2, "message": "yo!", "channel_id": 1}])") ==
        R"([{"id":"msg_2","message":"yo!","channel_id":"chan_1"}])");
  // A number that is no integer, or a string of digits, where a bigint key belongs.
  CHECK(chat_rows(reg, "messages", R"([{"id": 1.5, "message": "x"}, {"id": "12", "message": "y"}])") ==
        R"([{"message":"x"},{"id":"msg_3","message":"y"}])");
  CHECK(reg.find("msg_3")->key == "12");
}

TEST_CASE("keys: label embeds join a composite key's foreign keys, and the user's own row stays me") {
  auto selects = [](std::string_view table_name) {
    std::string out;
    for (const auto& embed : label_embeds(chat(), *chat().find_table(table_name), {}))
      out += (out.empty() ? "" : ",") + embed.select;
    return out;
  };
  // A join table's key columns are foreign keys with labels to bring.
  CHECK(selects("channel_members") == "_label_channel_id:channel_id(slug),_label_user_id:user_id(username)");
  CHECK(selects("todos") == "_label_country:country(name)");
  // profiles' key is its owner's id: a profile's own key is no foreign key to bring.
  CHECK(selects("profiles").empty());

  ref_registry reg;
  const auto embeds = label_embeds(chat(), *chat().find_table("messages"), {});
  REQUIRE(apply_embedded_labels(reg, embeds,
                                std::string(R"([{"id": 1, "user_id": ")") + kAlice +
                                    R"(", "channel_id": 7, "_label_user_id": {"username": "alice"},)"
                                    R"( "_label_channel_id": {"slug": "general"}},)"
                                    R"({"id": 2, "user_id": ")" +
                                    kBob + R"(", "_label_user_id": {"username": "bob"}}])",
                                kAlice)
              .ok());
  // Bob's profile and the channel get refs with labels; Alice's own stays me (no ref of its own).
  CHECK(reg.find_by_uuid(kAlice, "profile") == nullptr);
  REQUIRE(reg.find_by_uuid(kBob, "profile") != nullptr);
  CHECK(reg.find_by_uuid(kBob, "profile")->label == "bob");
  REQUIRE(reg.find_by_key("chan", "7") != nullptr);
  CHECK(reg.find_by_key("chan", "7")->label == "general");
}

TEST_CASE("keys: refs of bigint rows go back as numbers, every digit kept, raw ids are refused") {
  ref_registry reg = with_messages();
  const http_request read = chat_request("db_read", R"({"table": "messages", "filters": [
      {"field": "id", "op": "in", "value": ["msg_1", "msg_2"]}, {"field": "channel_id", "op": "=", "value": "chan_1"}]})",
                                         reg);
  // RLS decides what a user may read: no owner filter on messages.
  CHECK(query_of(read) == "select=*\nid=in.(9007199254740993,2)\nchannel_id=eq.1\n");
  const error number = chat_error("db_read", R"({"table": "messages", "filters": [
      {"field": "id", "op": "=", "value": 9007199254740993}]})",
                                  reg);
  CHECK(number.code == "raw_id");
  CHECK(number.path == "filters[0].value");
  CHECK(number.message == "id takes a ref, not the number 9007199254740993; that row is msg_1 (hi)");
  CHECK(number.hint == "use the ref msg_1");
  const error digits =
      chat_error("db_create", R"({"table": "messages", "data": {"message": "a", "channel_id": "7"}})", reg);
  CHECK(digits.code == "raw_id");
  CHECK(digits.path == "data.channel_id");
  CHECK(digits.hint == "known chan refs: chan_1");
  const error uuid = chat_error("db_read",
                                std::string(R"({"table": "messages", "filters": [
      {"field": "user_id", "op": "=", "value": ")") +
                                    kBob + R"("}]})",
                                reg);
  CHECK(uuid.code == "raw_id");
  CHECK(uuid.hint == "use the ref profile_1");
}

TEST_CASE("keys: me is the signed-in user in filters and is never a UUID the model writes") {
  ref_registry reg = with_messages();
  const http_request mine = chat_request(
      "db_read", R"({"table": "messages", "filters": [{"field": "user_id", "op": "=", "value": "me"}]})", reg);
  CHECK(query_of(mine) == std::string("select=*\nuser_id=eq.") + kAlice + "\n");
  const http_request others = chat_request(
      "db_read", R"({"table": "messages", "filters": [{"field": "user_id", "op": "!=", "value": "me"}]})", reg);
  CHECK(query_of(others) == std::string("select=*\nuser_id=neq.") + kAlice + "\n");
  const http_request own_profile =
      chat_request("db_read", R"({"table": "profiles", "filters": [{"field": "id", "op": "=", "value": "me"}]})", reg);
  CHECK(query_of(own_profile) == std::string("select=*\nid=eq.") + kAlice + "\n");
  // me names a user, not a channel.
  const error not_a_user = chat_error(
      "db_read", R"({"table": "messages", "filters": [{"field": "channel_id", "op": "=", "value": "me"}]})", reg);
  CHECK(not_a_user.code == "invalid_value");
  CHECK(not_a_user.message == "me is the signed-in user, and channel_id does not hold user ids");
  // Nobody signed in: me stands for nobody.
  request_options anon = alice();
  anon.user_id.clear();
  const error nobody = chat_error(
      "db_read", R"({"table": "messages", "filters": [{"field": "user_id", "op": "=", "value": "me"}]})", reg, anon);
  CHECK(nobody.code == "not_signed_in");
  // A user id column (auth.users) takes me only.
  const http_request assigned = chat_request(
      "db_read", R"({"table": "notes", "filters": [{"field": "assigned_to", "op": "=", "value": "me"}]})", reg);
  CHECK(query_of(assigned) == std::string("select=*\nassigned_to=eq.") + kAlice + "\n");
  const error pasted = chat_error("db_read",
                                  std::string(R"({"table": "notes", "filters": [
      {"field": "assigned_to", "op": "=", "value": ")") +
                                      kBob + R"("}]})",
                                  reg);
  CHECK(pasted.code == "raw_id");
  // Another user by their ref: the profile the domain has for user ids.
  reg.register_row("profiles", "profile", kBob, ref_action::read, "bob");
  const http_request bobs = chat_request(
      "db_read", R"({"table": "notes", "filters": [{"field": "assigned_to", "op": "=", "value": "profile_1"}]})", reg);
  CHECK(query_of(bobs) == std::string("select=*\nassigned_to=eq.") + kBob + "\n");
  const error by_name = chat_error(
      "db_read", R"({"table": "notes", "filters": [{"field": "assigned_to", "op": "=", "value": "bob"}]})", reg);
  CHECK(by_name.code == "not_a_ref");
  CHECK(by_name.hint == "use the ref profile_1");
}

TEST_CASE("keys: rows show me for the user's own id, another user's id as the ref of their profile") {
  ref_registry reg;
  CHECK(chat_rows(reg, "profiles",
                  std::string(R"([{"id": ")") + kAlice + R"(", "username": "alice"}, {"id": ")" + kBob +
                      R"(", "username": "bob"}])") ==
        R"([{"id":"me","username":"alice"},{"id":"profile_1","username":"bob"}])");
  CHECK(reg.find("profile_1")->label == "bob");
  const std::string notes =
      chat_rows(reg, "notes",
                std::string(R"([{"id": "5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88", "body": "a", "assigned_to": ")") +
                    kAlice + R"("}, {"id": "7e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b", "body": "b", "assigned_to": ")" +
                    kBob + R"("}, {"id": "2f4e6a8c-1b3d-4f5a-9c7e-0d2b4f6a8c10", "body": "c", "assigned_to": null}])");
  CHECK(notes ==
        R"([{"id":"note_1","body":"a","assigned_to":"me"},{"id":"note_2","body":"b","assigned_to":"profile_1",)"
        R"("_assigned_to_label":"bob"},{"id":"note_3","body":"c","assigned_to":null}])");
  CHECK(notes.find(kBob) == std::string::npos);
}

TEST_CASE("keys: creates set each table's own owner column, the key the database assigns is left out") {
  ref_registry reg = with_messages();
  const http_request create =
      chat_request("db_create", R"({"table": "messages", "data": {"message": "hello", "channel_id": "chan_1"}})", reg);
  CHECK(*create.body == std::string(R"({"message":"hello","channel_id":1,"user_id":")") + kAlice + "\"}");
  const http_request channel = chat_request("db_create", R"({"table": "channels", "data": {"slug": "random"}})", reg);
  CHECK(*channel.body == std::string(R"({"slug":"random","created_by":")") + kAlice + "\"}");
  const http_request profile =
      chat_request("db_create", R"({"table": "profiles", "data": {"username": "alice"}})", reg);
  CHECK(*profile.body == std::string(R"({"username":"alice","id":")") + kAlice + "\"}");
  const error owner = chat_error(
      "db_create", R"({"table": "messages", "data": {"message": "x", "channel_id": "chan_1", "user_id": "me"}})", reg);
  CHECK(owner.code == "system_column");
  const error id = chat_error(
      "db_create", R"({"table": "messages", "data": {"id": 5, "message": "x", "channel_id": "chan_1"}})", reg);
  CHECK(id.code == "system_column");
}

TEST_CASE("keys: an owner-scoped table filters every read and write to the user, and hides the owner") {
  ref_registry reg;
  CHECK(chat_rows(reg, "todos",
                  std::string(R"([{"id": 3, "task": "buy milk", "country": "fr", "user_id": ")") + kAlice + R"("}])") ==
        R"([{"id":"todo_1","task":"buy milk","country":"country_1"}])");
  const http_request read = chat_request("db_read", R"({"table": "todos"})", reg);
  CHECK(query_of(read) == std::string("select=*\nuser_id=eq.") + kAlice + "\n");
  const http_request remove = chat_request(
      "db_delete", R"({"table": "todos", "filters": [{"field": "id", "op": "=", "value": "todo_1"}]})", reg);
  CHECK(query_of(remove) == std::string("user_id=eq.") + kAlice + "\nid=eq.3\nselect=*\n");
}

TEST_CASE("keys: text keys are refs too, quoted where PostgREST needs it") {
  ref_registry reg;
  CHECK(chat_rows(reg, "countries", R"([{"code": "fr", "name": "France"}, {"code": "a,b", "name": "Odd"}])") ==
        R"([{"code":"country_1","name":"France"},{"code":"country_2","name":"Odd"}])");
  const http_request read = chat_request(
      "db_read",
      R"({"table": "countries", "filters": [{"field": "code", "op": "in", "value": ["country_1", "country_2"]}]})",
      reg);
  CHECK(query_of(read) == "select=*\ncode=in.(fr,\"a,b\")\n");
  const error raw =
      chat_error("db_read", R"({"table": "todos", "filters": [{"field": "country", "op": "=", "value": "fr"}]})", reg);
  CHECK(raw.code == "raw_id");
  CHECK(raw.hint == "use the ref country_1");
}

TEST_CASE("keys: a composite key's rows are named by their columns, foreign keys as refs") {
  ref_registry reg = with_messages();
  const std::string rows = chat_rows(reg, "channel_members",
                                     std::string(R"([{"channel_id": 1, "user_id": ")") + kAlice +
                                         R"("}, {"channel_id": 1, "user_id": ")" + kBob + R"("}])");
  CHECK(rows == R"([{"channel_id":"chan_1","user_id":"me"},{"channel_id":"chan_1","user_id":"profile_1"}])");
  const http_request read = chat_request("db_read", R"({"table": "channel_members", "columns": ["user_id"]})", reg);
  CHECK(query_of(read) == "select=channel_id,user_id\n");
  const http_request join = chat_request(
      "db_create", R"({"table": "channel_members", "data": {"channel_id": "chan_1", "user_id": "me"}})", reg);
  CHECK(*join.body == std::string(R"({"channel_id":1,"user_id":")") + kAlice + "\"}");
  const http_request leave = chat_request("db_delete", R"({"table": "channel_members", "filters": [
      {"field": "channel_id", "op": "=", "value": "chan_1"}, {"field": "user_id", "op": "=", "value": "me"}]})",
                                          reg);
  CHECK(query_of(leave) == std::string("channel_id=eq.1\nuser_id=eq.") + kAlice + "\nselect=*\n");
  const error move = chat_error("db_update", R"({"table": "channel_members", "data": {"channel_id": "chan_1"},
      "filters": [{"field": "user_id", "op": "=", "value": "me"}]})",
                                reg);
  CHECK(move.code == "system_column");
}

TEST_CASE("keys: label lookups select the key of the target table") {
  CHECK(label_select(*chat().find_table("channels")) == "id,slug");
  CHECK(label_select(*chat().find_table("countries")) == "code,name");
  ref_registry reg;
  auto missing =
      unlabeled_references(chat(), reg, *chat().find_table("messages"),
                           std::string(R"([{"id": 1, "channel_id": 4, "user_id": ")") + kAlice + R"("}])", kAlice);
  REQUIRE(missing.ok());
  REQUIRE(missing->size() == 1);  // me needs no label
  CHECK((*missing)[0].target->name == "channels");
  CHECK((*missing)[0].keys == std::vector<std::string>{"4"});
  REQUIRE(apply_labels(chat(), reg, *chat().find_table("channels"), R"([{"id": 4, "slug": "general"}])").ok());
  CHECK(chat_rows(reg, "messages", R"([{"id": 1, "channel_id": 4}])") ==
        R"([{"id":"msg_1","channel_id":"chan_1","_channel_id_label":"general"}])");
}

TEST_CASE("keys: registry state keeps non-UUID keys (version 2) and still restores version 1") {
  ref_registry reg = with_messages();
  const std::string state = reg.to_json();
  CHECK(state.find(R"("ref":"msg_1","table":"messages","key":"9007199254740993")") != std::string::npos);
  CHECK(state.find(std::string(R"("ref":"profile_1","table":"profiles","uuid":")") + kBob) != std::string::npos);
  auto restored = ref_registry::from_json(state);
  REQUIRE(restored.ok());
  CHECK(restored->to_json() == state);
  CHECK(restored->find_by_key("msg", "9007199254740993") == restored->find("msg_1"));
  auto v1 = ref_registry::from_json(
      std::string(R"({"format":"alfred-act/registry","version":1,"turn":1,"counters":{"recipe":1},"gen_counters":{},)"
                  R"("refs":[{"ref":"recipe_1","table":"recipes","uuid":")") +
      kRecipe1 + R"(","label":"Butter Chicken","action":"read","turn_created":1,"turn_last":1}]})");
  REQUIRE(v1.ok());
  CHECK(v1->find_by_uuid(kRecipe1) == v1->find("recipe_1"));
  auto twice = ref_registry::from_json(
      R"({"format":"alfred-act/registry","version":2,"turn":1,"counters":{"msg":2},"gen_counters":{},"refs":[)"
      R"({"ref":"msg_1","table":"messages","key":"7","label":"","action":"read","turn_created":1,"turn_last":1},)"
      R"({"ref":"msg_2","table":"messages","key":"7","label":"","action":"read","turn_created":1,"turn_last":1}]})");
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.err().path == "refs[1].key");
  CHECK(twice.err().message == "this key already has a ref");
}

TEST_CASE("keys: a saved artifact of a bigint table is promoted to the row the database numbered") {
  ref_registry reg;
  auto gen = reg.register_generated("channels", "chan", R"({"slug":"plans"})", "plans");
  REQUIRE(gen.ok());
  auto saved = reg.promote(*gen, "41", "plans", column_type::integer);
  REQUIRE(saved.ok());
  CHECK(*saved == "chan_1");
  CHECK(reg.resolve(*gen)->key == "41");
  CHECK_FALSE(reg.promote("gen_chan_9", "x", "", column_type::integer).ok());
  auto other = reg.register_generated("channels", "chan", R"({"slug":"b"})", "b");
  REQUIRE(other.ok());
  CHECK(reg.promote(*other, "4.5", "", column_type::integer).err().code == "invalid_uuid");
}

TEST_CASE("keys: tool schemas and the schema text of a chat domain name no kitchen table or column") {
  std::string text = tool_definitions_json(chat(), {});
  text += api::schema_description(chat());
  text += api::prompt_examples(chat());
  for (const char* word : {"recipe", "ingredient", "inventory", "shopping", "meal_plan", "pantry", "cooking"}) {
    CAPTURE(word);
    CHECK(text.find(word) == std::string::npos);
  }
  CHECK(text.find("me for your own row") != std::string::npos);
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("regression: a uuid column without references as a row value is refused, never dereferenced") {
  // It once loaded (named like the domain's owner column on a table without
  // an owner) and a create holding it dereferenced a null target table.
  auto leaky = parse_domain(
      R"({"owner_column": "user_id", "tables": {"things": {"ref": "thing", "columns": {"id": {"type": "uuid"},
      "user_id": {"type": "uuid"}, "name": {"type": "text"}}}}})");
  REQUIRE_FALSE(leaky.ok());
  CHECK(leaky.err().path == "tables.things.columns.user_id");
  // User-id columns (an owner without references, auth.users) as row values.
  auto users = parse_domain(
      R"({"tables": {"things": {"ref": "thing", "owner": "user_id", "columns": {"id": {"type": "integer", "writable": false},
      "user_id": {"type": "uuid", "writable": false}, "helper": {"type": "uuid", "references": "auth.users"},
      "name": {"type": "text"}}}}})");
  REQUIRE(users.ok());
  ref_registry reg;
  auto me = build_request(*users, reg, "db_create", R"({"table": "things", "data": {"name": "a", "helper": "me"}})",
                          alice_options());
  REQUIRE(me.ok());
  CHECK(*me->body == std::string(R"({"name":"a","helper":")") + kAlice + R"(","user_id":")" + kAlice + "\"}");
  auto other = build_request(*users, reg, "db_create", R"({"table": "things", "data": {"name": "a", "helper": "bob"}})",
                             alice_options());
  REQUIRE_FALSE(other.ok());
  CHECK(other.err().code == "not_a_ref");
  CHECK(other.err().path == "data.helper");
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("keys: a text key the model chooses is written as text when creating, and is a ref everywhere else") {
  auto tags = parse_domain(R"({"tables": {"tags": {"ref": "tag", "key": "slug", "label": ["title"], "columns": {
      "slug": {"type": "text", "required": true}, "title": {"type": "text"}}}}})");
  REQUIRE(tags.ok());
  ref_registry reg;
  auto create =
      build_request(*tags, reg, "db_create",
                    R"({"table": "tags", "data": {"slug": "weeknight", "title": "Weeknight"}})", alice_options());
  REQUIRE(create.ok());
  CHECK(*create->body == R"({"slug":"weeknight","title":"Weeknight"})");
  REQUIRE(translate_rows(*tags, reg, tags->tables[0], R"([{"slug": "weeknight", "title": "Weeknight"}])",
                         ref_action::created)
              .ok());
  auto read = build_request(*tags, reg, "db_read",
                            R"({"table": "tags", "filters": [{"field": "slug", "op": "=", "value": "tag_1"}]})",
                            alice_options());
  REQUIRE(read.ok());
  CHECK(read->url == "http://127.0.0.1:3000/tags?select=%2A&slug=eq.weeknight");
  auto rename = build_request(
      *tags, reg, "db_update",
      R"({"table": "tags", "data": {"slug": "x"}, "filters": [{"field": "slug", "op": "=", "value": "tag_1"}]})",
      alice_options());
  REQUIRE_FALSE(rename.ok());
  CHECK(rename.err().code == "system_column");
}

}  // namespace alfred::test
