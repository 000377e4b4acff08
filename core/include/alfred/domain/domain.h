#pragma once
/// A domain is configuration, not code: its tables, their keys, columns and
/// types, each table's owner column and read scope, foreign keys, ref
/// prefixes and label rules. The kitchen domain is
/// `domains/kitchen/domain.json`; a second domain needs a second JSON file
/// and no C++ change (docs/keys-and-owners.md).
///
///     auto dom = parse_domain(config_json);  // result<domain>; invalid_domain with a path into the JSON
///     if (!dom) return dom.err();
///     const table* recipes = dom->find_table("recipes");
///
/// A domain owns its configuration (parse_domain copies what it keeps from
/// the JSON text). Tables and columns found here, tool calls, label lookups
/// and executions point into it: it must outlive them and not change while
/// they live. Nothing changes a loaded domain, so one may serve every
/// session.

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alfred/domain/ref_format.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"

namespace alfred {

enum class column_type {
  uuid,
  text,
  integer,
  numeric,
  boolean,
  date,
  timestamp,
  text_array,
  uuid_array,
  jsonb,
  /// A text search document (often a generated column): never read or
  /// written, only searched (ops search, not_search).
  tsvector,
};

/// The name used in the domain JSON and in error messages ("text[]").
std::string_view column_type_name(column_type type);

/// What the schema says of a table users may add rows to but not read.
inline constexpr std::string_view kWriteOnlyNote = ", write-only: db_create adds rows, which cannot be read back";

/// A write the model makes on a table's rows, as bits of `table::writes`.
enum write_op : unsigned char { write_create = 1, write_update = 2, write_delete = 4, write_all = 7 };

struct column {
  std::string name;
  column_type type = column_type::text;
  /// NOT NULL without a default: a create must give it.
  bool required = false;
  /// Whether the model may set it (false for keys, the owner column, timestamps).
  bool writable = true;
  /// Which writes may set it: write_create and write_update bits, both by
  /// default (`"writable": ["create"]` for a column column privileges let
  /// users give on a new row and never change; docs/own-schema.md#column-privileges).
  unsigned char writes = write_create | write_update;
  /// Whether the database allows NULL here; a non-nullable column can never
  /// match `is_null`, so `is_not_null` on it does not narrow an update/delete.
  bool nullable = true;
  /// Target table of a foreign key ("" when not a foreign key): a `uuid`,
  /// `integer` or `text` column holding the key of one row of that table (of
  /// the same type), or a `uuid[]` column holding several.
  std::string references;
  /// Holds a user's id (`auth.users`, written `"references": "auth.users"`
  /// in the domain, and every owner column that references no table): shown
  /// to the model as `me` when it is the signed-in user's, another user's as
  /// a ref of the domain's `users` table (`user_2`), and a filter or a value
  /// on it takes either (docs/keys-and-owners.md#other-users).
  bool user_id = false;
  /// Allowed values for enum-like text columns (empty = any).
  std::vector<std::string> allowed_values;

