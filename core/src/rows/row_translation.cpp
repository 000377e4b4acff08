#include "alfred/row_translation.h"

#include "alfred/uuid_bits.h"
#include "row_translation_labels.h"
#include "row_translation_stream.h"

namespace alfred {
namespace {

// A parsed row's values as label text.
class document_label_values final : public detail::label_values {
 public:
  explicit document_label_values(json_value row) : row_(row) {}
  std::string_view text_of(std::string_view column) const override {
    auto value = row_.find(column);
    if (!value) return {};
    if (value->is_string()) return value->str();
    if (value->is_number() || value->is_bool()) return value->raw();
    return {};
  }

 private:
  json_value row_;
};

}  // namespace

std::string row_label(const table& tbl, json_value row) {
  std::string scratch;
  return std::string(detail::render_row_label(tbl, document_label_values(row), scratch));
}

result<std::string> translate_rows(const domain& dom, ref_registry& registry, const table& tbl,
                                   std::string_view rows_json, ref_action action) {
  std::string out;
  auto done = detail::translate_row_stream(dom, registry, tbl, rows_json, action, out);
  if (!done) return done.take_error();
  return out;
}

result<labeled_translation> translate_rows_if_labeled(const domain& dom, ref_registry& registry, const table& tbl,
                                                      std::string_view rows_json, ref_action action) {
  labeled_translation out;
  auto done = detail::translate_row_stream(dom, registry, tbl, rows_json, action, out.rows, &out.missing);
  if (!done) return done.take_error();
  return out;
}

result<std::vector<label_lookup>> unlabeled_references(const domain& dom, const ref_registry& registry,
                                                       const table& tbl, std::string_view rows_json) {
  return detail::survey_row_stream(dom, registry, tbl, rows_json);
}

std::string label_select(const table& tbl) {
  std::string select = "id";
  for (const auto& name : detail::label_column_names(tbl)) {
    if (name == "id") continue;
    select += ',';
    select += name;
  }
  return select;
}

status apply_labels(const domain&, ref_registry& registry, const table& target, std::string_view rows_json) {
  auto doc = json_document::parse(rows_json);
  if (!doc) return error{codes::invalid_json, "rows", doc.err().message, "rows must be the JSON PostgREST returned"};
  const json_value root = doc->root();
  auto apply = [&](json_value row) {
    auto id = row.is_object() ? row.find("id") : std::nullopt;
    const auto bits = id && id->is_string() ? parse_uuid_bits(id->str()) : std::nullopt;
    if (!bits) return;
    const std::string label = row_label(target, row);
    if (label.empty()) return;
    const std::size_t known = registry.find_index(*bits);
    if (known != ref_registry::npos)
      registry.set_label(known, label);
    else
      registry.register_row_index(target.name, target.ref_prefix, *bits, ref_action::linked, label);
  };
  if (root.is_array())
    root.for_each_element([&](std::size_t, json_value row) { apply(row); });
  else
    apply(root);
  return ok_status();
}

}  // namespace alfred
