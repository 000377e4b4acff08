// stable_order against std::stable_sort: the same order for random lists
// with many ties, of every length up to a few merge widths.
#include "../../../core/src/json/stable_order.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace alfred::test {

TEST_CASE("stable_order orders as std::stable_sort does, ties in their first order") {
  std::mt19937 random(7);
  for (std::size_t n = 0; n <= 70; ++n) {
    std::vector<int> keys(n);
    for (int& key : keys) key = int(random() % 5);
    const auto order = detail::stable_order(
        n,
        [](const void* c, std::size_t a, std::size_t b) {
          const auto& k = *static_cast<const std::vector<int>*>(c);
          return k[a] < k[b];
        },
        &keys);
    std::vector<std::uint32_t> expected(n);
    std::iota(expected.begin(), expected.end(), 0u);
    std::stable_sort(expected.begin(), expected.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });
    INFO(n);
    CHECK(order == expected);
  }
  std::vector<std::string> words{"pear", "fig", "apple", "kiwi"};
  detail::apply_order(words, {2, 1, 3, 0});
  CHECK(words == std::vector<std::string>{"apple", "fig", "kiwi", "pear"});
}

}  // namespace alfred::test
