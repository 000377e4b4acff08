#include "alfred/executor.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "alfred/json.h"
#include "alfred/row_translation.h"
#include "alfred/tool_call.h"
#include "alfred/uuid.h"
#include "alfred/uuid_scrub.h"
#include "content_range.h"
#include "db_error.h"
#include "generated_read.h"
#include "middleware.h"
#include "query_record.h"

namespace alfred {

using detail::query_source;

// What each need of the current round is for.
enum class purpose { catalog_read, catalog_write, embed, semantic_rpc, main, labels };

struct execution::state {
  const domain& dom;
  ref_registry& registry;
  request_options options;
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
  /// The total from Content-Range when the call asked for a count and the
  /// server knew it.
  std::optional<long long> main_total;
  /// The target table of each label lookup of the current round.
  std::vector<const table*> label_targets;

  std::vector<need> needs;
  std::vector<purpose> purposes;
  std::vector<std::optional<need_response>> responses;

  bool finished = false;
  std::string result;

  state(const domain& d, ref_registry& r, request_options o) : dom(d), registry(r), options(std::move(o)) {}

  // ---- finishing ----------------------------------------------------------

  void finish(std::string_view data_json, const error* err, std::optional<long long> count) {
    record.count = count;
    result.clear();
    json_writer w(result);
    w.begin_object();
    w.key("data");
    w.raw_value(data_json.empty() ? std::string_view("null") : data_json);
    w.key("error");
    if (err) {
      // The model sees refs, never UUIDs; the developer keeps the original.
      error shown = *err;
      scrub_error(shown, registry, shown.status != 0);
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
    finished = true;
    needs.clear();
    purposes.clear();
    responses.clear();
  }

  void fail(const error& err) { finish({}, &err, std::nullopt); }

  // ---- planning -----------------------------------------------------------

  void start(std::string_view tool_text) {
    tool = std::string(tool_text);
    auto kind = parse_tool_name(tool);
    record.tool = kind ? tool_name(*kind) : std::string_view("unknown");
    auto doc = json_document::parse(params_text);
    if (!doc) return fail({"invalid_json", "", "params are not valid JSON: " + doc.err().message, ""});
    params_doc = std::move(*doc);
    const json_value params = params_doc->root();
    record.raw_params = params;
    if (auto table_name = params.is_object() ? params.find("table") : std::nullopt;
        table_name && table_name->is_string())
      record.table = std::string(table_name->str());

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
          return fail({"unsupported_filter", "filters", fmt::format("{} has no semantic search", tbl.name),
                       "filter with ilike on a text column instead"});
        need n;
        n.type = need::kind::embed;
        n.text = effective->semantic_query;
        add_need(std::move(n), purpose::embed);
      }
    } else if (effective->kind == tool_kind::create || effective->kind == tool_kind::update) {
      auto names = detail::unlinked_names(tbl, *effective);
      if (!names.empty() && !add_read_need(detail::catalog_lookup(dom, tbl, names), purpose::catalog_write)) return;
    }
    if (needs.empty()) plan_main();
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
    if (call.kind == tool_kind::create) detail::dedupe_batch(*call.tbl, call, record.notes);
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
      const need_response& answer = *answers[i];
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
          consume_main(answer);
          main_answered = true;
          break;
        case purpose::labels:
          break;
      }
    }
    if (main_answered || finished) return;
    if (needs.empty()) plan_main();
  }

  static bool succeeded(const need_response& answer) { return answer.status >= 200 && answer.status < 300; }

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
      fail({"embedding_failed", "filters", "embedding the search text failed: " + answer.body,
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
      fail({"embedding_failed", "filters", "the embedder returned something other than an array of numbers", ""});
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
      fail({"invalid_response", "", "semantic search returned no rows array", ""});
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
      std::string gen_ref = i < call.saves.size() ? call.saves[i] : std::string();
      if (gen_ref.empty())
        if (const ref_entry* pending = registry.find_pending_by_label(tbl.ref_prefix, label)) gen_ref = pending->ref;
      if (gen_ref.empty()) return;
      auto saved = registry.promote(gen_ref, canonical_uuid(id->str()), label);
      if (saved) record.notes.push_back(fmt::format("saved {} as {}", gen_ref, *saved));
    });
  }

  void consume_main(const need_response& answer) {
    const tool_call& call = *effective;
    const table& tbl = *call.tbl;
    record.source = query_source::database;
    if (!succeeded(answer)) {
      const std::string what =
          call.kind == tool_kind::read ? "reading " + tbl.name : fmt::format("{} on {}", tool, tbl.name);
      error err = detail::database_error(answer, what);
      return finish({}, &err, std::nullopt);
    }
    // PostgREST answers with an array of rows unless asked for one object
    // (`Accept: application/vnd.pgrst.object+json`), which no request here
    // does; anything else is a broken server or proxy, not zero rows.
    if (const char* shape = not_rows(answer.body))
      return fail({"invalid_response", "",
                   fmt::format("the database answered {} with {} instead of an array of rows", tbl.name, shape),
                   "this is a server problem, not a tool-call problem; try again"});
    if (!call.count.empty()) {
      auto total = detail::content_range_total(answer.content_range);
      if (!total) return fail(total.err());
      main_total = *total;
    }
    main_body = ranking ? ranked(answer.body) : answer.body;
    if (call.kind == tool_kind::create) promote_saved(main_body);
    auto lookups = unlabeled_references(dom, registry, tbl, main_body);
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
    if (!rows) return fail(rows.err());
    const long n = top_level_elements(*rows);
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

  // The number of elements of the JSON array `text` (the translator's own
  // compact output), without parsing it again.
  static long top_level_elements(std::string_view text) {
    long elements = 0;
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          in_string = false;
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        if (depth == 1 && elements == 0) elements = 1;
        ++depth;
      } else if (c == ']' || c == '}') {
        --depth;
      } else if (c == ',' && depth == 1) {
        ++elements;
      } else if (depth == 1 && elements == 0 && c != ' ') {
        elements = 1;
      }
    }
    return elements;
  }
};

execution::execution(const domain& dom, ref_registry& registry, std::string_view tool, std::string_view params_json,
                     request_options options)
    : state_(std::make_unique<state>(dom, registry, std::move(options))) {
  state_->params_text = std::string(params_json);
  state_->start(tool);
}

execution::~execution() = default;
execution::execution(execution&&) noexcept = default;
execution& execution::operator=(execution&&) noexcept = default;

bool execution::done() const { return state_->finished; }
const std::vector<need>& execution::needs() const { return state_->needs; }
void execution::respond(std::size_t index, need_response response) { state_->respond(index, std::move(response)); }
std::string execution::result_json() const { return state_->result; }

}  // namespace alfred