  /// Whether write `op` (write_create or write_update) may set it.
  bool settable(write_op op) const { return writable && (writes & op) != 0; }
};

/// A one-to-many embed: `recipes` → `recipe_ingredients(...)`.
struct relation {
  std::string name;
  std::string table;
};

/// Semantic search through a database function: the executor embeds the
/// query text and calls `rpc`, which returns the matching ids ranked.
struct semantic_search {
  std::string rpc;
  std::string embedding_arg = "query_embedding";
  std::string count_arg = "match_count";
  std::string distance_arg = "max_distance";
  int limit = 20;
  /// JSON number text, passed through as written (the core formats no floats).
  std::string max_distance = "0.7";
  /// The columns a row's embedding is made from, in order (text columns each
  /// a part, text[] columns' items joined into one last part); used by
  /// whoever embeds the rows (the seed, `embeddingText` in JS).
  std::vector<std::string> text_columns;
};

/// Rows named after entries of a catalog table (inventory "milk" ↔ the
/// ingredients catalog): name filters also match through the catalog link,
/// and writes get the link filled in.
struct catalog_link {
  std::string catalog;
  /// This table's name column and the catalog's.
  std::string name_column = "name";
  /// The catalog's column of alternative names (text[]), "" for none.
  std::string alias_column;
  /// This table's foreign key to the catalog.
  std::string link_column;
  /// Columns copied from the catalog row when a write leaves them out.
  std::vector<std::string> copy_columns;
  /// Batch creates keep one row per catalog entry (or name): the last one.
  bool dedupe_batches = false;
};

/// Per-table behaviour of the executor, configured rather than coded.
struct table_middleware {
  /// Text columns where `=` means a case-insensitive substring match.
  std::vector<std::string> fuzzy_columns;
  /// Select items added to reads that do not pick their own columns
  /// (`recipe_ingredients(id,name,quantity,unit)`).
  std::vector<std::string> include;
  std::optional<semantic_search> semantic;
  std::optional<catalog_link> catalog;
};

struct table {
  std::string name;
  /// Ref prefix: rows of this table are `recipe_1`, `recipe_2`, …
  std::string ref_prefix;
  /// The primary key's columns. One column (of type uuid, integer or text)
  /// gives each row a ref; several (a join table's composite key) give rows
  /// no ref of their own: they are read, created and deleted through their
  /// columns, foreign keys as refs. Empty for a table or view without a key,
  /// which is read-only.
  std::vector<std::string> key;
  /// The column holding the owning user's id, "" for a table nobody owns
  /// (shared or reference data). Creates set it to the signed-in user and
  /// the model never writes it. It may be the key itself (`profiles.id`).
  std::string owner;
  /// Reads, updates and deletes are also filtered to the owner's rows
  /// (`"scope": "owner"`, defence in depth); by default row-level security
  /// alone decides which rows the user may see (`"scope": "rls"`).
  bool owner_scoped = false;
  /// False for catalog tables the model may read but never change.
  bool writable = true;
  /// Which writes a writable table takes (`"writable": ["update"]` for a
  /// table whose row-level security lets users update it, not create or
  /// delete its rows): write_op bits, every write by default
  /// (docs/own-schema.md#writable).
  unsigned char writes = write_all;
  /// False for a table users may add rows to but not read (`"readable":
  /// false`, a feedback form's): no reads, creates only, sent without
  /// reading their rows back, so they get no refs
  /// (docs/own-schema.md#write-only-tables).
  bool readable = true;
  /// True for a table without an owner column whose rows only signed-in
  /// users may read (`"signed_in": true`: a team's rows, the sections of a
  /// user's documents): a call without a user's session is `not_signed_in`
  /// instead of an empty answer. A table with an owner always needs one.
  bool signed_in = false;
  /// False for a table the API does not expose (a foreign key's target in a
  /// schema PostgREST does not serve, such as basejump's `accounts`): its rows
  /// are refs the model gets from function results and from the rows that
  /// reference it, never read, written or looked up as a table.
  bool exposed = true;
  std::vector<column> columns;
  /// Columns tried in order for a row's label; the first non-empty wins.
  std::vector<std::string> label_columns;
  /// Optional template such as "{date|mon_day} [{meal_type}]", used when all
  /// of its columns are present; falls back to `label_columns`.
  std::string label_format;
  std::vector<relation> relations;
  /// Columns that exist in the database but are never selected or shown
  /// (embeddings). When non-empty, a read without `columns` lists the visible
  /// columns instead of `*`.
  std::vector<std::string> hidden_columns;
  table_middleware middleware;

