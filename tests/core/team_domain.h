#pragma once
// A team app's domain, shaped as basejump-based apps are (docs/functions.md):
// projects belong to accounts the API does not expose, reached through
// functions; a document table searched by meaning through a function; a
// mix of functions that read and write, returning rows, values, JSON and
// nothing. Shared by the tests of functions across the subsystems.

#include <string>

#include "support.h"

namespace alfred::test {

inline constexpr const char* kTeamDomain = R"json({
  "name": "teams",
  "tables": {
    "accounts": {"ref": "account", "exposed": false, "label": ["name"],
      "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}},
    "projects": {"ref": "project", "label": ["name"],
      "columns": {
        "id": {"type": "uuid", "writable": false},
        "account_id": {"type": "uuid", "required": true, "references": "accounts"},
        "name": {"type": "text", "required": true},
        "status": {"type": "text", "values": ["active", "archived"]},
        "created_by": {"type": "uuid", "references": "auth.users", "writable": false}
      }},
    "tickets": {"ref": "ticket", "label": ["title"],
      "columns": {
        "id": {"type": "integer", "writable": false},
        "project_id": {"type": "uuid", "required": true, "references": "projects"},
        "title": {"type": "text", "required": true}
      }},
    "documents": {"ref": "doc", "label": ["title"], "hidden": ["embedding"],
      "columns": {
        "id": {"type": "uuid", "writable": false},
        "title": {"type": "text"},
        "embedding": {"type": "text"}
      }}
  },
  "functions": {
    "get_accounts": {"description": "The teams the signed-in user belongs to.\nOne row per team.", "read": true,
      "returns": {"type": "json"}},
    "archive_project": {"description": "Archives a project instead of deleting it.",
      "args": {"project_id": {"type": "uuid", "required": true, "references": "projects"}},
      "returns": {"table": "projects"}},
    "count_open_tickets": {"read": true,
      "args": {"project_id": {"type": "uuid", "required": true, "references": "projects"},
               "status": {"type": "text", "values": ["open", "closed"], "description": "Which tickets."},
               "limit": {"type": "integer"}},
      "returns": {"type": "integer"}},
    "match_documents": {"read": true,
      "args": {"query_embedding": {"type": "vector", "required": true}, "match_count": {"type": "integer"}},
      "returns": {"table": "documents", "set": true}},
    "create_account": {"args": {"name": {"type": "text", "required": true}, "slug": {"type": "text"}},
      "returns": {"type": "json"}},
    "current_account": {"read": true, "args": {"account_id": {"type": "uuid", "required": true, "references": "accounts"}},
      "returns": {"type": "uuid", "references": "accounts"}},
    "project_tags": {"read": true, "args": {"tags": {"type": "text[]"}, "owner": {"type": "uuid", "references": "auth.users"}},
      "returns": {"type": "text", "set": true}},
    "touch": {"returns": {"type": "void"}}
  }
})json";

inline constexpr const char* kAccountAcme = "5b0c2f1e-7a3d-4c8e-9f10-112233445566";
inline constexpr const char* kAccountBeta = "6c1d3a2f-8b4e-4d9f-8a21-223344556677";
inline constexpr const char* kProjectOne = "7d2e4b3a-9c5f-4ea0-9b32-334455667788";

inline const domain& team() {
  static const domain dom = [] {
    auto parsed = parse_domain(kTeamDomain);
    if (!parsed) FAIL(parsed.err().path << ": " << parsed.err().message);
    return std::move(parsed).value();
  }();
  return dom;
}

/// account_1 (Acme), project_1 (Apollo).
inline ref_registry team_registry() {
  ref_registry reg;
  reg.set_turn(1);
  reg.register_row("accounts", "account", kAccountAcme, ref_action::linked, "Acme");
  reg.register_row("projects", "project", kProjectOne, ref_action::read, "Apollo");
  return reg;
}

}  // namespace alfred::test
