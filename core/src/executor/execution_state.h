#pragma once
// The state of one execution (alfred/executor/executor.h), shared by the files of its
// stages:
//   executor.cpp            the public class, rounds (respond, advance),
//                           response limits, finishing with the result
//   execution_planning.cpp  the call validated, artifacts claimed, row ids,
//                           the first round of needs
//   execution_search.cpp    catalog lookups and semantic search
//   execution_writes.cpp    a write's answer, its verification, saved
//                           artifacts promoted
//   execution_reads.cpp     the main rows, their labels, the result
//   execution_functions.cpp a db_call: embedded arguments, the function's
//                           answer by what it returns

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../tool_call/middleware.h"
#include "../tool_call/param_path.h"
#include "aggregate_groups.h"
#include "alfred/executor/executor.h"
#include "alfred/json/json.h"
#include "alfred/rows/row_translation.h"
#include "alfred/tool_call/tool_call.h"
#include "query_record.h"

namespace alfred {

namespace detail {

/// The first string (value or key) in `value` longer than `max_bytes`, as a
/// path; `path` is null at the top of the params.
std::optional<std::string> oversized_string(json_value value, const param_path* path, std::size_t max_bytes);
/// "8 MiB", "512 KiB", "1000 bytes".
std::string byte_size(std::size_t bytes);

}  // namespace detail

struct execution::state {
  const domain& dom;
  ref_registry& registry;
  request_context options;
  execution_options settings;
  std::string tool;
  std::string params_text;
  std::optional<json_document> params_doc;

  std::optional<tool_call> requested;
  std::optional<tool_call> effective;
  detail::query_record record;
  std::vector<detail::catalog_term> terms;
  /// The entries the catalog lookups of a round found (a large batch is
  /// looked up in several requests); linked once all of them answered.
  std::vector<detail::catalog_entry> catalog_found;
  /// Semantic search ranking (keys, best first); set once the RPC answered.
  std::optional<std::vector<std::string>> ranking;
  std::optional<long> semantic_limit;

  /// The rows of the main answer's array as the limits check counted them
  /// (nothing: not an array, or cut off, or not counted there: see
  /// rows_counted_in_translation).
  std::optional<std::size_t> main_rows_seen;
  /// A read's foreign keys whose rows' labels the main request brings along
  /// (none once the database refused them: the read is sent again without).
  std::vector<label_embed> label_embeds;
  bool label_embeds_refused = false;
  /// The database refused the read's join (not its URL's length): noted in
  /// the registry once the read without it succeeds.
  bool join_refused = false;
  /// The main answer was over the response's byte limit (apply_limits).
  bool main_over_bytes = false;
  /// The main response, kept while the labels it refers to are looked up.
  std::string main_body;
  int main_status = 0;
  /// The total from Content-Range when the call asked for a count and the
  /// server knew it.
  std::optional<long long> main_total;

  /// create: the key of each row sent (canonical UUIDs the caller drew,
  /// aligned with the call's rows); empty when the database assigns them
  /// (identity and serial keys, and tables whose key is not a uuid).
  std::vector<std::string> created_ids;
  // Every created row's uuid key was drawn here (assign_row_ids): only then
  // is a duplicate key an earlier attempt of this create (created_ids).
  bool row_ids_drawn = false;
  /// An update or delete under `max_affected` checked by count: the rows
  /// its filters select were counted and are within the limit.
  bool affected_counted = false;
  /// An update or delete by key sent without counting first (its keys bound
  /// the rows it changes, or the database enforced the limit) that changed
  /// none: its rows were counted after it, to say why.
  bool counted_after = false;
  bool count_after_failed = false;
  /// How many rows the count found, and the keys of those rows when the
  /// table has a one-column key and they were few enough to name: the
  /// write is restricted to them (a row that starts matching between the
  /// count and the write is not changed).
  long long counted_rows = 0;
  std::optional<std::vector<std::string>> counted_keys;
  /// gen_ refs this execution holds a save claim on.
  std::vector<std::string> claims;
  /// While created rows are read back by id: the error to report when they
  /// are not all there, and the note when they are.
  std::optional<error> unverified;
  std::string verified_note;

