#include "alfred/executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "../json/echo.h"
#include "../json/json_scan.h"
#include "../postgrest/content_range.h"
#include "../tool_call/middleware.h"
#include "../tool_call/param_path.h"
#include "alfred/json.h"
#include "alfred/row_translation.h"
#include "alfred/tool_call.h"
#include "alfred/uuid.h"
#include "alfred/uuid_scrub.h"
#include "db_error.h"
#include "generated_read.h"
#include "query_record.h"

namespace alfred {

using detail::query_source;

// What each need of the current round is for.
enum class purpose { catalog_read, catalog_write, embed, semantic_rpc, main, verify_created, labels };

namespace {

// The number of elements of the JSON array `text`, counting at most
// `stop_after + 1` (enough to tell that a limit is passed); nothing when the
// text is not an array. No parse: strings are skipped, nesting is counted.
std::optional<std::size_t> array_length(std::string_view text, std::size_t stop_after) {
  std::size_t at = text.find_first_not_of(" \t\r\n");
  if (at == std::string_view::npos || text[at] != '[') return std::nullopt;
  std::size_t elements = 0;
  long depth = 0;
  bool empty = true;
  const char* data = text.data();
  const std::size_t size = text.size();
  for (; at < size; ++at) {
    const char c = data[at];
    if (c == '"') {
      // Plain runs of a string are skipped eight bytes at a time; an escape
      // takes the byte after its backslash along.
      for (++at;;) {
        at = detail::end_of_plain_run(data, at, size);
        if (at >= size) return std::nullopt;  // cut off inside the string
        if (data[at] == '"') break;
        at += data[at] == '\\' ? 2 : 1;
      }
      if (depth == 1) empty = false;
    } else if (c == '[' || c == '{') {
      if (depth == 1) empty = false;
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth == 0) return empty ? 0 : elements + 1;
    } else if (c == ',' && depth == 1) {
      if (++elements > stop_after) return elements;
    } else if (depth == 1 && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
      empty = false;
    }
  }
  return std::nullopt;  // cut off before the closing bracket
}

// The first string (value or key) in `value` longer than `max_bytes`, as a
// path; `path` is null at the top of the params.
std::optional<std::string> oversized_string(json_value value, const detail::param_path* path, std::size_t max_bytes) {
  if (value.is_string())
    return value.str().size() > max_bytes ? std::optional<std::string>(path ? path->str() : "") : std::nullopt;
  std::optional<std::string> found;
  if (value.is_object())
    value.for_each_member([&](std::string_view key, json_value member) {
      if (found) return;
      const detail::param_path at = path ? path->member(key) : detail::param_path(key);
      if (key.size() > max_bytes)
        found = at.str();
      else
        found = oversized_string(member, &at, max_bytes);
    });
  else if (value.is_array())
    value.for_each_element([&](std::size_t i, json_value item) {
      if (found) return;
      const detail::param_path at = path ? path->element(i) : detail::param_path("");
      found = oversized_string(item, &at, max_bytes);
    });
  return found;
}

std::string byte_size(std::size_t bytes) {
  if (bytes >= (std::size_t(1) << 20) && bytes % (std::size_t(1) << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

}  // namespace

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
  /// Semantic search ranking (UUIDs, best first); set once the RPC answered.
  std::optional<std::vector<std::string>> ranking;
  std::optional<long> semantic_limit;

  /// The main response, kept while the labels it refers to are looked up.
  std::string main_body;
  int main_status = 0;
  /// The total from Content-Range when the call asked for a count and the
  /// server knew it.
  std::optional<long long> main_total;
  /// The target table of each label lookup of the current round.
  std::vector<const table*> label_targets;

  /// create: the id of each row sent (canonical UUIDs, aligned with the
  /// call's rows); empty when the database assigns them.
  std::vector<std::string> created_ids;
  /// gen_ refs this execution holds a save claim on.
  std::vector<std::string> claims;
  /// While created rows are read back by id: the error to report when they
  /// are not all there, and the note when they are.
  std::optional<error> unverified;
  std::string verified_note;

  std::vector<need> needs;
  std::vector<purpose> purposes;
  std::vector<std::optional<need_response>> responses;

  bool finished = false;
  std::string result;

  state(const domain& d, ref_registry& r, request_context o, execution_options s)
      : dom(d), registry(r), options(std::move(o)), settings(std::move(s)) {}
  ~state() { release_claims(); }
  state(const state&) = delete;
  state& operator=(const state&) = delete;

  void release_claims() {
    for (const auto& ref : claims) registry.release_save(ref);
    claims.clear();
  }

  // ---- finishing ----------------------------------------------------------

  void finish(std::string_view data_json, const error* err, std::optional<long long> count) {
    record.count = count;
    // Everything after the data first, so the result (megabytes of rows, at
    // times) is allocated once at its final size rather than grown twice.
    std::string tail;
    json_writer w(tail);
    w.begin_object();
    w.key("error");
    if (err) {
      // The model sees refs, never UUIDs; the developer keeps the unscrubbed error.
      error shown = *err;
      scrub_error(shown, registry, shown.status != 0);
      scrub_uuids(shown.raw_body, registry);  // a proxy's page can quote ids too
      write_error(w, shown);
    } else {
      w.null();
    }
    w.key("query");
    record.requested = requested ? &*requested : nullptr;
    record.effective = effective ? &*effective : nullptr;
    write_query_record(w, registry, record);
    w.key("count");
    if (count)
      w.integer(*count);
    else
      w.null();
    w.end_object();
    const std::string_view data = data_json.empty() ? std::string_view("null") : data_json;
    std::string().swap(result);
    result.reserve(data.size() + tail.size() + 16);
    result += "{\"data\":";
    result += data;
    result += ',';
    result.append(tail, 1);  // without its opening brace
    finished = true;
    needs.clear();
    purposes.clear();
    responses.clear();
    release_claims();
  }

  void fail(const error& err) { finish({}, &err, std::nullopt); }

  // ---- planning -----------------------------------------------------------

  void start(std::string_view tool_text) {
    tool = std::string(tool_text);
    auto kind = parse_tool_name(tool);
    record.tool = kind ? tool_name(*kind) : std::string_view("unknown");
    const execution_limits& limits = settings.limits;
    if (params_text.size() > limits.max_params_bytes)
      return fail({codes::params_too_large, "",
                   fmt::format("the size of the params is {} bytes, over the limit of {} bytes", params_text.size(),
                               limits.max_params_bytes),
                   "split the work into smaller calls, or raise the limit"});
    auto doc = json_document::parse(params_text);
    if (!doc) return fail({codes::invalid_json, "", "params are not valid JSON: " + doc.err().message, ""});
    params_doc = std::move(*doc);
    const json_value params = params_doc->root();
    if (auto at = oversized_string(params, nullptr, limits.max_string_bytes)) {
      params_doc.reset();
      return fail({codes::value_too_large, *at,
                   fmt::format("a text in the params is over the limit of {}", byte_size(limits.max_string_bytes)),
                   "shorten it, or keep long content out of the database call"});
    }
    record.raw_params = params;
    if (auto table_name = params.is_object() ? params.find("table") : std::nullopt;
        table_name && table_name->is_string())
      record.table = detail::echoed(table_name->str());

    if (kind == tool_kind::read && params.is_object()) {
      if (const table* tbl = dom.find_table(record.table)) {
        if (auto generated = detail::read_generated(dom, registry, *tbl, params)) {
          if (!*generated) return fail(generated->err());
          record.source = query_source::generated;
          record.notes.push_back("answered from generated content that is not saved yet; no database call");
          auto rows = json_document::parse(**generated);
          return finish(**generated, nullptr, rows ? (long long)(rows->root().size()) : 0LL);
        }
      }
    }

    auto call = parse_tool_call(dom, registry, tool, params);
    if (!call) return fail(call.err());
    requested = *call;
    effective = std::move(*call);
    const table& tbl = *effective->tbl;
    record.table = tbl.name;
    record.raw_params.reset();
    // Before any request: without a user's token the call would run as anon
    // and row-level security would answer with nothing, not with an error.
    if (auto signed_in = require_signed_in(tbl, options); !signed_in) return fail(signed_in.err());

    if (effective->kind == tool_kind::read) {
      detail::apply_read_rewrites(tbl, *effective, record.notes);
      terms = detail::catalog_terms(tbl, *effective);
      if (!terms.empty()) {
        std::vector<std::string> names;
        for (const auto& term : terms) names.push_back(term.name);
        if (!add_read_need(detail::catalog_lookup(dom, tbl, names), purpose::catalog_read)) return;
      }
      if (!effective->semantic_query.empty()) {
        if (!tbl.middleware.semantic)
          return fail({codes::unsupported_filter, "filters", fmt::format("{} has no semantic search", tbl.name),
                       "filter with ilike on a text column instead"});
        need n;
        n.type = need::kind::embed;
        n.text = effective->semantic_query;
        add_need(std::move(n), purpose::embed);
      }
    } else if (effective->kind == tool_kind::create || effective->kind == tool_kind::update) {
      if (effective->kind == tool_kind::create && !claim_saves()) return;
      if (effective->kind == tool_kind::create) assign_row_ids();
      auto names = detail::unlinked_names(tbl, *effective);
      if (!names.empty() && !add_read_need(detail::catalog_lookup(dom, tbl, names), purpose::catalog_write)) return;
    }
    if (needs.empty()) plan_main();
  }

  // A gen_ artifact is saved by one call at a time: a second save while the
  // first is in flight would insert a second row the registry cannot
  // promote. A row without an `id: gen_…` marker saves the pending artifact
  // whose label it has (promote_saved), so that one is claimed too.
  bool claim_saves() {
    const tool_call& call = *effective;
    for (std::size_t i = 0; i < call.saves.size(); ++i) {
      std::string ref = call.saves[i];
      const bool marked = !ref.empty();
      if (!marked)
        if (const ref_entry* pending = registry.find_pending_by_label(call.tbl->ref_prefix, label_of(call.rows[i])))
          ref = pending->ref;
      if (ref.empty() || std::find(claims.begin(), claims.end(), ref) != claims.end()) continue;
      if (!registry.claim_save(ref)) {
        const std::string path =
            (call.batch ? fmt::format("data[{}]", i) : std::string("data")) + (marked ? ".id" : "");
        fail({codes::save_in_progress, path,
              fmt::format("{} is being saved by another call that has not finished", ref),
              "wait for that call's result; if it failed, save again"});
        return false;
      }
      claims.push_back(ref);
    }
    return true;
  }

  // The label a create row will have once saved.
  std::string label_of(const row& fields) const {
    std::string text;
    json_writer w(text);
    w.begin_object();
    for (const auto& field : fields) {
      w.key(field.column);
      w.raw_value(field.json);
    }
    w.end_object();
    auto doc = json_document::parse(text);
    return doc ? row_label(*effective->tbl, doc->root()) : std::string();
  }

  // Rows keep the id the caller drew for them, in the order the model gave
  // them, before de-duplication or catalog enrichment moves anything.
  void assign_row_ids() {
    tool_call& call = *effective;
    const column* id_col = call.tbl->find_column("id");
    if (!id_col || settings.row_ids.size() < call.rows.size()) return;
    for (std::size_t i = 0; i < call.rows.size(); ++i)
      call.rows[i].push_back({id_col->name, json_quote(settings.row_ids[i])});
  }

  void add_need(need n, purpose p) {
    needs.push_back(std::move(n));
    purposes.push_back(p);
    responses.emplace_back();
  }

  bool add_read_need(const tool_call& call, purpose p) {
    auto request = build_request(dom, call, options);
    if (!request) {
      fail(request.err());
      return false;
    }
    need n;
    n.request = std::move(*request);
    add_need(std::move(n), p);
    return true;
  }

  void plan_main() {
    tool_call& call = *effective;
    if (call.kind == tool_kind::create) {
      detail::dedupe_batch(*call.tbl, call, record.notes);
      for (const auto& fields : call.rows)
        for (const auto& field : fields)
          if (field.column == "id" && field.json.size() > 2)
            created_ids.push_back(field.json.substr(1, field.json.size() - 2));  // a quoted UUID: no escapes
      if (created_ids.size() != call.rows.size()) created_ids.clear();
    }
    auto request = build_request(dom, call, options);
    if (!request) return fail(request.err());
    need n;
    n.request = std::move(*request);
    add_need(std::move(n), purpose::main);
  }

  // ---- consuming ----------------------------------------------------------

  void respond(std::size_t index, need_response response) {
    if (finished || index >= responses.size() || responses[index]) return;
    responses[index] = std::move(response);
    if (std::any_of(responses.begin(), responses.end(), [](const auto& r) { return !r.has_value(); })) return;
    advance();
  }

  void advance() {
    std::vector<need> round = std::move(needs);
    std::vector<purpose> kinds = std::move(purposes);
    std::vector<std::optional<need_response>> answers = std::move(responses);
    needs.clear();
    purposes.clear();
    responses.clear();
    bool main_answered = false;
    if (!kinds.empty() && kinds.front() == purpose::labels) return consume_labels(answers);
    for (std::size_t i = 0; i < round.size(); ++i) {
      need_response& answer = *answers[i];
      if (round[i].type == need::kind::http) apply_limits(answer);
      switch (kinds[i]) {
        case purpose::catalog_read:
        case purpose::catalog_write:
          if (!consume_catalog(answer, kinds[i])) return;
          break;
        case purpose::embed:
          if (!consume_embedding(answer)) return;
          break;
        case purpose::semantic_rpc:
          if (!consume_ranking(answer)) return;
          break;
        case purpose::main:
          consume_main(std::move(answer));
          main_answered = true;
          break;
        case purpose::verify_created:
          consume_verification(std::move(answer));
          main_answered = true;
          break;
        case purpose::labels:
          break;
      }
    }
    if (main_answered || finished) return;
    if (needs.empty()) plan_main();
  }

  static bool succeeded(const need_response& answer) {
    return answer.status >= 200 && answer.status < 300 && answer.failure == transport_failure::none;
  }

  // A body over the limits is not read: the JS side stops reading at the
  // byte limit already; rows are counted here, before anything is parsed.
  void apply_limits(need_response& answer) const {
    if (answer.failure != transport_failure::none) return;
    const execution_limits& limits = settings.limits;
    std::string why;
    if (answer.body.size() > limits.max_response_bytes) {
      why = fmt::format("{} bytes, over {}", answer.body.size(), byte_size(limits.max_response_bytes));
    } else if (auto rows = array_length(answer.body, limits.max_rows); rows && *rows > limits.max_rows) {
      why = fmt::format("more than {} rows", limits.max_rows);
    } else {
      return;
    }
    answer.failure = transport_failure::too_large;
    answer.body = std::move(why);
    answer.body.shrink_to_fit();
  }

  // What a 2xx body is when it is not an array ("an object", "a number", …),
  // or null for an array. Only the first character is looked at: the
  // translator validates the rest.
  static const char* not_rows(std::string_view body) {
    const auto first = body.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return "an empty body";
    switch (body[first]) {
      case '[':
        return nullptr;
      case '{':
        return "a single object";
      case '"':
        return "a string";
      case 't':
      case 'f':
        return "a boolean";
      case 'n':
        return "null";
      default:
        return body[first] == '-' || (body[first] >= '0' && body[first] <= '9') ? "a number" : "text that is not JSON";
    }
  }

  bool consume_catalog(const need_response& answer, purpose p) {
    const table& tbl = *effective->tbl;
    const std::string catalog = tbl.middleware.catalog->catalog;
    if (!succeeded(answer)) {
      fail(detail::database_error(answer, "looking the name up in " + catalog));
      return false;
    }
    auto entries = detail::read_catalog_rows(dom, registry, tbl, answer.body);
    if (!entries) {
      fail(entries.err());
      return false;
    }
    if (p == purpose::catalog_read)
      detail::link_read_filters(tbl, *effective, terms, *entries, registry, record.notes);
    else
      detail::link_write_rows(tbl, *effective, *entries, registry, record.notes);
    return true;
  }

  bool consume_embedding(const need_response& answer) {
    const table& tbl = *effective->tbl;
    if (answer.status < 200 || answer.status >= 300) {
      fail({codes::embedding_failed, "filters", "embedding the search text failed: " + answer.body,
            "semantic search is unavailable; filter with ilike on name or description instead"});
      return false;
    }
    auto doc = json_document::parse(answer.body);
    bool numbers = doc && doc->root().is_array() && !doc->root().empty();
    std::string vector_text;
    if (numbers) {
      json_writer w(vector_text);
      w.begin_array();
      doc->root().for_each_element([&](std::size_t, json_value item) {
        numbers = numbers && item.is_number();
        if (numbers) w.raw_value(item.raw());
      });
      w.end_array();
    }
    if (!numbers) {
      fail({codes::embedding_failed, "filters", "the embedder returned something other than an array of numbers", ""});
      return false;
    }
    const semantic_search& search = *tbl.middleware.semantic;
    std::string body;
    json_writer w(body);
    w.begin_object();
    w.key(search.embedding_arg);
    w.string(vector_text);
    w.key(search.count_arg);
    w.integer(search.limit);
    w.key(search.distance_arg);
    w.raw_value(search.max_distance);
    w.end_object();
    auto request = build_rpc_request(search.rpc, std::move(body), options);
    if (!request) {
      fail(request.err());
      return false;
    }
    need n;
    n.request = std::move(*request);
    add_need(std::move(n), purpose::semantic_rpc);
    return true;
  }

  bool consume_ranking(const need_response& answer) {
    tool_call& call = *effective;
    const table& tbl = *call.tbl;
    if (!succeeded(answer)) {
      fail(detail::database_error(answer, "semantic search"));
      return false;
    }
    auto doc = json_document::parse(answer.body);
    if (!doc || !doc->root().is_array()) {
      fail({codes::invalid_response, "", "semantic search returned no rows array", ""});
      return false;
    }
    std::vector<std::string> ids;
    doc->root().for_each_element([&](std::size_t, json_value item) {
      auto id = item.find("id");
      if (!id || !id->is_string() || !is_uuid_syntax(id->str())) return;
      const std::string uuid = canonical_uuid(id->str());
      if (!registry.find_by_uuid(uuid))
        registry.register_row(tbl.name, tbl.ref_prefix, uuid, ref_action::linked, row_label(tbl, item));
      ids.push_back(uuid);
    });
    const std::string query = call.semantic_query;
    call.filters.erase(std::remove_if(call.filters.begin(), call.filters.end(),
                                      [](const filter& f) { return f.field == kSemanticField; }),
                       call.filters.end());
    call.semantic_query.clear();
    const semantic_search& search = *tbl.middleware.semantic;
    if (ids.empty()) {
      record.notes.push_back(fmt::format("semantic search for \"{}\" found no {} within distance {}", query, tbl.name,
                                         search.max_distance));
      record.source = query_source::database;
      finish("[]", nullptr, 0LL);
      return false;
    }
    call.filters.insert(call.filters.begin(), detail::uuid_in_filter(*tbl.find_column("id"), ids));
    record.notes.push_back(
        fmt::format("semantic search for \"{}\" ranked {} {} (best first, at most {}, distance ≤ {})", query,
                    ids.size(), tbl.name, search.limit, search.max_distance));
    // The ranking is the order; a limit sent with `id in (…)` would keep
    // arbitrary rows instead of the best ones, so it is applied afterwards.
    if (call.order_by.empty()) {
      ranking = std::move(ids);
      semantic_limit = call.limit;
      call.limit.reset();
    }
    return true;
  }

  // Rows in ranking order, at most `semantic_limit` of them.
  std::string ranked(std::string_view body) const {
    auto doc = json_document::parse(body);
    if (!doc || !doc->root().is_array()) return std::string(body);
    std::vector<std::pair<std::size_t, json_value>> rows;
    doc->root().for_each_element([&](std::size_t, json_value item) {
      auto id = item.find("id");
      const std::string uuid = id && id->is_string() ? canonical_uuid(id->str()) : std::string();
      const auto at = std::find(ranking->begin(), ranking->end(), uuid);
      rows.emplace_back(std::size_t(at - ranking->begin()), item);
    });
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (semantic_limit && rows.size() > std::size_t(*semantic_limit)) rows.resize(std::size_t(*semantic_limit));
    std::string out;
    json_writer w(out);
    w.begin_array();
    for (const auto& [rank, item] : rows) w.value(item);
    w.end_array();
    return out;
  }

  // Created rows: each saved artifact's gen_ ref is bound to its row, named
  // by the call (`id: gen_recipe_1`) or, failing that, by a pending
  // artifact with the same label.
  void promote_saved(std::string_view body) {
    const tool_call& call = *effective;
    const table& tbl = *call.tbl;
    auto doc = json_document::parse(body);
    if (!doc || !doc->root().is_array()) return;
    doc->root().for_each_element([&](std::size_t i, json_value row) {
      auto id = row.find("id");
      if (!id || !id->is_string() || !is_uuid_syntax(id->str())) return;
      const std::string label = row_label(tbl, row);
      const std::string uuid = canonical_uuid(id->str());
      // Rows read back come in any order: the id says which row is which.
      std::size_t at = i;
      if (!created_ids.empty())
        at = std::size_t(std::find(created_ids.begin(), created_ids.end(), uuid) - created_ids.begin());
      std::string gen_ref = at < call.saves.size() ? call.saves[at] : std::string();
      if (gen_ref.empty())
        if (const ref_entry* pending = registry.find_pending_by_label(tbl.ref_prefix, label);
            pending && !(registry.save_claimed(pending->ref) &&
                         std::find(claims.begin(), claims.end(), pending->ref) == claims.end()))
          gen_ref = pending->ref;
      if (gen_ref.empty()) return;
      auto saved = registry.promote(gen_ref, uuid, label);
      if (saved) record.notes.push_back(fmt::format("saved {} as {}", gen_ref, *saved));
    });
  }

  void consume_main(need_response answer) {
    const tool_call& call = *effective;
    const table& tbl = *call.tbl;
    record.source = query_source::database;
    if (call.kind != tool_kind::read) return consume_write(std::move(answer));
    if (!succeeded(answer)) {
      error err = detail::database_error(answer, "reading " + tbl.name);
      return finish({}, &err, std::nullopt);
    }
    // PostgREST answers with an array of rows unless asked for one object
    // (`Accept: application/vnd.pgrst.object+json`), which no request here
    // does; anything else is a broken server or proxy, not zero rows.
    if (const char* shape = not_rows(answer.body)) {
      error err{codes::invalid_response, "",
                fmt::format("the database answered {} with {} instead of an array of rows", tbl.name, shape),
                "this is a server problem, not a tool-call problem; try again"};
      err.status = answer.status;
      return finish({}, &err, std::nullopt);
    }
    // An array cut off (with a Content-Length that matches the cut) is not
    // rows either.
    if (!array_length(answer.body, settings.limits.max_rows)) {
      error err{codes::invalid_response, "",
                fmt::format("reading {} failed: the database answered {} but not with rows", tbl.name,
                            detail::status_line(answer.status)),
                "the database or something in front of it answered oddly; try again"};
      err.status = answer.status;
      return finish({}, &err, std::nullopt);
    }
    if (!call.count.empty()) {
      auto total = detail::content_range_total(answer.content_range);
      if (!total) return fail(total.err());
      main_total = *total;
    }
    main_body = ranking ? ranked(answer.body) : std::move(answer.body);
    look_up_labels();
  }

  // A write's answer. Only a definite refusal (a 4xx, or an error the
  // database itself reported) or a request never sent means "no effect";
  // an answer lost, cut off, unreadable or from a proxy leaves the outcome
  // unknown, and says so. Created rows carry client ids, so such a create
  // is settled by reading its rows back.
  void consume_write(need_response answer) {
    const tool_call& call = *effective;
    const std::string what = fmt::format("{} on {}", tool, call.tbl->name);
    if (succeeded(answer) && is_rows_array(answer.body)) {
      main_status = answer.status;
      main_body = std::move(answer.body);
      if (call.kind == tool_kind::create) promote_saved(main_body);
      return look_up_labels();
    }
    if (answer.status >= 200 && answer.status < 300) {
      const std::string why =
          answer.failure == transport_failure::none
              ? fmt::format("the database answered {} but its answer has no rows", detail::status_line(answer.status))
          : answer.failure == transport_failure::too_large
              ? fmt::format("the database answered {} but its answer is over the limit",
                            detail::status_line(answer.status))
              : fmt::format("the database answered {} but its answer was cut off", detail::status_line(answer.status));
      error unknown = detail::write_outcome_unknown(answer, what, why);
      if (!created_ids.empty() && answer.failure != transport_failure::too_large)
        return verify_created(std::move(unknown),
                              fmt::format("the database's answer ({}) could not be read; the created rows were read "
                                          "back by id",
                                          detail::status_line(answer.status)));
      return finish({}, &unknown, std::nullopt);
    }
    if (answer.status == 0 || answer.failure != transport_failure::none) {
      if (!detail::maybe_sent(answer)) {
        error err = detail::database_error(answer, what);
        return finish({}, &err, std::nullopt);
      }
      const std::string reason = detail::clip_utf8(answer.body, 200);
      error unknown = detail::write_outcome_unknown(
          answer, what,
          answer.status == 0
              ? fmt::format("the request was sent but no answer came ({})", reason.empty() ? "no response" : reason)
              : fmt::format("the answer ({}) was cut off", detail::status_line(answer.status)));
      return finish({}, &unknown, std::nullopt);
    }
    error err = detail::database_error(answer, what);
    // A 5xx that is not the database's own error comes from something in
    // between (a gateway, a proxy), which may have given up after the
    // database committed.
    if (answer.status >= 500 && err.db_code.empty()) {
      error unknown = detail::write_outcome_unknown(
          answer, what,
          fmt::format("{} came from something other than the database", detail::status_line(answer.status)));
      return finish({}, &unknown, std::nullopt);
    }
    // The same ids again: an earlier attempt whose answer was lost did
    // insert these rows. Reading them back tells it apart from a clash on
    // another unique column.
    if (err.db_code == "23505" && !created_ids.empty())
      return verify_created(std::move(err),
                            "these rows were inserted by an earlier attempt whose answer was lost (same row ids); "
                            "nothing was inserted twice");
    finish({}, &err, std::nullopt);
  }

  static bool is_rows_array(std::string_view body) {
    auto doc = json_document::parse(body);
    return doc && doc->root().is_array();
  }

  // Reads the created rows back by their ids; when every one is there they
  // are the result, else `fallback` is.
  void verify_created(error fallback, std::string note) {
    const tool_call& call = *effective;
    tool_call read;
    read.kind = tool_kind::read;
    read.tbl = call.tbl;
    read.filters.push_back(detail::uuid_in_filter(*call.tbl->find_column("id"), created_ids));
    auto request = build_request(dom, read, options);
    if (!request) return finish({}, &fallback, std::nullopt);
    unverified = std::move(fallback);
    verified_note = std::move(note);
    need n;
    n.request = std::move(*request);
    add_need(std::move(n), purpose::verify_created);
  }

  void consume_verification(need_response answer) {
    const auto found = succeeded(answer) && is_rows_array(answer.body)
                           ? array_length(answer.body, settings.limits.max_rows)
                           : std::nullopt;
    if (!found || *found != created_ids.size()) return finish({}, &*unverified, std::nullopt);
    record.notes.push_back(std::move(verified_note));
    main_status = unverified->status;
    main_body = std::move(answer.body);
    promote_saved(main_body);
    look_up_labels();
  }

  void look_up_labels() {
    auto lookups = unlabeled_references(dom, registry, *effective->tbl, main_body);
    if (!lookups || lookups->empty()) return complete_main();
    for (const auto& lookup : *lookups) plan_label_lookup(lookup);
    if (needs.empty()) complete_main();
  }

  // One batched read per target table, in chunks that keep URLs short.
  void plan_label_lookup(const label_lookup& lookup) {
    constexpr std::size_t kChunk = 100;
    const table& target = *lookup.target;
    const column& id_col = *target.find_column("id");
    std::vector<std::string> columns;
    const std::string select = label_select(target);
    for (std::size_t from = 0; from <= select.size();) {
      const auto comma = std::min(select.find(',', from), select.size());
      columns.push_back(select.substr(from, comma - from));
      from = comma + 1;
    }
    for (std::size_t at = 0; at < lookup.uuids.size(); at += kChunk) {
      tool_call call;
      call.kind = tool_kind::read;
      call.tbl = &target;
      call.columns = columns;
      const auto chunk_end = lookup.uuids.begin() + long(std::min(at + kChunk, lookup.uuids.size()));
      call.filters.push_back(
          detail::uuid_in_filter(id_col, std::vector<std::string>(lookup.uuids.begin() + long(at), chunk_end)));
      auto request = build_request(dom, call, options);
      if (!request) continue;  // labels are a nicety; the rows are the result
      need n;
      n.request = std::move(*request);
      add_need(std::move(n), purpose::labels);
      label_targets.push_back(&target);
    }
  }

  // A failed label lookup leaves the main result intact, without those labels.
  void consume_labels(const std::vector<std::optional<need_response>>& answers) {
    std::vector<const table*> targets = std::move(label_targets);
    label_targets.clear();
    for (std::size_t i = 0; i < answers.size(); ++i) {
      const need_response& answer = *answers[i];
      if (!succeeded(answer) || not_rows(answer.body) || !apply_labels(dom, registry, *targets[i], answer.body))
        record.notes.push_back(fmt::format("labels of {} rows could not be fetched", targets[i]->name));
    }
    complete_main();
  }

  void complete_main() {
    const tool_call& call = *effective;
    const table& tbl = *call.tbl;
    const ref_action action = call.kind == tool_kind::read     ? ref_action::read
                              : call.kind == tool_kind::create ? ref_action::created
                              : call.kind == tool_kind::update ? ref_action::updated
                                                               : ref_action::deleted;
    auto rows = translate_rows(dom, registry, tbl, main_body, action);
    std::string().swap(main_body);  // a response can be megabytes: no second copy lives on
    if (!rows && call.kind != tool_kind::read) {
      // The write was applied; only its answer is unusable.
      need_response answered{main_status, "", "", {}};
      error unknown =
          detail::write_outcome_unknown(answered, fmt::format("{} on {}", tool, tbl.name),
                                        fmt::format("the database answered {} but its rows could not be read: {}",
                                                    detail::status_line(main_status), rows.err().message));
      return finish({}, &unknown, std::nullopt);
    }
    if (!rows) return fail(rows.err());
    const long n = long(array_length(*rows, std::size_t(-1)).value_or(0));
    if (n == 0 && (call.kind == tool_kind::update || call.kind == tool_kind::remove))
      record.notes.push_back("no row matched the filters (it may not exist, or may belong to another user)");
    std::optional<long long> count = n;
    if (main_total) count = *main_total;
    if (call.kind == tool_kind::create && !call.batch && n == 1) {
      auto doc = json_document::parse(*rows);
      std::string single;
      json_writer w(single);
      w.value(doc->root().at(0));
      return finish(single, nullptr, count);
    }
    finish(*rows, nullptr, count);
  }
};

execution::execution(const domain& dom, ref_registry& registry, std::string_view tool, std::string params_json,
                     request_context context, execution_options settings)
    : state_(std::make_unique<state>(dom, registry, std::move(context), std::move(settings))) {
  state_->params_text = std::move(params_json);
  state_->start(tool);
}

execution::execution(const domain& dom, ref_registry& registry, std::string_view tool, std::string_view params_json,
                     request_options options, execution_options settings)
    : execution(dom, registry, tool, std::string(params_json), request_context(std::move(options)),
                std::move(settings)) {}

execution::~execution() = default;
execution::execution(execution&&) noexcept = default;
execution& execution::operator=(execution&&) noexcept = default;

bool execution::done() const { return state_->finished; }
const std::vector<need>& execution::needs() const { return state_->needs; }
void execution::respond(std::size_t index, need_response response) { state_->respond(index, std::move(response)); }
const std::string& execution::result_json() const { return state_->result; }

}  // namespace alfred
