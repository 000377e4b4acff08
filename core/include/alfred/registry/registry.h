#pragma once
/// The ref registry: the model sees `recipe_1`, the database sees the row's
/// key (a UUID, a bigint kept as its digits, or a text key).
///
/// - Database rows get `{prefix}_{n}`; the counter per prefix never resets and
///   a number is never reused, so a ref means the same row for the session.
/// - Generated, unsaved artifacts get `gen_{prefix}_{n}` from their own
///   counters and keep their content as a pending artifact.
/// - Saving an artifact promotes its `gen_` ref exactly once: the saved row
///   gets a regular ref and the `gen_` ref becomes an alias of it, so children
///   written later with `recipe_id: "gen_recipe_1"` link to the saved row.
/// The registry knows nothing about HTTP; it is pure state plus JSON
/// serialization with a format version.
///
///     ref_registry reg;  // one per session
///     std::string ref = reg.register_row("recipes", "recipe", uuid, ref_action::read, "Soup");  // "recipe_1"
///     const ref_entry* entry = reg.find(ref);  // entry->key: the UUID in lower case
///     auto restored = ref_registry::from_json(reg.to_json());  // the same refs in a later call
///
/// The registry owns its entries (copies of refs, keys, labels and content)
/// and borrows nothing, not even the domain. It is not thread-safe: one per
/// session, used by one call at a time. The entries it points to (`find`,
/// `entries()`) are valid until a call adds entries or rolls a batch back, or
/// the registry is replaced: copy what you keep.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/registry/entry_index.h"
#include "alfred/uuid/uuid_bits.h"

namespace alfred {

enum class ref_action { read, created, updated, deleted, generated, linked };

std::string_view ref_action_name(ref_action action);
/// The action of rows returned by a tool call: read, created, updated or deleted.
std::optional<ref_action> parse_row_action(std::string_view name);

struct ref_entry {
  std::string ref;
  /// The ref prefix ("recipe"); also the key of the counters.
  std::string type;
  std::string table;
  /// The row's key as text: a canonical lower-case UUID, an integer's digits
  /// as the database wrote them (never a double: bigints above 2^53 keep
  /// every digit), or a text key; empty while a `gen_` ref is pending.
  std::string key;
  /// Whether `key` is a UUID. UUIDs are unique across tables and found by
  /// value alone (UUID scrubbing); other keys only within their ref type.
  bool uuid_key = true;
  std::string label;
  ref_action action = ref_action::read;
  int turn_created = 0;
  int turn_last = 0;
  bool generated = false;
  /// Generated content as JSON text, kept while pending and until the turn
  /// that saved it ends.
  std::optional<std::string> content;
  /// For a promoted `gen_` ref: the regular ref of the saved row.
  std::string saved_as;
  int turn_saved = 0;

  bool pending() const { return generated && key.empty(); }
};

/// The last turn a registry counts to; a state holds turns up to it, so one
/// at the limit stays there rather than write a state it could not restore.
inline constexpr int kMaxTurn = 2'000'000'000;

/// Labels longer than this many code points are cut to it, the last one an
/// ellipsis (`capped_label`).
inline constexpr std::size_t kMaxLabelChars = 200;

/// The most creates of unknown outcome a registry keeps the ids of (the
/// newest; see `remember_uncertain`).
inline constexpr std::size_t kMaxUncertainCreates = 100;
/// The most tables a registry remembers as refusing joins (refuses_joins).
inline constexpr std::size_t kMaxJoinsRefused = 64;

/// `label`, or its first `kMaxLabelChars - 1` code points and "…" when it
/// is longer. Every label the registry stores goes through it.
std::string capped_label(std::string_view label);

/// An integer key as PostgreSQL prints it: an optional minus, then 1 to 20
/// digits without a leading zero (a bigint's every digit, kept as text).
bool is_integer_key(std::string_view text);

class ref_registry {
 public:
  ref_registry() = default;

  /// Restores a state produced by `to_json` (this version's, or version 1's,
  /// which held UUID keys only). An unknown format version, a missing or
  /// ill-typed field, a counter below a ref's number or above
  /// `kMaxRefNumber`, or a key mapped twice is an error, never a silent
  /// reset. Labels longer than `kMaxLabelChars` are cut.
  static result<ref_registry> from_json(std::string_view state_json);
  std::string to_json() const;