  /// One need of the current round: what the caller is asked for, what the
  /// answer is for (the handler that consumes it) and the answer once given.
  /// A new kind of need is a handler (and, if it waits for the whole round,
  /// a round step), not a case in a switch.
  struct pending_need {
    /// Consumes the answer. False stops the round there: the execution
    /// finished, or the answer decided what comes next by itself.
    using handler = bool (state::*)(pending_need&);
    /// Runs once after every answer of the round was consumed.
    using round_step = void (state::*)();

    /// Moved to `handed_out` when the round is handed to the caller.
    need ask;
    handler consume = nullptr;
    round_step after_round = nullptr;
    /// A label lookup: the table whose labels it reads.
    const table* target = nullptr;
    /// An argument's embedding: which of the call's `embeds`.
    std::size_t item = 0;
    std::optional<need_response> answer;
  };
  /// The needs of the current round, in the order the caller sees them.
  std::vector<pending_need> round;
  /// The current round's needs as `execution::needs()` hands them out (the
  /// public API gives a vector of needs): each record's `ask`, moved here.
  std::vector<need> handed_out;

  bool finished = false;
  std::string result;
  /// For the model: the translated rows and the error the result is made
  /// of (api::execution_result writes it), and how the read was capped.
  std::string model_rows;
  /// How many rows model_rows holds, when the translator said.
  std::optional<std::size_t> model_row_count;
  /// Whether model_rows may hold a UUID and so needs scrub_uuids (the
  /// translator says when none of its strings holds one).
  bool model_rows_quote_uuid = true;
  std::optional<error> model_error;
  bool model_limited = false;

  state(const domain& d, ref_registry& r, request_context o, execution_options s)
      : dom(d), registry(r), options(std::move(o)), settings(std::move(s)) {}
  ~state() { release_claims(); }
  state(const state&) = delete;
  state& operator=(const state&) = delete;

  void release_claims();

  // The signed-in user's id ("" for none): `me` to the model.
  std::string_view me() const { return options.options().user_id; }

  // Finishing, rounds and limits (executor.cpp).

  void finish(std::string_view data_json, const error* err, std::optional<long long> count);
  /// `finish` with rows the execution owns: for the model, a read's rows
  /// are moved rather than copied. `quotes_uuid`: whether a string of the
  /// rows may hold a UUID (false skips a scrub that would change nothing).
  void finish_rows(std::string&& rows_json, std::size_t written, std::optional<long long> count,
                   bool quotes_uuid = true);

  void fail(const error& err) { finish({}, &err, std::nullopt); }

  // Planning (execution_planning.cpp).

  // The call in stages: its params read and held to the limits, a read of
  // unsaved generated artifacts answered at once, the call validated, then
  // the lookups it needs before the main request (catalog names, an
  // embedding). Each stage that ends the execution returns false.
  void start(std::string_view tool_text);
  bool read_params();
  bool answer_from_generated(json_value params);
  bool plan_lookups();

  // A gen_ artifact is saved by one call at a time: a second save while the
  // first is in flight would insert a second row the registry cannot
  // promote. A row without an `id: gen_…` marker saves the pending artifact
  // whose label it has (promote_saved), so that one is claimed too.
  bool claim_saves();

  // The label a create row will have once saved.
  std::string label_of(const row& fields) const;

  // Rows keep the id the caller drew for them, in the order the model gave
  // them, before de-duplication or catalog enrichment moves anything.
  void assign_row_ids();

  void add_need(pending_need pending) { round.push_back(std::move(pending)); }

  // An HTTP need; a request that could not be built fails the execution (false).
  bool add_request(alfred::result<http_request> request, pending_need::handler consume,
                   pending_need::round_step after_round = nullptr);

  bool add_read_need(const tool_call& call, pending_need::handler consume,
                     pending_need::round_step after_round = nullptr);

