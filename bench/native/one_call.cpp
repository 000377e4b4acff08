// Native micro-benchmark of one tool call's work in the core: a one-row read
// of a to-do table, as bench/fixed-cost.mjs drives it through WebAssembly
// (start_execution with the texts the act sends, the needs, the response,
// the result for the model), timed natively so that a profiler (perf
// record) sees the core alone.
//
//   cmake --build build/native --target alfred_bench_call
//   ./build/native/alfred_bench_call [rounds]   # or: perf record -g ./build/native/alfred_bench_call
//
// Prints the median µs of one call.

#include <cstdio>
#include <optional>
#include <string>

#include "alfred/api/api.h"
#include "alfred/domain/domain.h"
#include "alfred/executor/executor.h"
#include "alfred/registry/registry.h"
#include "median_ms.h"

namespace {

constexpr const char* kDomain =
    R"({"name":"notes","tables":{"notes":{"ref":"note","owner":"user_id","label":["title"],"columns":{)"
    R"("id":{"type":"uuid","writable":false,"nullable":false},"user_id":{"type":"uuid","writable":false,"nullable":false},)"
    R"("title":{"type":"text","required":true},"body":{"type":"text"},"done":{"type":"boolean"},)"
    R"("created_at":{"type":"timestamp","writable":false,"nullable":false}}}}})";
constexpr const char* kContext =
    R"({"url":"https://bench.supabase.co","apiKey":"anon-key","accessToken":)"
    R"("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYXV0aGVudGljYXRlZCIsInN1YiI6ImEwOGZmNDliLTZmNzctNDI2My04NzE2LWM0MzA2OWM0M2E4YyJ9.c2lnbmF0dXJl",)"
    R"("userId":""})";
constexpr const char* kCall =
    "[\"db_read\",{\"maxAffected\":50,\"forModel\":{\"rows\":50,\"chars\":16000,\"fence\":\"k7Qm2xPaZ3\"}}]\n"
    "{\"table\":\"notes\",\"limit\":1}";
constexpr const char* kBody =
    R"([{"id":"b548ea75-c1c3-46d9-8a5f-0e0230f7af37","user_id":"a08ff49b-6f77-4263-8716-c43069c43a8c",)"
    R"("title":"Buy bread","body":"and butter and eggs","done":false,"created_at":"2026-11-28T10:00:00+00:00"}])";

void fail(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  alfred::domain dom;
  if (auto failure = alfred::api::load_domain(dom, kDomain); !failure.empty()) fail(failure);
  alfred::ref_registry registry;
  alfred::request_context context;
  if (auto failure = alfred::api::make_request_context(context, kContext); !failure.empty()) fail(failure);

  std::string scratch;
  std::size_t sink = 0;
  auto call = [&]() {
    std::optional<alfred::execution> execution;
    if (auto failure = alfred::api::start_execution(execution, dom, registry, context, kCall); !failure.empty())
      fail(failure);
    while (execution && !execution->done()) {
      sink += alfred::api::execution_needs(*execution).size();
      if (auto failure = alfred::api::respond(execution, 0, 200, "0-0/*", "application/json; charset=utf-8", "", kBody);
          !failure.empty())
        fail(failure);
    }
    sink += alfred::api::execution_result(*execution, scratch).size();
  };
  call();
  std::printf("%s\n", scratch.c_str());

  const int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
  std::printf("one call: %.2f µs (median of %d rounds)\n", 1000 * alfred::bench::median_ms(rounds, call), rounds);
  return sink == 0;
}