  const column* find_column(std::string_view name) const;
  const relation* find_relation(std::string_view name) const;
  /// The key column when the key is one column (rows then have refs), else null.
  const column* key_column() const;
  /// Whether `name` is one of the key's columns.
  bool is_key(std::string_view name) const;
  bool has_owner() const { return !owner.empty(); }
  /// Whether the model may make write `op` on it.
  bool allows(write_op op) const { return writable && (writes & op) != 0; }
  /// What the schema says after the table's refs: ", read-only", the writes
  /// it does not take (", no create or delete"), kWriteOnlyNote, or "" when
  /// it takes all.
  std::string_view write_note() const;
  /// Whether rows are keyed by user ids (`profiles.id` references
  /// auth.users, or is the owner): `me` names the signed-in user's own row.
  bool keyed_by_user() const;
  /// Whether a row's label is its key's text (roles keyed by their name): a
  /// ref would hide the one thing the model reads a row by, so the label is
  /// shown beside it.
  bool labelled_by_key() const;
  /// Whether `name` is the owner column of an owner-scoped table, which is
  /// never shown (every row is the user's).
  bool hides_owner(std::string_view name) const { return owner_scoped && name == owner && !is_key(name); }
  /// Whether `name` is one of `hidden_columns`: never read, written or named
  /// to the model.
  bool hides_column(std::string_view name) const;
  /// Whether the model sees `name` in this table's rows: not hidden, not
  /// the owner column of a table scoped to its owner.
  bool shows_column(std::string_view name) const;
  /// What a read of every column selects: `*`, or the visible columns when
  /// `*` would also fetch hidden ones (embeddings: kilobytes per row dropped
  /// anyway; columns column privileges keep from users, which PostgreSQL
  /// would refuse).
  void append_read_columns(std::string& out) const;
};

/// What a database function returns, as the domain says it.
struct function_returns {
  enum class kind : unsigned char {
    /// Rows of a domain table (`table`): one, or a set.
    rows,
    /// A value of `value_type` (a column type), or a set of them.
    value,
    /// JSON: a `json`/`jsonb` result, a `returns table (…)`, a record.
    json,
    /// Nothing (`void`).
    none,
  };
  kind type = kind::json;
  /// kind::rows: the domain table whose rows come back.
  std::string table;
  /// kind::value: the values' type.
  column_type value_type = column_type::text;
  /// kind::value: the table whose key the value is ("" for none), so a
  /// returned key becomes a ref.
  std::string references;
  /// kind::json: the result columns PostgREST selects (`select=`), joined
  /// by commas; "" for all. A `returns table (…)` whose embedding the model
  /// has no use for lists the others.
  std::string columns;
  /// A set of rows or values (`setof`), not one.
  bool set = false;
};

/// A database function the model may call with `db_call` (docs/functions.md).
/// Its arguments are validated as the columns of a table are: `args` is a
/// table named after the function whose columns are the arguments (no key,
/// no owner), so refs, `me`, types and allowed values read the same.
struct db_function {
  std::string name;
  /// What the model reads about it ("" for none).
  std::string description;
  /// Sent as `GET /rpc/<name>`, which PostgREST runs read-only; a read for
  /// read-only acts and approval. False: a write, sent by `POST`.
  bool read = false;
  /// The arguments, in the order given, as the columns of a table.
  table args;
  /// Arguments of type `vector` (pgvector): the model gives text, the
  /// executor sends its embedding.
  std::vector<std::string> embedded_args;
  /// The size of each embedded argument's vector (`vector(384)`), aligned
  /// with `embedded_args`; 0 where the domain gives none.
  std::vector<int> embedding_sizes;
  /// Each argument's description, by name, when it has one.
  std::vector<std::pair<std::string, std::string>> arg_descriptions;
  function_returns returns;

  /// Whether `name` is an argument the model gives as text to embed.
  bool embeds(std::string_view arg) const;
  /// The size of `arg`'s vector, or 0 when the domain does not say.
  int embedding_size(std::string_view arg) const;
};

namespace detail {
struct table_plan;
}

/// How rows of each table are translated (rows/row_plan.h), made once by
/// parse_domain instead of per translation. The plans point into the tables
/// they were made for, so a copied domain starts without them and makes its
/// own per translation; a moved one keeps them (its tables do not move).
/// They describe the tables as parse_domain left them: a caller that changes
/// a table afterwards calls make() again.
class table_plans {
 public:
  table_plans() = default;
  table_plans(const table_plans&) noexcept {}
  table_plans& operator=(const table_plans&) noexcept {
    plans_.reset();
    return *this;
  }
  table_plans(table_plans&&) noexcept = default;
  table_plans& operator=(table_plans&&) noexcept = default;

  /// Makes the plan of every table of `dom`.
  void make(const struct domain& dom);
  /// The plan made for `tbl`, or null when there is none for that table.
  const detail::table_plan* find(const struct domain& dom, const struct table& tbl) const;

