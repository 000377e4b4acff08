#pragma once
// Where a value sits in the tool-call params (`filters[1].value[0]`). Valid
// input is the common case, so a path is a chain of small objects on the
// stack, each naming one step; the text is made only when an error needs it.

#include <cstddef>
#include <string>
#include <string_view>

#include "../json/echo.h"

namespace alfred::detail {

class param_path {
 public:
  /// A top-level key (`filters`, `data`) or any ready-made path text. Keeps
  /// a view: `root` must outlive the path.
  param_path(std::string_view root) : name_(root) {}
  param_path(const char* root) : name_(root) {}

  /// This path + `.name`. Both this path and `name` must outlive the result.
  param_path member(std::string_view name) const { return param_path(this, name, 0, step::member); }
  /// This path + `[index]`. This path must outlive the result.
  param_path element(std::size_t index) const { return param_path(this, {}, index, step::element); }

  /// The path as it appears in errors.
  std::string str() const {
    std::string out;
    append_to(out);
    return out;
  }

 private:
  enum class step : unsigned char { root, member, element };

  param_path(const param_path* parent, std::string_view name, std::size_t index, step kind)
      : parent_(parent), name_(name), index_(index), step_(kind) {}

  void append_to(std::string& out) const {
    if (step_ == step::root) {
      out += name_;
      return;
    }
    parent_->append_to(out);
    if (step_ == step::member) {
      out += '.';
      out += name_.size() > kEchoBytes ? clip_utf8(name_, kEchoBytes) : std::string(name_);  // a model's key
    } else {
      out += '[';
      out += std::to_string(index_);
      out += ']';
    }
  }

  const param_path* parent_ = nullptr;
  std::string_view name_;
  std::size_t index_ = 0;
  step step_ = step::root;
};

}  // namespace alfred::detail
