#pragma once
// The native benches' timing: the median of rounds, each repeated to last
// about 20 ms (bench/native/translate_rows.cpp, bench/native/one_call.cpp).

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace alfred::bench {

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