 private:
  std::shared_ptr<const std::vector<std::unique_ptr<detail::table_plan>>> plans_;
};

struct domain {
  std::string name;
  /// The owner column of tables marked `"user_owned": true` without an
  /// `"owner"` of their own.
  std::string owner_column = "user_id";
  /// The server's row cap (PostgREST `db-max-rows`); a larger `limit` is an
  /// error instead of a silently truncated result
  /// (docs/postgrest-wire.md#silent-row-cap).
  int max_rows = 1000;
  std::vector<table> tables;
  /// The functions the model may call, in the order given.
  std::vector<db_function> functions;
  /// A field named like a foreign-key column of the domain (`account_id`),
  /// with the table its values are keys of, when every column of that name
  /// references the same table: a function's JSON result gets refs for it.
  /// Names, not pointers, so a copied domain stays whole.
  std::vector<std::pair<std::string, std::string>> field_references;
  /// The domain's own text for prompt example slots (`prompt_examples.h`);
  /// slots it leaves out are derived from the tables.
  std::vector<std::pair<std::string, std::string>> prompt_examples;
  /// Every slot's text, the domain's own or derived: filled by parse_domain
  /// once, so prompts do not derive examples per call.
  std::vector<std::pair<std::string, std::string>> resolved_prompt_examples;
  /// Each table's translation plan, filled by parse_domain once.
  table_plans row_plans;
  /// What other users' ids are refs of when no one table of the domain is
  /// keyed by user ids (`user_2`, labelled by a name or an email a
  /// function's answer gives beside them): a table the API does not serve,
  /// keyed by user ids, named `auth.users`, its refs `user_…` (`userx_…`
  /// when a domain table's refs are `user_…`). Held apart so that its
  /// address survives the domain's moves, as the tables' do (translation
  /// plans point at it).
  std::shared_ptr<const table> users;
  /// The table whose refs user ids are (users_table()): the one table keyed
  /// by user ids (a profile), or `auth.users` for `users`; "" in a domain
  /// parse_domain did not make. A name, so a copied domain stays whole.
  std::string users_reference;

  const table* find_table(std::string_view name) const;
  const table* find_table_by_prefix(std::string_view prefix) const;
  const db_function* find_function(std::string_view name) const;
  /// The table whose keys a result field named `field` holds (users_table()
  /// for user ids), or null.
  const table* field_reference(std::string_view field) const;
  /// Whether a result field named `field` holds user ids (`auth.users`).
  bool field_holds_user_id(std::string_view field) const;
  /// The table other users' ids are refs of (a profile's, or `users`); null
  /// only in a domain parse_domain did not make.
  const table* users_table() const;
  /// The names of the tables the model may call, comma-separated, for error
  /// hints (tables the API does not expose are left out).
  std::string table_list() const;
  /// The names of all functions, comma-separated, for error hints.
  std::string function_list() const;
  /// For hints on a table the API does not serve, among the functions that
  /// read (never one that changes data): those a word of whose name is the
  /// table's (get_accounts for accounts), else its row's (get_account), else
  /// those whose results show its refs (its rows, rows that reference it,
  /// its keys); comma-separated, `name()` each; "" for none.
  std::string ref_sources(const table& tbl) const;
  /// The tables the model may read whose rows show `tbl`'s refs (a visible
  /// column references it), comma-separated.
  std::string referencing_tables(const table& tbl) const;
  /// Where the model gets refs of `tbl`, a table it cannot read: "call
  /// get_accounts() (db_call), or read projects (their rows show account
  /// refs)", either half alone, or "" when nothing here shows them.
  std::string ref_source_hint(const table& tbl) const;
};

/// Validates and loads a domain. Functions are checked as tables are: their
/// arguments as columns, their return table known. Rejects unknown column types, duplicate or
/// malformed ref prefixes, column names that PostgREST reserves (`or`,
/// `select`, `limit`, …), keys of other types, foreign keys to unknown
/// tables or of another type than the key they point at, and UUID columns
/// that would leak to the model untranslated.
result<domain> parse_domain(std::string_view config_json);

/// True for query-string keys PostgREST interprets itself.
bool is_postgrest_reserved(std::string_view name);
/// The query-string keys PostgREST interprets itself (`select`, `order`, …),
/// which no column of a domain may be named.
std::span<const std::string_view> postgrest_reserved_names();

/// What the name of a table, column, relation, function or ref prefix may
/// be: a lower-case identifier, its first byte one of `first`, the others of
/// `rest`, at most `max_length` bytes (PostgreSQL's unquoted names, and what
/// the ref grammar can read back). Kept as data so that the package's domain
/// pull applies the same rule (generated from it).
struct identifier_rule {
  std::string_view first;
  std::string_view rest;
  std::size_t max_length;
};
inline constexpr identifier_rule kIdentifierRule{"abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz0123456789_",
                                                 63};
/// Whether `name` follows kIdentifierRule.
///
/// @example is_identifier("meal_plans") // true; "MealPlans", "2x", "" are not
bool is_identifier(std::string_view name);
/// How a domain writes a column holding a user id (`auth.users`).
inline constexpr std::string_view kUsersReference = "auth.users";

}  // namespace alfred