  const ref_entry* find(std::string_view ref) const;
  /// The regular ref that holds this UUID (either letter case), if any; with
  /// `type`, the one of that ref type. Two tables may hold the same UUID (a
  /// one-to-one table whose key is its parent's), each with a ref of its own;
  /// without `type`, the first registered answers.
  const ref_entry* find_by_uuid(std::string_view uuid, std::string_view type = {}) const;
  /// The ref that holds this UUID: the one of type `type` when there is one,
  /// else any (the first registered).
  const ref_entry* find_by_uuid_preferring(std::string_view uuid, std::string_view type) const;
  /// The regular ref of type `type` that holds the non-UUID key `key`, if any.
  const ref_entry* find_by_key(std::string_view type, std::string_view key) const;
  /// Resolves an alias: a promoted `gen_` ref yields the saved row's entry.
  const ref_entry* resolve(std::string_view ref) const;

  /// Registers (or refreshes) a database row with a UUID key and returns its
  /// ref. `label` is kept when empty. The action is updated on every call.
  /// "" when the row is new and its prefix has no ref number left, or `uuid`
  /// is not a UUID.
  std::string register_row(std::string_view table, std::string_view type, std::string_view uuid, ref_action action,
                           std::string_view label);
  /// Registers a row seen only through a foreign key. A known UUID keeps its
  /// action; an unknown one gets a new ref with action `linked`.
  std::string register_linked(std::string_view table, std::string_view type, std::string_view uuid);
  /// `register_row` for a row whose key is `key` of a column of `key_type`
  /// (a UUID, integer digits or text).
  std::string register_keyed_row(std::string_view table, std::string_view type, column_type key_type,
                                 std::string_view key, ref_action action, std::string_view label);

  /// Position in `entries()` of the regular ref holding `uuid` (of ref type
  /// `type` when given), or `npos`.
  std::size_t find_index(uuid_bits uuid, std::string_view type = {}) const;
  /// `register_row` / `register_linked` for callers that parsed the UUID
  /// already (row translation); they return the position in `entries()`,
  /// or `npos` when the row is new and its prefix has no ref number left.
  std::size_t register_row_index(std::string_view table, std::string_view type, uuid_bits uuid, ref_action action,
                                 std::string_view label);
  std::size_t register_linked_index(std::string_view table, std::string_view type, uuid_bits uuid);
  /// The same for a key that is not a UUID (integer digits, text).
  std::size_t find_key_index(std::string_view type, std::string_view key) const;
  std::size_t register_key_index(std::string_view table, std::string_view type, std::string_view key, ref_action action,
                                 std::string_view label);
  std::size_t register_linked_key_index(std::string_view table, std::string_view type, std::string_view key);
  /// Sets the label of `entries()[index]`; an empty label keeps the old one.
  void set_label(std::size_t index, std::string_view label);
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// Starts recording changes so that `rollback_batch()` can undo them, for
  /// work that can fail halfway (rows whose JSON turns out to be invalid
  /// after some were registered). `commit_batch()` keeps the changes. Refs
  /// created in a rolled-back batch were never shown, so their numbers are
  /// handed out again.
  void begin_batch();
  void commit_batch();
  void rollback_batch();

  /// Creates a `gen_` ref holding `content` until it is saved.
  /// `content_json` must be valid JSON text (the caller parsed it).
  /// `registry_full` when the prefix has no generated ref number left.
  result<std::string> register_generated(std::string_view table, std::string_view type, std::string content_json,
                                         std::string_view label);
  /// Replaces the content of a pending artifact (the model revised it).
  status update_generated(std::string_view gen_ref, std::string content_json, std::string_view label);
  /// Binds a pending `gen_` ref to the row that saved it (its key, of a
  /// column of `key_type`); returns the row's regular ref. Fails when the ref
  /// is unknown, not generated, or already saved, when the key is not one
  /// of that type, or when the row needs a ref and none is left
  /// (`registry_full`).
  result<std::string> promote(std::string_view gen_ref, std::string_view key, std::string_view label,
                              column_type key_type = column_type::uuid);
  /// A pending artifact of this type whose label matches (case-insensitive,
  /// trimmed); used when a save names the artifact only by its label.
  const ref_entry* find_pending_by_label(std::string_view type, std::string_view label) const;
  /// Marks a known row's action (`updated`, `deleted`).
  void mark(std::string_view ref, ref_action action);

  /// Claims a pending `gen_` ref for a save that is in flight; false when
  /// another save holds it. Claims are not part of the serialized state
  /// (they live only as long as the call that holds them).
  bool claim_save(std::string_view gen_ref);
  /// Gives a claim back (the save finished, failed or was abandoned).
  void release_save(std::string_view gen_ref);
  /// Whether a save in flight holds `gen_ref`.
  bool save_claimed(std::string_view gen_ref) const;

