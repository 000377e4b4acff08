#pragma once
// The native benches' timing: the median of rounds, each repeated to last
// about 20 ms (bench/native/translate_rows.cpp, bench/native/one_call.cpp,
// bench/native/build_requests.cpp); and the file they read their inputs from.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace alfred::bench {

/// The bytes of the file at `path`; the bench exits when it cannot be read.
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The median ms of `rounds` samples of `step`, each repeated to last ~20 ms.
inline double median_ms(int rounds, const std::function<void()>& step) {
  using clock = std::chrono::steady_clock;
  int repeat = 1;
  for (;;) {
    const auto start = clock::now();
    for (int i = 0; i < repeat; ++i) step();
    if (clock::now() - start > std::chrono::milliseconds(20)) break;
    repeat *= 2;
  }
  std::vector<double> samples;
  for (int r = 0; r < rounds; ++r) {
    const auto start = clock::now();
    for (int i = 0; i < repeat; ++i) step();
    samples.push_back(std::chrono::duration<double, std::milli>(clock::now() - start).count() / repeat);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace alfred::bench
