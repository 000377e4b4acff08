#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/ from inputs taken from the
core tests' fixtures (tests/core/*/*_test.cpp). Run it after changing a seed:
python3 tests/fuzz/seeds/make_seeds.py"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(HERE), "corpus")

ALICE = "6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11"
RECIPE1 = "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61"
RECIPE2 = "0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c22"
INV1 = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51"
MILK = "11111111-2222-4333-8444-555555555501"
OAT_MILK = "11111111-2222-4333-8444-555555555502"

# The kitchen domain's tables in core/domains/kitchen.json order: the row
# translator's first byte picks one (and, divided by the count, the action).
TABLES = ["recipes", "recipe_ingredients", "ingredients", "inventory", "shopping_list", "meal_plans", "tasks",
          "preferences", "cooking_log"]

recipe_rows = [
    {"id": RECIPE1, "user_id": ALICE, "name": "Butter Chicken", "cuisine": "indian", "servings": 4,
     "instructions": ["Marinate the chicken.", "Simmer \"slowly\"\n"], "parent_recipe_id": None,
     "embedding": [0.1, 0.2],
     "recipe_ingredients": [
         {"id": "9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a01", "recipe_id": RECIPE1, "name": "chicken thighs",
          "quantity": 800, "unit": "g", "ingredient_id": MILK, "ingredients": {"id": MILK, "family": "dairy"}}]},
    {"id": RECIPE2.upper(), "user_id": ALICE, "name": "Cr\u00e8me br\u00fbl\u00e9e \U0001f36e", "cuisine": None,
     "recipe_ingredients": []},
]
inventory_rows = [
    {"id": "5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c01", "user_id": ALICE, "name": "milk", "quantity": 1.5, "unit": "l",
     "location": "fridge", "expiry_date": "2026-02-11", "ingredient_id": MILK, "unknown": RECIPE1},
    {"id": "not-a-uuid", "name": "eggs", "quantity": 6, "unit": "pcs", "ingredient_id": None},
]
meal_rows = [{"id": "7d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e01", "user_id": ALICE, "date": "2026-02-09",
              "meal_type": "dinner", "recipe_id": RECIPE1, "recipes": {"id": RECIPE1, "name": "Butter Chicken"}}]
preference_rows = [{"id": "8e3f4051-6b7c-4d8e-9fa0-1b2c3d4e5f01", "user_id": ALICE, "allergies": ["peanuts"],
                    "assumed_staples": [MILK, "salt", OAT_MILK], "household_adults": 2}]

def compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

def table_byte(table, action=0):
    return bytes([TABLES.index(table) + action * len(TABLES)])