  /// Creates whose outcome is unknown (their answer was lost): the row ids
  /// each was sent with, under a key naming the call (its `[tool, params]`
  /// JSON) or the `gen_` artifact it saved. They are part of the state, so a
  /// retry in a later call (another MCP request, another /act/execute, a new
  /// act restored from the state) sends the same ids, and the database
  /// refuses it as a duplicate instead of inserting a second row. Keys longer
  /// than 64 bytes are kept as a hash; the newest kMaxUncertainCreates stay.
  ///
  ///     reg.remember_uncertain(call_json, ids);   // the answer was lost
  ///     if (auto* ids = reg.uncertain_ids(call_json)) …  // the retry reuses them
  const std::vector<std::string>* uncertain_ids(std::string_view key) const;
  void remember_uncertain(std::string_view key, std::vector<std::string> ids);
  void forget_uncertain(std::string_view key);

  /// Tables whose reads the database would not join the rows their foreign
  /// keys point at to (PostgREST knows no such relationship, or the user has
  /// no right to the other table), noted once the read without the join
  /// succeeded: a read of one of them brings no labels along and looks them
  /// up after it instead of sending a join that fails first. Part of the
  /// state (the database's schema and the role's rights, which a session
  /// does not expect to change); the newest kMaxJoinsRefused stay.
  bool refuses_joins(std::string_view table) const;
  void note_refused_joins(std::string_view table);

  /// The signed-in user whose calls made these refs ("" until one makes a
  /// call): their labels and data are that user's rows, which no other
  /// user's prompt may show (docs/sessions.md, "One user's refs").
  const std::string& user() const { return user_; }
  /// Binds the refs to `user` (a signed-in user's id) when none is bound yet.
  void bind_user(std::string_view user) {
    if (user_.empty()) user_ = std::string(user);
  }
  /// Why a call by `user` ("" when no one is signed in) may not use these
  /// refs (`state_of_another_user`): they are bound to another user, or to
  /// one while no one is signed in. Null when they are bound to none or to
  /// this one.
  std::optional<error> refused_user(std::string_view user) const;

  int turn() const { return turn_; }
  /// Moves to turn `n` (turns only go forward, and stop at kMaxTurn).
  void set_turn(int n);
  /// Drops the content of artifacts saved in this or an earlier turn; pending
  /// ones keep theirs.
  void end_turn();

  /// Entries in registration order.
  const std::vector<ref_entry>& entries() const { return entries_; }
  /// Refs of one prefix (regular and generated), in registration order.
  std::vector<const ref_entry*> refs_of_type(std::string_view type) const;

 private:
  static result<ref_entry> parse_entry(const ref_registry& reg, json_value item, const std::string& where);
  ref_entry& add(ref_entry entry, uuid_bits uuid);
  /// A new entry for a row of `table` under the next ref of `type`, added
  /// (under `uuid` when the key is one); its index, or npos when the type's
  /// refs are used up.
  std::size_t add_row(std::string_view table, std::string_view type, std::string key, bool uuid_key, uuid_bits uuid,
                      ref_action action, std::string_view label);
  void index_key(std::uint32_t index);
  /// The next ref of `type`, or "" when its counter is at `kMaxRefNumber`.
  std::string next_ref(std::string_view type, bool generated);
  std::uint32_t find_ref_index(std::string_view ref) const;
  void refresh(std::size_t index, ref_action action, std::string_view label);
  void rebuild_indexes();

  // A change to an existing entry made inside a batch, with what it replaced.
  struct undo_record {
    std::size_t index;
    ref_action action;
    int turn_last;
    bool label_changed;
    std::string label;
  };

  std::vector<ref_entry> entries_;
  // The bits of each entry's UUID (zero while a gen_ ref is pending), by position.
  std::vector<uuid_bits> uuid_bits_;
  detail::entry_index by_ref_;
  detail::entry_index by_uuid_;
  // Entries whose key is not a UUID, by (type, key).
  detail::entry_index by_key_;
  bool batch_open_ = false;
  std::size_t batch_first_new_ = 0;
  std::map<std::string, long, std::less<>> batch_counters_;
  std::vector<undo_record> undo_;
  std::map<std::string, long, std::less<>> counters_;
  std::map<std::string, long, std::less<>> gen_counters_;
  int turn_ = 0;
  std::string user_;
  // gen_ refs whose save is in flight (few at a time).
  std::vector<std::string> saves_in_flight_;
  // Creates of unknown outcome, oldest first: (key, ids).
  std::vector<std::pair<std::string, std::vector<std::string>>> uncertain_;
  std::vector<std::string> joins_refused_;
};

}  // namespace alfred