  void plan_main();
  void plan_label_embeds(tool_call& call);

  // A db_call (execution_functions.cpp): validated, its vector arguments'
  // text embedded, then the function called.
  void start_call(tool_call call);
  bool consume_argument_embedding(pending_need& embedding);
  // The function's answer, by what it returns.
  void consume_call(need_response answer);
  // A call not answered with success: a read's error, or a write's
  // refusal or unknown outcome.
  void fail_call(const need_response& answer);

  // A db_aggregate (execution_aggregates.cpp): a count of rows, the
  // server's aggregate, or its fallbacks (counted groups, the rows), then
  // the groups kept, ordered and cut, their keys as refs.
  void start_aggregate(tool_call call);
  // A read of the call's table under its filters and user: the base of each
  // request an aggregate makes, and of the count before a write.
  tool_call filtered_read() const;
  // How plain counts are made: "exact" unless the model asked otherwise.
  std::string count_mode() const;
  // A read of the aggregate's rows that counts them and reads none (its
  // key only, limit 0, Prefer: count).
  tool_call counting_read() const;
  // The total a counted answer's Content-Range gives; the execution fails
  // (nullopt) on a refusal or an answer without one.
  std::optional<long long> counted_total_of(const need_response& answer);
  bool plan_row_count();
  bool consume_row_count(pending_need& counted);
  bool plan_server_aggregate();
  bool consume_server_aggregate(pending_need& need);
  void merge_server_aggregate();
  bool plan_aggregate_fallback();
  bool plan_aggregate_rows();
  bool plan_counted_groups(std::vector<std::vector<std::string>> combinations);
  bool consume_counted_group(pending_need& counted);
  void finish_counted_groups();
  bool consume_aggregate_rows(pending_need& read);
  void complete_groups();
  void write_aggregate();

  std::optional<detail::aggregate_groups> aggregated;
  /// The member holding each metric in the server's answer ("" for a
  /// distinct count, which its own request answers).
  std::vector<std::string> aggregate_aliases;
  std::vector<detail::aggregate_group> server_groups;
  /// A distinct count's values per group (by metric, then group key), and
  /// the groups its requests saw.
  std::map<std::size_t, std::map<std::string, long long>> distinct_counts;
  std::map<std::string, std::vector<std::string>> distinct_keys;
  /// The group each counted request is for.
  std::vector<std::vector<std::string>> counted_groups;
  /// The text column the aggregate's rows are sorted by (its min and max
  /// in the database's collation), or null.
  const column* aggregate_ordered_by = nullptr;
  /// How many rows the filters match, counted beside the groups.
  std::optional<long long> counted_total;
  /// What the execution learned of the server: "on", "off" or "".
  std::string aggregates_learned;
  /// The groups' keys as rows of the table, translated into the result.
  std::string group_rows;
  // A refused call as an error the model can act on.
  error call_error(const need_response& answer) const;

  // Under `max_affected` by count (servers without Prefer: max-affected):
  // the rows an update or delete selects are counted before it is sent.
  bool plan_affected_count();
  bool consume_affected_count(pending_need& counted);
  // A read that counts the rows the write's filters select (and takes their keys).
  tool_call affected_count_call() const;
  // Whether the write names its rows by key, no more of them than `most`:
  // it changes no row beyond them, so no count need bound it.
  bool names_its_rows(std::size_t most) const;
  // The count after a write by key that changed no row (sent without a
  // count before it): the rows the user can read but not change are said as
  // such (complete_main).
  bool consume_count_after(pending_need& counted);
  error too_many_rows(long long count) const;

  // Consuming answers: rounds and limits (executor.cpp); the catalog and semantic search
  // (execution_search.cpp); writes (execution_writes.cpp); reads, labels and the result
  // (execution_reads.cpp).

  void respond(std::size_t index, need_response response);

  // Every answer of the round consumed, in order; then the round's steps,
  // each once; then, when nothing else was planned, the main request.
  void advance();