seeds = {
    "json_reader_fuzz": [
        compact(recipe_rows),
        json.dumps(inventory_rows, indent=2),
        '{"a":[1,-0,1.5e-3,1E+2,true,false,null],"b":"\\u00e9\\ud83c\\udf73\\n\\"\\\\\\/","c":{}}',
        '[9007199254740993, -9223372036854775809, 18446744073709551616, 0.1]',
        '{"dup":1,"dup":2}',
        '"\\u0000 nul"',
    ],
    "tool_call_fuzz": [
        'db_read\n{"table": "recipes", "filters": [{"field": "name", "op": "=", "value": "butter 50%_off"}], "limit": 5}',
        'db_read\n{"table": "inventory", "filters": [{"field": "id", "op": "in", "value": ["inv_1", "recipe_1"]}], '
        '"or_filters": [{"field": "location", "op": "=", "value": "fridge"}, {"field": "expiry_date", "op": "is_null"}],'
        ' "columns": ["name", "quantity"], "order_by": "expiry_date", "order_dir": "desc", "count": "exact"}',
        'db_read\n{"table": "recipes", "columns": ["name", "recipe_ingredients(name,quantity)"], '
        '"filters": [{"field": "tags", "op": "contains", "value": ["quick"]}, {"field": "_semantic", "op": "similar", "value": "spicy"}]}',
        'db_create\n{"table": "recipes", "data": {"id": "gen_recipe_1", "name": "Thai Basil Chicken", "instructions": ["Slice.", "Fry."], "parent_recipe_id": "recipe_1"}}',
        'db_create\n{"table": "shopping_list", "data": [{"name": "eggs", "quantity": 12}, {"name": "milk", "ingredient_id": "ing_1", "notes": null}]}',
        'db_update\n{"table": "inventory", "filters": [{"field": "id", "op": "=", "value": "inv_1"}], "data": {"quantity": 2, "notes": "half \\u00e9"}}',
        'db_update\n{"table": "preferences", "filters": [{"field": "cooking_skill_level", "op": "=", "value": "beginner"}], "data": {"assumed_staples": ["ing_1"]}}',
        'db_delete\n{"table": "tasks", "filters": [{"field": "recipe_id", "op": "not_in", "value": [null, "recipe_3"]}]}',
        'db_delete\n{"table": "meal_plans", "filters": [{"field": "date", "op": "<", "value": "2026-02-01"}]}',
        'db_read\n{"table": "recipes", "filters": [{"field": "name", "op": "search", "value": "\\"red curry\\" -fish or dal", '
        '"mode": "websearch", "language": "english"}], "or_filters": [{"field": "description", "op": "not_search", "value": "x", "mode": "phrase"}]}',
        'db_aggregate\n{"table": "inventory", "filters": [{"field": "location", "op": "=", "value": "fridge"}], "group_by": ["category"], '
        '"metrics": [{"fn": "count"}, {"fn": "sum", "field": "quantity"}, {"fn": "count_distinct", "field": "unit"}], '
        '"order_by": {"metric": 1, "dir": "desc"}, "having": [{"metric": 0, "op": ">=", "value": 2}], "limit": 3, "count": "planned"}',
    ],
    "registry_restore_fuzz": [
        '{"format":"alfred-act/registry","version":1,"turn":0,"counters":{},"gen_counters":{},"refs":[]}',
        '{"format":"alfred-act/registry","version":1,"turn":1,"counters":{"inv":1,"recipe":2},"gen_counters":{"recipe":1},"refs":['
        '{"ref":"recipe_1","table":"recipes","uuid":"c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61","label":"Butter Chicken","action":"read","turn_created":1,"turn_last":1},'
        '{"ref":"recipe_2","table":"recipes","uuid":"0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c22","label":"Cod Curry","action":"read","turn_created":1,"turn_last":1},'
        '{"ref":"inv_1","table":"inventory","uuid":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51","label":"milk","action":"read","turn_created":1,"turn_last":1},'
        '{"ref":"gen_recipe_1","table":"recipes","uuid":null,"label":"Thai Basil Chicken","action":"generated","turn_created":1,"turn_last":1,"content":{"name":"Thai Basil Chicken"}}]}',
        '{"format":"alfred-act/registry","version":1,"turn":3,"counters":{"recipe":7},"gen_counters":{"recipe":2},"refs":['
        '{"ref":"gen_recipe_2","table":"recipes","uuid":"9A8B7C6D-5E4F-4A3B-9C2D-1E0F9A8B7C01","label":"Dal","action":"created","turn_created":2,"turn_last":3,"saved_as":"recipe_7","turn_saved":3},'
        '{"ref":"recipe_7","table":"recipes","uuid":"9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c01","label":"Dal","action":"created","turn_created":3,"turn_last":3}]}',
        '{"format":"alfred-act/registry","version":2,"turn":0,"counters":{},"gen_counters":{},"refs":[]}',
    ],
    "row_translation_fuzz": [
        table_byte("recipes") + compact(recipe_rows).encode(),
        table_byte("inventory", 1) + json.dumps(inventory_rows, indent=1, ensure_ascii=True).encode(),
        table_byte("meal_plans", 2) + compact(meal_rows).encode(),
        table_byte("preferences", 3) + compact(preference_rows[0]).encode(),
        table_byte("recipe_ingredients") + compact(recipe_rows[0]["recipe_ingredients"]).encode(),
        table_byte("tasks") + b'[1,"x",null,{"id":"' + RECIPE1.encode() + b'","title":"t\\u00e9","recipe_id":"recipe_1"}]',
    ],
    "decision_fuzz": [
        '{"action":"tool_call","tool":"db_create","params":{"table":"shopping_list","filters":[],"or_filters":null,'
        '"columns":null,"limit":null,"offset":null,"order_by":null,"order_dir":null,'
        '"data":"[{\\"name\\": \\"eggs\\", \\"quantity\\": 12}]"},"summary":null,"data":null,"note_for_next_step":null,'
        '"question":null,"reason_code":null,"details":null,"suggested_next":null}',
        '```json\n{"action":"ask_user","question":"Which fridge?"}\n```',
        'Sure! {"action":"fail","details":"db down"} Hope that helps.',
        '\ufeff  {"action":"tool_call","tool":"db_update","params":"{\\"table\\":\\"inventory\\",\\"filters\\":[{\\"field\\":\\"id\\",\\"op\\":\\"=\\",\\"value\\":\\"inv_4\\"}],\\"data\\":{\\"quantity\\":2}}"}',
        '{\n  "action": "step_complete",\n  "summary": "ok",\n  "data": "{\\"cookable\\":[\\"recipe_2\\"]}",\n  "note_for_next_step": "inv_1"\n}',
        '{"action":"blocked","reason_code":"insufficient_info","details":"no date given","suggested_next":"ask_user"}',
    ],
    "prompt_input_fuzz": [
        '{"step":{"type":"read","description":"Read the fridge","index":0,"total":2},"user_message":"what\'s in my fridge?","today":"2026-02-09"}',
        compact({
            "step": {"type": "analyze", "description": "Step two of the plan", "index": 1, "total": 3, "subdomain": "recipes"},
            "user_message": "Was kann ich kochen? \U0001f373", "today": "2026-02-09",
            "plan": ["Read Indian recipes", "Step two of the plan", "Reply"],
            "conversation": [{"role": "user", "text": "What's in my fridge?"}, {"role": "assistant", "text": "Milk and eggs."}],
            "previous_steps": [{"index": 0, "type": "read", "description": "Read recipes", "summary": "Found 2",
                                "note": "recipe_1 is the Indian one",
                                "results": [{"tool": "db_read", "table": "recipes", "data": [{"id": "recipe_1", "name": "Butter Chicken", "description": "\u00dcn\u00efc\u00f8d\u00e9 \u2014 \u65e5\u672c\u8a9e " + RECIPE2}],
                                             "error": None, "count": 1,
                                             "query": {"tool": "db_read", "table": "recipes", "requested": {"filters": []}, "effective": None, "notes": ["name matched loosely"], "source": "database", "count": 1}}]}],
            "limits": {"chars_per_value": 20, "rows_per_result": 1},
            "user_profile": {"allergies": ["peanuts"], "household_adults": 2},
            "subdomain_guidance": "Prefers weeknight dishes under 40 minutes.",
        }),
        compact({
            "step": {"type": "write", "description": "Save the recipe"},
            "current_step_results": [{"tool": "db_create", "table": "recipes", "data": {"id": "recipe_3", "name": "Dal"}, "error": None, "count": 1, "query": None}],
            "previous_turns": [{"turn": 1, "steps": [{"index": 0, "type": "generate", "description": "Invent a recipe", "data": {"name": "Dal", "id": "gen_recipe_2"}}]}],
            "templates": {"act/base": "BASE " + RECIPE1 + "\n"},
        }),
        '{"step":{"type":"generate"},"conversation":[{"role":"user","text":"\u041f\u0440\u0438\u0432\u0435\u0442, \u4f60\u597d"}],"limits":{"chars_per_message":3}}',
    ],
    "executor_fuzz": [
        'db_read\n{"table":"recipes","filters":[{"field":"name","op":"=","value":"butter"}],"limit":5}\n%%\n'
        '200\n\napplication/json\n' + compact([{"id": RECIPE1, "user_id": ALICE, "name": "Butter Chicken", "parent_recipe_id": RECIPE2,
                                               "recipe_ingredients": [{"id": "9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a01", "recipe_id": RECIPE1, "name": "ghee", "ingredient_id": OAT_MILK}]}]) +
        '\n%%\n200\n\napplication/json\n' + compact([{"id": OAT_MILK, "name": "oat milk"}]),
        'db_read\n{"table":"inventory","filters":[{"field":"name","op":"=","value":"Milks"}],"count":"exact"}\n%%\n'
        '200\n\napplication/json\n' + compact([{"id": MILK, "name": "milk", "aliases": ["whole milk"]}, {"id": OAT_MILK, "name": "oat milk", "aliases": []}]) +
        '\n%%\n206\n0-0/12\napplication/json\n' + compact([{"id": INV1, "user_id": ALICE, "name": "milk", "quantity": 1, "unit": "l", "ingredient_id": MILK}]),
        'db_read\n{"table":"recipes","filters":[{"field":"_semantic","op":"similar","value":"something warming"}],"limit":2}\n%%\n'
        '200\n\napplication/json\n[0.1,-0.2,3e-2]\n%%\n200\n\napplication/json\n' + compact([{"id": RECIPE2, "distance": 0.2}, {"id": RECIPE1}]) +
        '\n%%\n200\n\napplication/json\n' + compact([{"id": RECIPE1, "name": "Butter Chicken"}, {"id": RECIPE2, "name": "Cod Curry"}]),
        'db_create\n{"table":"recipes","data":{"id":"gen_recipe_1","name":"Thai Basil Chicken","instructions":["Fry."]}}\n%%\n'
        '201\n\napplication/json\n' + compact([{"id": "d1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f51", "user_id": ALICE, "name": "Thai Basil Chicken"}]),
        'db_create\n{"table":"inventory","data":[{"name":"milk","quantity":1,"unit":"l"},{"name":"milk","quantity":2,"unit":"l"}]}\n%%\n'
        '200\n\napplication/json\n' + compact([{"id": MILK, "name": "milk", "aliases": [], "category": "dairy"}]) +
        '\n%%\n409\n\napplication/json\n{"code":"23505","message":"duplicate key value violates unique constraint","details":"Key (id)=(' + INV1 + ') already exists.","hint":null}',
        'db_update\n{"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}],"data":{"quantity":2}}\n%%\n'
        '200\n\napplication/json\n[]',
        'db_delete\n{"table":"tasks","filters":[{"field":"completed","op":"=","value":true}]}\n%%\n'
        '502\n\ntext/html\n<html><body>Bad gateway \u2014 upstream</body></html>',
    ],
    "domain_fuzz": [
        open(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "domains", "kitchen", "domain.json")).read(),
        compact({"name": "notes", "owner_column": "owner", "max_rows": 50, "tables": {
            "notebooks": {"ref": "book", "user_owned": True, "label": ["title"],
                          "relations": {"notes": "notes"},
                          "columns": {"id": {"type": "uuid", "writable": False}, "owner": {"type": "uuid", "writable": False},
                                      "title": {"type": "text", "required": True}}},
            "notes": {"ref": "note", "user_owned": True, "label_format": "{title} [{kind}]", "label": ["title"],
                      "hidden": ["embedding"],
                      "middleware": {"fuzzy": ["title"], "include": ["notebooks(id,title)"],
                                     "semantic": {"rpc": "match_notes", "limit": 5, "max_distance": 0.5}},
                      "columns": {"id": {"type": "uuid", "writable": False}, "owner": {"type": "uuid", "writable": False},
                                  "notebook_id": {"type": "uuid", "references": "notebooks"},
                                  "links": {"type": "uuid[]", "references": "notes"},
                                  "title": {"type": "text"}, "kind": {"type": "text", "values": ["idea", "todo"]},
                                  "tags": {"type": "text[]"}, "extra": {"type": "jsonb"}, "stars": {"type": "integer"},
                                  "score": {"type": "numeric"}, "done": {"type": "boolean"}, "due": {"type": "date"},
                                  "at": {"type": "timestamp"}, "embedding": {"type": "text"}}}}}),
        compact({"tables": {"tags": {"ref": "tag", "writable": False, "label": ["name"],
                                     "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}}}}),
        compact({"tables": {"items": {"ref": "item", "columns": {"id": {"type": "uuid"}, "other_id": {"type": "uuid"}}}}}),
    ],
    "request_options_fuzz": [
        compact({"baseUrl": "http://127.0.0.1:3000", "apiKey": "anon-key", "accessToken": "eyJhbGciOiJIUzI1NiJ9.e30.c2ln",
                 "userId": ALICE}),
        compact({"baseUrl": "https://abcdefgh.supabase.co/rest/v1/", "apiKey": "sb_publishable_abc",
                 "accessToken": "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYXV0aGVudGljYXRlZCJ9.c2ln", "userId": ALICE.upper(),
                 "maxUrlLength": 300}),
        compact({"baseUrl": "http://localhost:54321/rest/v1", "apiKey": "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.c2ln",
                 "userId": ALICE}),
        compact({"baseUrl": "http://db.local", "apiKey": "sb_secret_abc", "userId": None, "fetch": {}}),
        compact({"baseUrl": "ftp://db.local?x=1#y", "accessToken": "a b", "maxUrlLength": 12}),
    ],
    "content_range_fuzz": ["0-24/3573", "*/0", "0-9/*", "", "0-0/9007199254740991", "0-0/9007199254740992",
                           "0-0/00012 \t", "items 0-1/2", "0-1/-2", "/", "0-1/1e3"],
    "db_error_fuzz": [
        '409\n{"code":"23505","message":"duplicate key value violates unique constraint","details":"Key (name)=(milk) already exists.","hint":null}',
        '400\n{"code":"PGRST100","message":"\"failed to parse filter (eq)\" (line 1, column 4)","details":"unexpected end of input expecting digit","hint":null}',
        '404\n{"code":"PGRST205","message":"Could not find the table \'public.recipe\' in the schema cache","details":null,"hint":"Perhaps you meant the table \'public.recipes\'"}',
        '502\n<html><body>Bad gateway \u2014 upstream</body></html>',
        '0\nfetch failed: connect ECONNREFUSED 127.0.0.1:3000',
        '401\n{"code":"PGRST301","message":"JWT expired"}',
        '503\n' + "\u00e9" * 200,
    ],
}

for target, inputs in seeds.items():
    folder = os.path.join(CORPUS, target)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for i, text in enumerate(inputs):
        data = text if isinstance(text, bytes) else text.encode()
        with open(os.path.join(folder, f"seed-{i + 1:02d}"), "wb") as f:
            f.write(data)
