// The doctest runner, natively under ctest and as WebAssembly under node.
//
// ctest runs each case on its own (doctest_discover_tests in CMakeLists.txt):
// it lists the cases, then runs the binary once per name with
// --test-case=<name>. Two things would let a case pass there without running,
// and both fail here instead:
// - CMake cuts lists at ';', so a name holding one became two ctest tests whose
//   filters matched no case; the case below refuses such names (and names
//   given twice, which would make one ctest test run two cases).
// - doctest exits 0 when its filters select no case; main() exits 1 then, so a
//   stale or mangled name fails under ctest.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "alfred/json/json.h"
#include "alfred/prompt/prompt.h"
#include "alfred_prompt_templates.h"

namespace {

// How many cases the last run selected, from doctest's own count.
struct selection_listener : doctest::IReporter {
  static inline int selected = -1;

  explicit selection_listener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override {
    selected = static_cast<int>(stats.numTestCasesPassingFilters);
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

DOCTEST_REGISTER_LISTENER("selection", 1, selection_listener);

TEST_CASE("test case names hold no semicolon and are unique, so ctest runs every case by its name") {
  std::map<std::string, int> seen;
  for (const auto& registered : doctest::detail::getRegisteredTests()) {
    const std::string name = registered.m_name;
    CAPTURE(name);
    CHECK(name.find(';') == std::string::npos);
    CHECK(++seen[name] == 1);
  }
  CHECK(seen.size() > 100);
}

// The WebAssembly build of the core carries no prompt templates (the package
// hands them over: web/dist/prompt-templates.mjs); the doctest binary gives it
// the same files, compiled in here. The native library has them already.
bool give_prompt_templates() {
  if (!alfred::embedded_template_names().empty()) return true;
  std::string json;
  alfred::json_writer w(json);
  w.begin_object();
  for (const auto& entry : kPromptTemplates) {
    if (entry.name.empty()) continue;
    w.key(entry.name);
    w.string(entry.text);
  }
  w.end_object();
  return alfred::set_prompt_templates(json).ok();
}

int main(int argc, char** argv) {
  if (!give_prompt_templates()) {
    std::fprintf(stderr, "the prompt templates could not be set\n");
    return 1;
  }
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;
  // Listing and counting (--list-test-cases, --count) end no run.
  if (selection_listener::selected == 0) {
    std::fprintf(stderr, "no test case matched the filters: nothing was tested\n");
    return 1;
  }
  return result;
}