  // The round planned is handed to the caller.
  void hand_out();

  static bool succeeded(const need_response& answer);

  // A body over the limits is not read: the JS side stops reading at the
  // byte limit already; rows are counted here, before anything is parsed,
  // except an unranked read's, which its translation counts (one pass over
  // the bytes).
  /// Fails an answer over the limits; the rows of an array answer
  /// (counted up to one past the limit), or nothing for any other answer.
  /// `over_bytes`, when given, is set when the answer is over the byte limit
  /// (here, or already on the JS side).
  /// With `count_rows` false, only the byte limit is checked here.
  std::optional<std::size_t> apply_limits(need_response& answer, bool* over_bytes = nullptr,
                                          bool count_rows = true) const;
  /// Whether the main rows are counted against the row limit while they are
  /// translated (a read's, not ranked) rather than in a pass of their own.
  bool rows_counted_in_translation() const;
  /// The error of a main read's rows that failed to translate: over the row
  /// limit, the answer over the limits (as apply_limits says it); an array
  /// cut off, not rows; else the translator's own.
  error main_rows_error(error err) const;
  /// A main read answered with an array cut off: not rows.
  error cut_off_rows() const;

  // What a 2xx body is when it is not an array ("an object", "a number", …),
  // or null for an array. Only the first character is looked at: the
  // translator validates the rest.
  static const char* not_rows(std::string_view body);

  bool consume_catalog(pending_need& lookup);
  // Once every lookup of the round answered: the read's filters or the
  // write's rows linked to the entries found.
  void link_catalog();

  bool consume_embedding(pending_need& embedding);

  bool consume_ranking(pending_need& rpc);

  // Rows in ranking order, at most `semantic_limit` of them.
  std::string ranked(std::string_view body) const;

  // Created rows: each saved artifact's gen_ ref is bound to its row, named
  // by the call (`id: gen_recipe_1`) or, failing that, by a pending
  // artifact with the same label.
  void promote_saved(std::string_view body);

  // The main request's answer: a read's rows (consume_rows) or a write's
  // (consume_write).
  bool consume_main(pending_need& main);

  void consume_rows(need_response answer);

  // A write's answer. Only a definite refusal (a 4xx, or an error the
  // database itself reported) or a request never sent means "no effect";
  // an answer lost, cut off, unreadable or from a proxy leaves the outcome
  // unknown, and says so. Created rows carry client ids, so such a create
  // is settled by reading its rows back.
  void consume_write(need_response answer);
  /// The database refused the write; `reads_back`: it was sent to read its
  /// rows back (consume_write).
  void refused_write(error err, bool reads_back);
  /// A write-only table's create, answered `status`: the rows it sent were
  /// saved, and are not read back (return=minimal).
  void saved_unread(int status);
  /// A write_outcome_unknown error, whose hint fits a write-only table.
  error outcome_unknown(const need_response& answer, std::string_view what, std::string_view why) const;

  static bool is_rows_array(std::string_view body);

  // Reads the created rows back by their ids; when every one is there they
  // are the result, else `fallback` is.
  void verify_created(error fallback, std::string note);

  bool consume_verification(pending_need& read_back);

  void look_up_labels();

  // One batched read per target table, in chunks that keep URLs short.
  // `after`: the round step once every lookup answered (the main rows'
  // completion by default).
  void plan_label_lookup(const label_lookup& lookup, pending_need::round_step after = nullptr);

  // A failed label lookup leaves the main result intact, without those labels.
  bool consume_labels(pending_need& lookup);
  // Once every label lookup answered.
  void complete_labeled() { complete_main(); }

  // The main rows translated (`translated`, or now), and the result.
  /// `translated`: the rows already translated (`written` of them), else
  /// they are translated here.
  void complete_main(std::optional<alfred::result<std::string>> translated = std::nullopt, std::size_t written = 0,
                     bool quotes_uuid = true);
  // The action the main rows are registered with.
  ref_action main_action() const;
};

}  // namespace alfred
